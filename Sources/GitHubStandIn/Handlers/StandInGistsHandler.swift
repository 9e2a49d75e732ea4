/// `GET /users/{login}/gists` (also under `/user/{id}/`): the account's public gists, newest first.
struct StandInGistsHandler: StandInHandler {
    static let documentation = "https://docs.github.com/rest/gists/gists#list-gists-for-a-user"

    /// `since` keeps gists updated at or after an ISO 8601 time; a value that does not parse is ignored rather
    /// than refused, since GitHub's exact refusal for it is not documented.
    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let user = request.account else {
            return StandInErrorBody.notFound(documentationURL: Self.documentation)
        }
        let since = request.query["since"].flatMap(UTCTimestamp.epochSeconds(iso8601:))
        return request.pagedList(
            request.population.gists(of: user, since: since), path: "/user/\(user.id)/gists", bytesPerItem: 2_600
        ) {
            $0.write(into: &$1)
        }
    }
}
