/// `GET /users/{login}/followers` and `/following` (also under `/user/{id}/`): one side of the follow graph.
struct StandInFollowHandler: StandInHandler {
    let relation: StandInFollowRelation

    init(_ relation: StandInFollowRelation) {
        self.relation = relation
    }

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let user = request.account else {
            return StandInErrorBody.notFound(
                documentationURL: relation == .followers
                    ? "https://docs.github.com/rest/users/followers#list-followers-of-a-user"
                    : "https://docs.github.com/rest/users/followers#list-the-people-a-user-follows")
        }
        let population = request.population
        let paging = StandInPageRequest(query: request.query)
        let count = population.relationCount(relation, of: user)
        let members = population.relatedUsers(relation, of: user, positions: paging.range(inCount: count))
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
        let name = relation == .followers ? "followers" : "following"
        request.setPageLink(
            on: &response, paging: paging, path: "/user/\(user.id)/\(name)", lastPage: paging.pageCount(forCount: count)
        )
        return response
    }
}
