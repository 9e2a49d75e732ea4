import Domain

extension Endpoint.Method {
    /// Case-sensitive (RFC 9110); `HEAD` is answered by the `GET` row, as GitHub does.
    func accepts(_ method: String) -> Bool { method == rawValue || (self == .get && method == "HEAD") }
}

extension Endpoint {
    private static let accountPrefix = "/users/{username}"

    /// Under `/users/{username}/…`, which GitHub also serves under the account's id, as its `Link` URLs use.
    var isAccountScoped: Bool { path.hasPrefix(Self.accountPrefix) }

    func accountPath(_ id: String) -> String { "/user/" + id + path.dropFirst(Self.accountPrefix.count) }

    /// A repository's or an organization's resource by the owner's id, as GitHub's `Link` URLs name them
    /// (`/repositories/11439734/stargazers?page=2`, github3.py's `Repository_stargazers`;
    /// `/organizations/337792/members?page=2`, octokit.rb's members) and as it serves them too. A team's are
    /// left out: GitHub names those by the team's id, which the world does not give.
    var ownerIDPath: String? {
        let forms = [
            ("/repos/{owner}/{repo}", "/repositories/{repository_id:int}"),
            ("/orgs/{org}", "/organizations/{organization_id:int}"),
        ]
        guard !path.contains("/teams/"), let (name, id) = forms.first(where: { path.hasPrefix($0.0) }) else {
            return nil
        }
        return id + path.dropFirst(name.count)
    }
}

/// A path template: `{name}` matches any non-empty segment, `{name:int}` an integer, the rest literally. Matched
/// against the percent-decoded path.
struct StandInPathPattern: Sendable, CustomStringConvertible {
    let description: String
    let segments: [Substring]

    init(_ text: String) {
        description = text
        segments = text.split(separator: "/", omittingEmptySubsequences: false)
    }

    var readableText: String { description.replacing(":int}", with: "}") }

    func match(_ pathSegments: [Substring]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, piece) in zip(segments, pathSegments) where segment != piece {
            let name = segment.dropFirst().dropLast()
            let integer = name.hasSuffix(":int")
            guard segment.hasPrefix("{"), !piece.isEmpty, !integer || Int(piece) != nil else { return nil }
            parameters[String(integer ? name.dropLast(4) : name)] = String(piece)
        }
        return parameters
    }
}

struct StandInRoute: Sendable {
    let method: Endpoint.Method
    /// A second for a resource GitHub also serves under `/user/{account_id}`.
    let patterns: [StandInPathPattern]
    let handler: any StandInHandler
    var rateResource = StandInRateResource.core
    /// What `X-Accepted-OAuth-Scopes` says to callers with a token.
    var acceptedScopes = ""
    var documentation = StandInErrorBody.genericDocumentation
    var operationID: String?
}

extension StandInRoute {
    /// The row of an endpoint of the shared table. A `user:` scope is named after `user`, which grants it, as
    /// GitHub names them; `acceptedScopes` replaces that where GitHub names one the row does not need.
    init(_ endpoint: Endpoint, handler: any StandInHandler, acceptedScopes: String? = nil) {
        let byID =
            endpoint.isAccountScoped
            ? [endpoint.accountPath("{account_id:int}")] : [endpoint.ownerIDPath].compactMap { $0 }
        let scope = endpoint.scope.map { $0.hasPrefix("user:") ? "user, " + $0 : $0 }
        self.init(
            method: endpoint.method, patterns: ([endpoint.path] + byID).map(StandInPathPattern.init), handler: handler,
            rateResource: StandInRateResource(endpoint.rateLimit), acceptedScopes: acceptedScopes ?? scope ?? "",
            documentation: endpoint.docs, operationID: endpoint.operationID)
    }

    init(_ endpoint: Endpoint, acceptedScopes: String? = nil, answer: @escaping StandInAnswer.Function) {
        self.init(endpoint, handler: StandInAnswer(answer: answer), acceptedScopes: acceptedScopes)
    }

    /// A row the shared table does not list (GraphQL, the world's writes), with one pattern.
    init(
        _ method: Endpoint.Method, _ pattern: String, handler: any StandInHandler,
        rateResource: StandInRateResource = .core
    ) {
        self.init(method: method, patterns: [StandInPathPattern(pattern)], handler: handler, rateResource: rateResource)
    }

    init(_ method: Endpoint.Method, _ pattern: String, answer: @escaping StandInAnswer.Function) {
        self.init(method, pattern, handler: StandInAnswer(answer: answer))
    }
}

struct StandInRouteTable: Sendable {
    let routes: [StandInRoute]

    /// The first row with `method` and a pattern matching `path`; nil: GitHub's 404, also for another method.
    func match(method: String, path: String) -> (route: StandInRoute, parameters: [String: String])? {
        let pathSegments = path.split(separator: "/", omittingEmptySubsequences: false)
        for route in routes where route.method.accepts(method) {
            for pattern in route.patterns {
                if let parameters = pattern.match(pathSegments) { return (route, parameters) }
            }
        }
        return nil
    }
}

extension StandInRouteTable {
    /// Every resource the stand-in serves, one row per endpoint of the shared table: those with behaviour of their
    /// own first, then every other row with a body in `Bodies`. The first matching row wins.
    static func gitHub() -> StandInRouteTable {
        let search = StandInSearchCache()
        let handled = [
            // First because it is the benchmarked path and must not pay for the other comparisons.
            StandInRoute(.listUsers) { $0.usersList() },
            // Its `/user/{account_id}` form is `Endpoint.userByID`. GitHub's documentation names `user` here.
            StandInRoute(.user, acceptedScopes: "user") { $0.profile(signedIn: false) },
            StandInRoute(.authenticatedUser, acceptedScopes: "user") { $0.profile(signedIn: true) },
            StandInRoute(.updateAuthenticatedUser) { $0.editProfile() },
            StandInRoute(.followers) { $0.followList(.followers) },
            StandInRoute(.following) { $0.followList(.following) },
            StandInRoute(.ownFollowers) { $0.followList(.followers, signedIn: true) },
            StandInRoute(.ownFollowing) { $0.followList(.following, signedIn: true) },
            StandInRoute(.checkFollowing) { $0.followCheck() },
            StandInRoute(.follow) { $0.changeFollow(.following, adding: true) },
            StandInRoute(.unfollow) { $0.changeFollow(.following, adding: false) },
            StandInRoute(.blocks) { $0.followList(.blocks, signedIn: true) },
            StandInRoute(.block) { $0.changeFollow(.blocks, adding: true) },
            StandInRoute(.unblock) { $0.changeFollow(.blocks, adding: false) },
            StandInRoute(.searchUsers) { $0.searchUsers(cache: search) },
            StandInRoute(.post, "/graphql", handler: StandInGraphQLHandler(), rateResource: .graphql),
            // GitHub documents that checking the rate limit does not count against it, even when exhausted.
            StandInRoute(.rateLimitStatus) { $0.rateLimitStatus() },
            StandInRoute(.put, "/orgs/{org}/memberships/{username}") { $0.worldWrite(.membership, add: true) },
            StandInRoute(.patch, "/user/memberships/orgs/{org}") { $0.worldWrite(.joining, add: true) },
            StandInRoute(.delete, "/orgs/{org}/members/{username}") { $0.worldWrite(.membership, add: false) },
            StandInRoute(.get, "/orgs/{org}/repos") { $0.repositories() },
            // Retired in July 2026: 204 for everyone (GitHub's REST page for watching, "New access restrictions";
            // python-github-backup #521, #522). The token's own list is still served.
            StandInRoute(.subscriptions) { _ in StandInHTTPResponse(status: 204) },
        ]
        // The world's lists; since July 2026 its stargazers and watchers only to a repository's admins and
        // collaborators, and REST's stargazers stop at 40,000.
        let world = StandInRouteRequest.worldLists.map { list in
            StandInRoute(list, acceptedScopes: recordedScopes[list]) { $0.worldList(list) }
        }
        // What GitHub's web UI changes, for `Scripts/try --world`: PUT adds, DELETE takes away.
        let worldWrites: [(StandInWorldWrite, String)] = [
            (.star, "/user/starred/{owner}/{repo}"),
            (.teamGrant, "/orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}"),
            (.collaborator, "/repos/{owner}/{repo}/collaborators/{username}"),
        ]
        let writes = worldWrites.flatMap { operation, path in
            [
                StandInRoute(.put, path) { $0.worldWrite(operation, add: true) },
                StandInRoute(.delete, path) { $0.worldWrite(operation, add: false) },
            ]
        }
        let accept = StandInRoute(.patch, "/user/repository_invitations/{invitation_id:int}") {
            $0.worldWrite(.acceptInvitation, add: true)
        }
        let behaviour = handled + world + writes + [accept]
        // `.user` answers `/user/{account_id}` too, as its account-scoped second pattern.
        let answered = Set(behaviour.compactMap(\.operationID) + [Endpoint.userByID.operationID])
        let recorded = Endpoint.all.filter { !answered.contains($0.operationID) }.compactMap { row in
            StandInRecordedHandler(row).map { StandInRoute(row, handler: $0) }
        }
        return StandInRouteTable(routes: behaviour + recorded)
    }

    /// `X-Accepted-OAuth-Scopes` as GitHub's recorded answers give it where it is not the one scope the shared
    /// table names (octokit.rb's cassettes `lists_outside_collaborators_for_an_organization`,
    /// `lists_pending_organization_invitations` and `returns_team_members`; github3.py's `Organization_members`
    /// and `Repository_collaborators`; see Bodies/NOTICE.md): a token with any of them is not short of a scope.
    static let recordedScopes: [Endpoint: String] = {
        let organization = "admin:org, read:org, repo, user, write:org"
        return [
            .organization: organization, .members: organization, .teamMembers: organization,
            .outsideCollaborators: "admin:org, read:org, repo, write:org", .invitations: "admin:org, repo",
            .collaborators: "",
        ]
    }()
}
