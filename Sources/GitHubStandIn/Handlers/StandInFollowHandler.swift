/// Whose follow graph a route reads: the account its path names, or the one its token signs in as.
enum StandInFollowSubject: Sendable {
    /// `/users/{username}/...` or `/user/{account_id}/...`.
    case named
    /// `/user/...`: the token's account; 401 without a token.
    case signedIn
}

/// The account a route reads, or GitHub's refusal when there is none.
enum StandInSubjectLookup {
    case found(StandInUser)
    /// GitHub's 404 for a path that names no account; its sign-in refusal for `/user/…` without a token.
    case refused(StandInHTTPResponse)
}

extension StandInRouteRequest {
    func subject(_ subject: StandInFollowSubject) -> StandInSubjectLookup {
        switch subject {
        case .named:
            guard let named = account else {
                return .refused(StandInErrorBody.notFound(documentationURL: documentation))
            }
            return .found(named)
        case .signedIn:
            guard let signedIn = signedInAccount else { return .refused(signInRefusal()) }
            return .found(signedIn)
        }
    }
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
        switch request.subject(subject) {
        case .found(let found): user = found
        case .refused(let refusal): return refusal
        }
        // GitHub's own Link URLs: `/user/{id}/followers` for a named account, `/user/followers` for the token's.
        let linkPath = subject == .named ? "/user/\(user.id)/\(name)" : "/user/\(name)"
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
