import Domain

/// Every account-scoped list (`GET /users/{username}/keys` and the rest of `accountLists`), over the records of its
/// row's generator: GitHub's 404 for an unknown account, page-based paging with `Link` URLs under
/// `/user/{account_id}/…` as GitHub's own are, the row's media type, and the row's cap.
///
/// A capped row (events: 300) refuses a page whose first item would lie past the cap with GitHub's 422, whatever
/// the account holds, and its `Link` counts only the pages within the cap, so it never offers such a page.
struct StandInAccountListHandler: StandInHandler {
    static let paginationLimitMessage =
        "In order to keep the API fast for everyone, pagination is limited for this resource."

    let endpoint: Endpoint
    let generator: StandInRecordGenerator
    /// The account the path names, or the token's own (`GET /user/subscriptions`).
    var subject: StandInFollowSubject = .named

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        let account: StandInUser
        switch request.subject(subject) {
        case .found(let found): account = found
        case .refused(let refusal): return refusal
        }
        let paging = StandInPageRequest(query: request.query)
        var cap = Int.max
        if case .capped(let limit) = endpoint.paging {
            guard !paging.startsPast(limit) else {
                return StandInErrorBody.response(
                    422, message: Self.paginationLimitMessage,
                    documentationURL: "https://docs.github.com/v3/#pagination")
            }
            cap = limit
        }
        let records = generator.records(
            StandInListQuery(
                account: account, population: request.population, query: request.query,
                inMediaType: asksForMediaType(request.header("Accept"))))
        let count = min(records.count, cap)
        let range = paging.range(inCount: count)
        var writer = JSONByteWriter(reservingCapacity: 2 + range.count * generator.bytesPerRecord)
        writer.raw("[")
        for position in range {
            if position > range.lowerBound {
                writer.raw(",")
            }
            records.write(position, &writer)
        }
        writer.raw("]")
        var response = StandInHTTPResponse(status: 200, body: writer.bytes)
        request.setPageLink(
            on: &response, paging: paging,
            path: subject == .named ? endpoint.accountPath(String(account.id)) : endpoint.path,
            lastPage: paging.pageCount(forCount: count))
        return response
    }

    /// Whether `Accept` names the row's own media type; GitHub's may name the API version too
    /// (`application/vnd.github.v3.star+json`). The body differs, so the pipeline's body-derived ETag differs
    /// between the two, and `Vary: Accept` tells caches so.
    func asksForMediaType(_ accept: String?) -> Bool {
        guard let mediaType = endpoint.mediaType, let accept = accept?.lowercased() else {
            return false
        }
        return accept.contains(mediaType) || accept.contains(mediaType.replacing("vnd.github.", with: "vnd.github.v3."))
    }
}

/// A list GitHub no longer serves to anyone: `GET /users/{username}/subscriptions` since July 2026 answers
/// `204 No Content` with no body, with or without a token, whoever is named (GitHub's REST page for watching,
/// "New access restrictions"; python-github-backup pull request #521 and issue #522, 2026-07-05).
struct StandInRetiredListHandler: StandInHandler {
    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        StandInHTTPResponse(status: 204, body: [])
    }
}
