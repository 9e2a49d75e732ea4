/// `GET /users/{login}/starred` (also under `/user/{id}/`): repositories the account starred.
///
/// `Accept: application/vnd.github.star+json` wraps each repository as `{"starred_at", "repo"}`. The body differs,
/// so the pipeline's body-derived ETag differs between the two media types, and `Vary: Accept` tells caches so.
struct StandInStarredHandler: StandInHandler {
    static let documentation =
        "https://docs.github.com/rest/activity/starring#list-repositories-starred-by-a-user"

    /// Unknown `sort` and `direction` values mean the defaults (created, descending), as GitHub ignores them.
    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let user = request.account else {
            return StandInErrorBody.notFound(documentationURL: Self.documentation)
        }
        let sort = request.query["sort"].flatMap { StandInStarSort(rawValue: $0) } ?? .created
        let direction = request.query["direction"].flatMap { StandInSortDirection(rawValue: $0) } ?? .desc
        let stars = request.population.starred(by: user, sort: sort, direction: direction)
        let path = "/user/\(user.id)/starred"
        if Self.wantsStarTimestamps(request.header("Accept")) {
            return request.pagedList(stars, path: path, bytesPerItem: 6_600) { $0.writeStar(into: &$1) }
        }
        return request.pagedList(stars, path: path, bytesPerItem: 6_500) { $0.repository.write(into: &$1) }
    }

    /// GitHub's media types may name the API version (`application/vnd.github.v3.star+json`); any listed type
    /// that asks for `star` counts.
    static func wantsStarTimestamps(_ accept: String?) -> Bool {
        guard let accept = accept?.lowercased() else {
            return false
        }
        return accept.contains("application/vnd.github.star+json")
            || accept.contains("application/vnd.github.v3.star+json")
    }
}
