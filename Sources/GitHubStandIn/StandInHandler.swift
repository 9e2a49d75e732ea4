/// Answers the requests of one route row: the status, the body and the resource's own headers (`Link`,
/// `Last-Modified`). Faults, rate limiting, ETags and the standard headers are the server's (`reply(to:)`).
protocol StandInHandler: Sendable {
    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse
}

/// A row answered by a function of the request (most are `StandInRouteRequest`'s own methods).
struct StandInAnswer: StandInHandler {
    typealias Function = @Sendable (StandInRouteRequest) -> StandInHTTPResponse
    let answer: Function

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse { answer(request) }
}

/// A request as a handler sees it: the recorded request (`method`, `path`, `query`, the raw `target` paged
/// resources repeat in `Link` URLs, `headers`, `body`), who sent it, the server's time, and the row it matched.
@dynamicMemberLookup
struct StandInRouteRequest {
    let request: RecordedRequest
    let caller: StandInCaller
    let now: Int
    /// Nil: GitHub's 404, also for a known path with another method.
    let route: StandInRoute?
    let parameters: [String: String]
    /// The server, whose population, follow graph, world and ledger every connection shares.
    let context: StandInServer

    /// Routed by its own method, or by `method` (the truncated-body fault routes a request as `GET`).
    init(_ request: RecordedRequest, matchedAs method: String? = nil, on server: StandInServer, now: Int) {
        self.request = request
        self.now = now
        context = server
        caller = StandInCaller(authorization: request.header("Authorization"))
        let match = server.routes.match(method: method ?? request.method, path: request.path)
        route = match?.route
        parameters = Self.owners(match?.parameters ?? [:], in: server.world)
    }

    /// The repository or organization a path names by id (`/repositories/{repository_id}/…`) also by name, and
    /// the one it names by name also by id, for its `Link` URLs; an id of none is left for the handler's 404.
    private static func owners(_ given: [String: String], in state: StandInWorldState) -> [String: String] {
        guard ["repository_id", "organization_id", "repo", "org"].contains(where: { given[$0] != nil }) else {
            return given
        }
        var parameters = given
        let world = state.current
        if let id = given["repository_id"].flatMap({ Int($0) }),
            let index = world.repositories.indices.first(where: { StandInWorld.repositoryID($0) == id })
        {
            (parameters["owner"], parameters["repo"]) = (
                world.repositories[index].owner, world.repositories[index].name
            )
        } else if let repo = given["repo"], let index = world.repositoryIndex((given["owner"] ?? "") + "/" + repo) {
            parameters["repository_id"] = String(StandInWorld.repositoryID(index))
        }
        if let id = given["organization_id"].flatMap({ Int($0) }), let account = world.organizationAccount(id: id) {
            parameters["org"] = account.login
        } else if let org = given["org"], let account = world.organizationAccount(login: org) {
            parameters["organization_id"] = String(account.id)
        }
        return parameters
    }

    /// Where the resource's `Link` URLs point: the path asked, or where the row has a second pattern the one that
    /// names the owner by id, as GitHub's `Link` URLs do (`/user/{id}/followers`, `ownerIDPath`).
    var linkPath: String {
        guard let patterns = route?.patterns, patterns.count == 2 else { return request.path }
        let filled = patterns[1].segments.map { segment -> String? in
            let name = String(segment.dropFirst().dropLast().prefix { $0 != ":" })
            guard segment.hasPrefix("{") else { return String(segment) }
            return parameters[name] ?? (name == "account_id" ? account.map { String($0.id) } : nil)
        }
        return filled.contains(nil) ? request.path : filled.compactMap { $0 }.joined(separator: "/")
    }

    subscript<Value>(dynamicMember path: KeyPath<RecordedRequest, Value>) -> Value { request[keyPath: path] }

    /// The matched row's documentation link, for the resource's error bodies.
    var documentation: String { route?.documentation ?? StandInErrorBody.genericDocumentation }

    var rateResource: StandInRateResource { route?.rateResource ?? .core }

    var population: StandInPopulation { context.population }

    var followGraph: StandInFollowGraph { context.followGraph }

    func header(_ name: String) -> String? { request.header(name) }

    /// The account a `{username}` or `{account_id:int}` segment names, the population's or a world organization.
    var account: StandInUser? {
        if let login = parameters["username"] {
            return population.user(login: login) ?? context.world.current.organizationAccount(login: login)
        }
        if let id = parameters["account_id"].flatMap({ Int($0) }) {
            return population.user(id: id) ?? context.world.current.organizationAccount(id: id)
        }
        return nil
    }

    var signedInAccount: StandInUser? { caller.token.flatMap { population.authenticatedAccount(forToken: $0) } }

    /// The id a rate-limit message names: the token's account's (1 for a token that signs in as no account).
    var callerID: Int { signedInAccount?.id ?? 1 }

    var notFound: StandInHTTPResponse { StandInErrorBody.notFound(documentationURL: documentation) }

    func refusal(_ status: Int, _ message: String) -> StandInHTTPResponse {
        StandInErrorBody.response(status, message: message, documentationURL: documentation)
    }

    /// What GitHub answers instead when `signedInAccount` is nil.
    func signInRefusal() -> StandInHTTPResponse {
        caller.token == nil ? refusal(401, "Requires authentication") : StandInErrorBody.badCredentials
    }

    /// GitHub's refusal of a token with none of `scopes` (`user` grants every `user:` scope); nil when it has one.
    func scopeRefusal(unlessOneOf scopes: [String]) -> StandInHTTPResponse? {
        let granted = caller.scopes ?? []
        guard !granted.contains("user"), granted.allSatisfy({ !scopes.contains($0) }) else { return nil }
        let hides = caller.token.map(StandInTokens.hidesRefusals) == true
        return hides ? notFound : refusal(403, "Resource not accessible by personal access token")
    }

    /// `answer` about the token's account when `signedIn`, else the one the path names.
    func about(signedIn: Bool, _ answer: (StandInUser) -> StandInHTTPResponse) -> StandInHTTPResponse {
        guard let user = signedIn ? signedInAccount : account else { return signedIn ? signInRefusal() : notFound }
        return answer(user)
    }

    /// `answer` as the token's account, when its token has one of `scopes`; else GitHub's refusal.
    func asSignedIn(withOneOf scopes: [String], _ answer: (StandInUser) -> StandInHTTPResponse) -> StandInHTTPResponse {
        guard let signedIn = signedInAccount else { return signInRefusal() }
        return scopeRefusal(unlessOneOf: scopes) ?? answer(signedIn)
    }

    /// The asked page of `count` records, with GitHub's `Link` (under `linkPath`); a page past `cap` is GitHub's 422
    /// (or a resource's own, `pastCap`). Only the page's records are written, so a list of 45,000 costs a page.
    func paged(
        count: Int, cap: Int? = nil, pastCap: [UInt8]? = nil, perPageLimit: Int = 100,
        record: (Int, inout JSONByteWriter) -> Void
    ) -> StandInHTTPResponse {
        let paging = StandInPageRequest(query: request.query, limit: perPageLimit)
        if let cap, paging.startsPast(cap) {
            if let pastCap { return StandInHTTPResponse(status: 422, body: pastCap) }
            return StandInErrorBody.response(
                422, message: "In order to keep the API fast for everyone, pagination is limited for this resource.",
                documentationURL: "https://docs.github.com/v3/#pagination")
        }
        let listed = min(count, cap ?? count)
        let page = JSONByteWriter.array(paging.range(inCount: listed)) { record($1, &$0) }
        let url = context.linkBaseURL + linkPath
        let link = paging.linkHeader(url: url, target: request.target, count: listed)
        return StandInHTTPResponse(status: 200, headers: link.map { [("Link", $0)] } ?? [], body: page)
    }

    func pagedRecords(_ records: [[UInt8]], cap: Int? = nil, perPageLimit: Int = 100) -> StandInHTTPResponse {
        paged(count: records.count, cap: cap, perPageLimit: perPageLimit) { $1.bytes += records[$0] }
    }

    /// `users` as simple users, each with what `extra` adds, paged.
    func pagedUsers(_ users: [StandInUser], extra: (StandInUser, inout JSONByteWriter) -> Void = { _, _ in })
        -> StandInHTTPResponse
    {
        paged(count: users.count) { position, writer in
            users[position].writeSimpleUserFields(into: &writer)
            extra(users[position], &writer)
            writer.raw("}")
        }
    }

    /// The accounts of `logins` the population holds, as `pagedUsers`, in GitHub's order: by id (recorded for a
    /// repository's collaborators and a team's members), or by login, case aside, where `byLogin` (an
    /// organization's members and a repository's assignees).
    func peopleList(
        _ logins: [String], byLogin: Bool = false, extra: (StandInUser, inout JSONByteWriter) -> Void = { _, _ in }
    ) -> StandInHTTPResponse {
        let users = logins.compactMap(population.user(login:))
        return pagedUsers(
            byLogin ? users.sorted { $0.login.lowercased() < $1.login.lowercased() } : users.sorted { $0.id < $1.id },
            extra: extra)
    }
}
