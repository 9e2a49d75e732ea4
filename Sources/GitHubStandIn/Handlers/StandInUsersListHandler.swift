/// `GET /users`: every account in id order, paged by `since` (an id).
struct StandInUsersListHandler: StandInHandler {
    static let firstPageLink = #"<https://api.github.com/users{?since}>; rel="first""#

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        let users = request.population.users
        let since = request.query["since"].flatMap { Int($0) } ?? 0
        let requestedPerPage = request.query["per_page"].flatMap { Int($0) }
        let perPage = StandInPageRequest(query: request.query).perPage
        let start = request.population.firstPosition(withIDAbove: since)
        let page = users[start..<min(users.count, start + perPage)]
        var writer = JSONByteWriter(reservingCapacity: 2 + page.count * 1_000)
        writer.raw("[")
        for user in page {
            writer.raw(user.ordinal == start + 1 ? "" : ",")
            user.writeSimpleUser(into: &writer)
        }
        writer.raw("]")
        var response = StandInHTTPResponse(status: 200, body: writer.bytes)
        var links: [String] = []
        if let last = page.last, last.ordinal < users.count {
            // GitHub echoes per_page in the next link only when the caller sent it.
            let perPageItem = requestedPerPage == nil ? "" : "per_page=\(perPage)&"
            links.append("<\(request.context.linkBaseURL)/users?\(perPageItem)since=\(last.id)>; rel=\"next\"")
        }
        links.append(Self.firstPageLink)
        response.setHeader("Link", links.joined(separator: ", "))
        return response
    }
}
