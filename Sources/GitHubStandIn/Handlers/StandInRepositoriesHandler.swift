/// `GET /users/{login}/repos` and `GET /user/{id}/repos`: an account's public repositories.
struct StandInRepositoriesHandler: StandInHandler {
    static let documentation = "https://docs.github.com/rest/repos/repos#list-repositories-for-a-user"

    /// `type` other than member/all means owner, unknown `sort` means full_name, and `direction` other than
    /// asc/desc means the sort's default, all as GitHub ignores values it does not know.
    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let user = request.account else {
            return StandInErrorBody.notFound(documentationURL: Self.documentation)
        }
        let query = request.query
        let type = query["type"].flatMap { StandInRepositoryType(rawValue: $0) } ?? .owner
        let sort = query["sort"].flatMap { StandInRepositorySort(rawValue: $0) } ?? .fullName
        let ascending: Bool
        switch query["direction"] {
        case "asc"?:
            ascending = true
        case "desc"?:
            ascending = false
        default:
            ascending = sort.ascendingByDefault
        }
        let paging = StandInPageRequest(query: query)
        let repositories = request.population.repositories(of: user, type: type, sort: sort, ascending: ascending)
        let range = paging.range(inCount: repositories.count)
        var writer = JSONByteWriter(reservingCapacity: 2 + range.count * 6_500)
        writer.raw("[")
        for position in range {
            if position > range.lowerBound {
                writer.raw(",")
            }
            repositories[position].write(into: &writer)
        }
        writer.raw("]")
        var response = StandInHTTPResponse(status: 200, body: writer.bytes)
        request.setPageLink(
            on: &response, paging: paging, path: "/user/\(user.id)/repos",
            lastPage: paging.pageCount(forCount: repositories.count))
        return response
    }
}
