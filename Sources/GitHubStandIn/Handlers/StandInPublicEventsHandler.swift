/// `GET /users/{login}/events/public` (also under `/user/{id}/`): the account's public activity, newest first.
///
/// GitHub serves only the newest 300 events: a page whose first item would be the 301st or later is a 422, and
/// `Link` counts only the pages that reach, so it never offers such a page.
struct StandInPublicEventsHandler: StandInHandler {
    static let documentation = "https://docs.github.com/rest/activity/events#list-public-events-for-a-user"
    static let paginationLimitMessage =
        "In order to keep the API fast for everyone, pagination is limited for this resource."

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let user = request.account else {
            return StandInErrorBody.notFound(documentationURL: Self.documentation)
        }
        let window = StandInPopulation.publicEventsWindow
        let paging = StandInPageRequest(query: request.query)
        let (skipped, overflow) = (paging.page - 1).multipliedReportingOverflow(by: paging.perPage)
        guard !overflow, skipped < window else {
            // Refused whatever the account holds, as GitHub does: the limit is on the page, not the data.
            return StandInErrorBody.response(
                422, message: Self.paginationLimitMessage, documentationURL: "https://docs.github.com/v3/#pagination")
        }
        let population = request.population
        let count = StandInPopulation.publicEventCount(of: user)
        let visible = min(count, window)
        let range = paging.range(inCount: visible)
        var writer = JSONByteWriter(reservingCapacity: 2 + range.count * 700)
        writer.raw("[")
        for position in range {
            if position > range.lowerBound {
                writer.raw(",")
            }
            // Built one at a time, so a page of an account with hundreds of events costs only its own items.
            population.publicEvent(of: user, position: position, count: count).write(into: &writer)
        }
        writer.raw("]")
        var response = StandInHTTPResponse(status: 200, body: writer.bytes)
        request.setPageLink(
            on: &response, paging: paging, path: "/user/\(user.id)/events/public",
            lastPage: paging.pageCount(forCount: visible))
        return response
    }
}
