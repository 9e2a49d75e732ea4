import Domain

extension Endpoint.Method {
    /// Methods compare case-sensitively (RFC 9110), so `get` matches no row; `HEAD` is answered by the `GET` row, as
    /// GitHub does.
    func accepts(_ method: String) -> Bool {
        method == rawValue || (self == .get && method == "HEAD")
    }
}

extension Endpoint {
    private static let accountPrefix = "/users/{username}"

    /// Whether the row is under an account (`/users/{username}/…`), which GitHub also serves under the account's
    /// id, the form its own `Link` URLs use.
    var isAccountScoped: Bool { path.hasPrefix(Self.accountPrefix) }

    /// An account-scoped path under the account's id: `accountPath("583231")` of `.keys` is `/user/583231/keys`.
    func accountPath(_ id: String) -> String {
        "/user/" + id + path.dropFirst(Self.accountPrefix.count)
    }
}

/// A path template such as `/users/{username}/followers`.
///
/// `{name}` matches any non-empty segment and `{name:int}` only a segment `Int` parses; everything else must match
/// literally and case-sensitively. Patterns are matched against the percent-decoded path, so a parameter holds the
/// decoded text (`dependabot%5Bbot%5D` arrives as `dependabot[bot]`).
struct StandInPathPattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case integer(String)
    }

    let description: String
    let segments: [Segment]

    init(_ text: String) {
        precondition(text.hasPrefix("/"), "route pattern \(text) must start with /")
        description = text
        segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { piece in
            guard piece.hasPrefix("{") else {
                precondition(!piece.contains("{") && !piece.contains("}"), "malformed route pattern \(text)")
                return .literal(String(piece))
            }
            precondition(piece.hasSuffix("}") && piece.count > 2, "malformed route pattern \(text)")
            let inner = piece.dropFirst().dropLast()
            if inner.hasSuffix(":int") {
                return .integer(String(inner.dropLast(4)))
            }
            precondition(!inner.contains(":"), "unknown parameter type in route pattern \(text)")
            return .parameter(String(inner))
        }
    }

    /// The pattern without parameter types, as a reader of help text expects: `/user/{account_id}`.
    var readableText: String { description.replacing(":int}", with: "}") }

    /// `pathSegments` is the path split at every `/`, leading empty piece included.
    func match(_ pathSegments: [Substring]) -> StandInPathParameters? {
        // The first piece is what precedes the leading slash: empty unless the path does not start with one.
        guard pathSegments.count == segments.count + 1, pathSegments.first?.isEmpty == true else {
            return nil
        }
        var parameters = StandInPathParameters()
        for (segment, piece) in zip(segments, pathSegments.dropFirst()) {
            switch segment {
            case .literal(let text):
                guard piece == text else {
                    return nil
                }
            case .parameter(let name):
                guard !piece.isEmpty else {
                    return nil
                }
                parameters[name] = String(piece)
            case .integer(let name):
                guard Int(piece) != nil else {
                    return nil
                }
                parameters[name] = String(piece)
            }
        }
        return parameters
    }
}

/// The values a matched pattern's `{name}` segments took, by name.
typealias StandInPathParameters = [String: String]

/// One row of the route table: which requests a handler answers, and which rate limit they spend.
struct StandInRoute: Sendable {
    let method: Endpoint.Method
    /// Usually one; a resource GitHub also serves under a second address (`/user/{account_id}` beside
    /// `/users/{username}`) lists both, so it is still one row.
    let patterns: [StandInPathPattern]
    let handler: any StandInHandler
    let rateResource: StandInRateResource
    /// What `X-Accepted-OAuth-Scopes` says to callers with a token: the scopes the endpoint checks for, usually
    /// none for public reads.
    let acceptedScopes: String
    /// The endpoint's documentation link, which GitHub's error bodies for it carry.
    let documentation: String
    /// The endpoint row's operation id; nil for a route no row has.
    var operationID: String?

    init(
        _ method: Endpoint.Method, _ patterns: [String], handler: any StandInHandler,
        rateResource: StandInRateResource = .core, acceptedScopes: String = "",
        documentation: String = StandInErrorBody.genericDocumentation
    ) {
        precondition(!patterns.isEmpty, "a route needs a path pattern")
        self.method = method
        self.patterns = patterns.map(StandInPathPattern.init)
        self.handler = handler
        self.rateResource = rateResource
        self.acceptedScopes = acceptedScopes
        self.documentation = documentation
    }

    /// The row of an endpoint of the shared table: its method, its path (an account-scoped one also under
    /// `/user/{account_id}/…`), the rate limit it spends, its documentation link, and its scope as
    /// `X-Accepted-OAuth-Scopes` names it: after `user`, which grants every `user:` scope. `acceptedScopes` replaces
    /// that where GitHub names a scope the row does not need (`user` on profiles).
    init(_ endpoint: Endpoint, handler: any StandInHandler, acceptedScopes: String? = nil) {
        var patterns = [endpoint.path]
        if endpoint.isAccountScoped {
            patterns.append(endpoint.accountPath("{account_id:int}"))
        }
        let scope = endpoint.scope.map { $0.hasPrefix("user:") ? "user, " + $0 : $0 }
        self.init(
            endpoint.method, patterns, handler: handler, rateResource: StandInRateResource(endpoint.rateLimit),
            acceptedScopes: acceptedScopes ?? scope ?? "", documentation: endpoint.docs)
        operationID = endpoint.operationID
    }
}

extension StandInRateResource {
    /// The bucket an endpoint row spends.
    init(_ rateLimit: Endpoint.RateLimit) {
        switch rateLimit {
        case .core: self = .core
        case .search: self = .search
        case .free: self = .free
        }
    }
}

/// What the table found for one request.
struct StandInRouteMatch {
    /// Nil when no row has this method and path: GitHub answers 404, also for a known path with another method.
    let route: StandInRoute?
    let parameters: StandInPathParameters

    /// The bucket the request spends: the matched row's, else core.
    var rateResource: StandInRateResource { route?.rateResource ?? .core }
}

/// The rows, matched in order; the first row whose method and pattern both match wins.
struct StandInRouteTable: Sendable {
    let routes: [StandInRoute]

    init(_ routes: [StandInRoute]) {
        self.routes = routes
    }

    func match(method: String, path: String) -> StandInRouteMatch {
        let pathSegments = path.split(separator: "/", omittingEmptySubsequences: false)
        for route in routes where route.method.accepts(method) {
            for pattern in route.patterns {
                if let parameters = pattern.match(pathSegments) {
                    return StandInRouteMatch(route: route, parameters: parameters)
                }
            }
        }
        return StandInRouteMatch(route: nil, parameters: StandInPathParameters())
    }
}
