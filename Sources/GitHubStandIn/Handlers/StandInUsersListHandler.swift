extension StandInRouteRequest {
    private static let firstPageLink = #"<https://api.github.com/users{?since}>; rel="first""#

    /// `GET /users`: every account in id order, paged by `since` (an id).
    func usersList() -> StandInHTTPResponse {
        let users = population.users
        let since = request.query["since"].flatMap { Int($0) } ?? 0
        let perPage = StandInPageRequest(query: request.query).perPage
        let start = population.firstPosition(withIDAbove: since)
        let page = users[start..<min(users.count, start + perPage)]
        let records = JSONByteWriter.array(page) { $1.writeSimpleUser(into: &$0) }
        var links = [Self.firstPageLink]
        if let last = page.last, last.ordinal < users.count {
            // GitHub echoes per_page in the next link only when the caller sent it.
            let perPageItem = request.query["per_page"].flatMap { Int($0) } == nil ? "" : "per_page=\(perPage)&"
            links.insert("<\(context.linkBaseURL)/users?\(perPageItem)since=\(last.id)>; rel=\"next\"", at: 0)
        }
        return StandInHTTPResponse(status: 200, headers: [("Link", links.joined(separator: ", "))], body: records)
    }
}
