/// Answers the requests of one resource once the route table has picked its row.
///
/// A handler returns the status, the body and the headers that belong to the resource itself (`Link`,
/// `Last-Modified`). Faults, credentials, rate limiting, ETags and the standard headers are the pipeline's business,
/// so a handler never sees a request those stages refused.
protocol StandInHandler: Sendable {
    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse
}

/// The server-wide state handlers read; one per running server.
struct StandInContext: Sendable {
    let population: StandInPopulation
    let configuration: StandInConfiguration
    /// Where `Link` URLs point: the server's own address, not api.github.com.
    let baseURL: String
    let ledger: StandInLedger
    /// Who follows whom, as writes left it; shared by every connection.
    let followGraph: StandInFollowGraph
    /// The organizations, teams and repositories, as writes left them.
    var world = StandInWorldState()
}

/// A request as a handler sees it: decoded, matched, with its caller known.
struct StandInRouteRequest {
    let method: String
    let path: String
    let query: [String: String]
    /// The raw request-target, which paged resources need to repeat the caller's query in `Link` URLs.
    let target: String
    let parameters: StandInPathParameters
    /// In arrival order; names compare case-insensitively through `header(_:)`.
    let headers: [(name: String, value: String)]
    let body: [UInt8]
    let caller: StandInCaller
    let now: Int
    let context: StandInContext
    /// The matched row's documentation link, for the resource's error bodies.
    let documentation: String

    var population: StandInPopulation { context.population }

    var followGraph: StandInFollowGraph { context.followGraph }

    func header(_ name: String) -> String? { headerValue(name, in: headers) }

    /// The account a `{username}` or `{account_id:int}` segment names; nil when there is no such account.
    var account: StandInUser? {
        if let login = parameters["username"] {
            return population.user(login: login)
        }
        if let id = parameters["account_id"].flatMap({ Int($0) }) {
            return population.user(id: id)
        }
        return nil
    }

    /// The account the token signs in as (see `StandInTokens`); nil without a token, or in an empty population.
    var signedInAccount: StandInUser? {
        caller.token.flatMap { population.authenticatedAccount(forToken: $0) }
    }

    /// What GitHub answers instead when `signedInAccount` is nil: 401 `Requires authentication` without a token,
    /// with the endpoint's documentation link as `GET /user` has it; `Bad credentials` when nobody can sign in.
    func signInRefusal() -> StandInHTTPResponse {
        guard caller.token != nil else {
            return StandInErrorBody.response(401, message: "Requires authentication", documentationURL: documentation)
        }
        return StandInErrorBody.badCredentials()
    }

    /// What GitHub answers a token that has none of `scopes` (`user` grants every `user:` scope): 403 `Resource
    /// not accessible by personal access token`, or 404 for a `hide404` token (see `StandInTokens`); nil when it
    /// has one.
    func scopeRefusal(unlessOneOf scopes: [String]) -> StandInHTTPResponse? {
        let granted = caller.scopes ?? []
        guard !granted.contains("user"), granted.allSatisfy({ !scopes.contains($0) }) else { return nil }
        if caller.token.map(StandInTokens.hidesRefusals) == true {
            return StandInErrorBody.notFound(documentationURL: documentation)
        }
        return StandInErrorBody.response(
            403, message: StandInErrorBody.missingPermissionMessage, documentationURL: documentation)
    }

    /// The page the query asks for of a list of `count` records, as a JSON array of what `record` writes for each
    /// position, with GitHub's `Link` header (URLs under `linkPath`, the request's own path by default). Past `cap`
    /// nothing is listed: a page that starts there is GitHub's 422, and `Link` never points past the page that
    /// holds the cap's last record. Records are written for the page alone, so a list of 45,000 costs a page.
    func paged(
        count: Int, cap: Int? = nil, linkPath: String? = nil, record: (Int, inout JSONByteWriter) -> Void
    ) -> StandInHTTPResponse {
        let paging = StandInPageRequest(query: query)
        if let cap, paging.startsPast(cap) {
            return StandInErrorBody.response(
                422, message: StandInRecordedHandler.paginationLimitMessage,
                documentationURL: "https://docs.github.com/v3/#pagination")
        }
        let listed = min(count, cap ?? count)
        let range = paging.range(inCount: listed)
        var writer = JSONByteWriter(reservingCapacity: 2 + range.count * 1_200)
        writer.raw("[")
        for position in range {
            writer.raw(position == range.lowerBound ? "" : ",")
            record(position, &writer)
        }
        writer.raw("]")
        var response = StandInHTTPResponse(status: 200, body: writer.bytes)
        setPageLink(
            on: &response, paging: paging, path: linkPath ?? path, lastPage: paging.pageCount(forCount: listed))
        return response
    }

    /// `paged` over records already written.
    func pagedRecords(_ records: [[UInt8]], cap: Int? = nil, linkPath: String? = nil) -> StandInHTTPResponse {
        paged(count: records.count, cap: cap, linkPath: linkPath) { $1.bytes += records[$0] }
    }

    /// `paged` over accounts, each as GitHub's simple user.
    func pagedUsers(_ users: [StandInUser], linkPath: String? = nil) -> StandInHTTPResponse {
        paged(count: users.count, linkPath: linkPath) { users[$0].writeSimpleUser(into: &$1) }
    }

    /// Sets GitHub's page-based `Link` header, when the list has more than one page, with URLs under `path`.
    func setPageLink(
        on response: inout StandInHTTPResponse, paging: StandInPageRequest, path: String, lastPage: Int
    ) {
        if let link = paging.linkHeader(baseURL: context.baseURL, path: path, target: target, lastPage: lastPage) {
            response.setHeader("Link", link)
        }
    }
}
