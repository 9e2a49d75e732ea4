/// Whose follow graph a route reads: the account its path names, or the one its token signs in as.
enum StandInFollowSubject: Sendable {
    /// `/users/{username}/...` or `/user/{account_id}/...`.
    case named
    /// `/user/...`: the token's account; 401 without a token.
    case signedIn
}

/// `GET /users/{username}/followers` and `/following` (also under `/user/{account_id}/`), and the token's own
/// `GET /user/followers` and `/user/following`: one side of the follow graph, as writes left it.
struct StandInFollowHandler: StandInHandler {
    let relation: StandInFollowRelation
    let subject: StandInFollowSubject

    init(_ relation: StandInFollowRelation, of subject: StandInFollowSubject = .named) {
        self.relation = relation
        self.subject = subject
    }

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        let name = relation == .followers ? "followers" : "following"
        let user: StandInUser
        // GitHub's own Link URLs: `/user/{id}/followers` for a named account, `/user/followers` for the token's.
        let linkPath: String
        switch subject {
        case .named:
            guard let named = request.account else {
                return StandInErrorBody.notFound(documentationURL: request.documentation)
            }
            user = named
            linkPath = "/user/\(named.id)/\(name)"
        case .signedIn:
            guard let signedIn = request.signedInAccount else {
                return request.signInRefusal()
            }
            user = signedIn
            linkPath = "/user/\(name)"
        }
        let list = request.followGraph.list(relation, of: user)
        let paging = StandInPageRequest(query: request.query)
        let members = list.members(in: paging.range(inCount: list.count))
        var writer = JSONByteWriter(reservingCapacity: 2 + members.count * 1_000)
        writer.raw("[")
        for (position, member) in members.enumerated() {
            if position > 0 {
                writer.raw(",")
            }
            member.writeSimpleUser(into: &writer)
        }
        writer.raw("]")
        var response = StandInHTTPResponse(status: 200, body: writer.bytes)
        request.setPageLink(
            on: &response, paging: paging, path: linkPath, lastPage: paging.pageCount(forCount: list.count))
        return response
    }
}
