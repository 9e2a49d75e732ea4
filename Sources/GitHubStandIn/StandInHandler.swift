/// Answers the requests of one route row: the status, the body and the resource's own headers (`Link`,
/// `Last-Modified`). Faults, rate limiting, ETags and the standard headers are the pipeline's business.
protocol StandInHandler: Sendable {
    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse
}

struct StandInContext: Sendable {
    let population: StandInPopulation
    let configuration: StandInConfiguration
    /// Where `Link` URLs point: the server's own address, not api.github.com.
    let baseURL: String
    let ledger: StandInLedger
    let followGraph: StandInFollowGraph
    var world = StandInWorldState()
}

/// The pipeline's request (`method`, `path`, `query`, the raw `target` paged resources repeat in `Link` URLs,
/// `headers`, `body`, `caller`, `now`) with what the route table found for it.
@dynamicMemberLookup
struct StandInRouteRequest {
    let request: StandInRequest
    let parameters: StandInPathParameters
    let context: StandInContext
    /// The matched row's documentation link, for the resource's error bodies.
    let documentation: String

    subscript<Value>(dynamicMember path: KeyPath<StandInRequest, Value>) -> Value { request[keyPath: path] }

    var population: StandInPopulation { context.population }

    var followGraph: StandInFollowGraph { context.followGraph }

    func header(_ name: String) -> String? { request.header(name) }

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

    var signedInAccount: StandInUser? {
        request.caller.token.flatMap { population.authenticatedAccount(forToken: $0) }
    }

    /// What GitHub answers instead when `signedInAccount` is nil.
    func signInRefusal() -> StandInHTTPResponse {
        guard request.caller.token != nil else {
            return StandInErrorBody.response(401, message: "Requires authentication", documentationURL: documentation)
        }
        return StandInErrorBody.badCredentials()
    }

    /// GitHub's refusal of a token with none of `scopes` (`user` grants every `user:` scope); nil when it has one.
    func scopeRefusal(unlessOneOf scopes: [String]) -> StandInHTTPResponse? {
        let granted = request.caller.scopes ?? []
        guard !granted.contains("user"), granted.allSatisfy({ !scopes.contains($0) }) else { return nil }
        if request.caller.token.map(StandInTokens.hidesRefusals) == true {
            return StandInErrorBody.notFound(documentationURL: documentation)
        }
        return StandInErrorBody.response(
            403, message: StandInErrorBody.missingPermissionMessage, documentationURL: documentation)
    }

    /// The asked page of `count` records, with GitHub's `Link` (under `linkPath`); a page past `cap` is GitHub's
    /// 422. Only the page's records are written, so a list of 45,000 costs a page.
    func paged(
        count: Int, cap: Int? = nil, linkPath: String? = nil, record: (Int, inout JSONByteWriter) -> Void
    ) -> StandInHTTPResponse {
        let paging = StandInPageRequest(query: request.query)
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
            on: &response, paging: paging, path: linkPath ?? request.path, lastPage: paging.pageCount(forCount: listed))
        return response
    }

    func pagedRecords(_ records: [[UInt8]], cap: Int? = nil, linkPath: String? = nil) -> StandInHTTPResponse {
        paged(count: records.count, cap: cap, linkPath: linkPath) { $1.bytes += records[$0] }
    }

    func pagedUsers(_ users: [StandInUser], linkPath: String? = nil) -> StandInHTTPResponse {
        paged(count: users.count, linkPath: linkPath) { users[$0].writeSimpleUser(into: &$1) }
    }

    func setPageLink(
        on response: inout StandInHTTPResponse, paging: StandInPageRequest, path: String, lastPage: Int
    ) {
        if let link = paging.linkHeader(
            baseURL: context.baseURL, path: path, target: request.target, lastPage: lastPage)
        {
            response.setHeader("Link", link)
        }
    }
}
