import Domain
import Foundation
import JSONBytes

/// Every row of the endpoint table that needs no behaviour of its own, served from a recorded or documented body:
/// `Bodies/<operation id>.json` (`users/list-public-keys-for-user` is `users-list-public-keys-for-user.json`; the
/// folder's `NOTICE.md` gives each body's source). A new list needs its row and its body, and no code here.
///
/// What the row says is what the stand-in does: GitHub's 404 for an unknown account under `/users/{username}/…`
/// and for an organization or repository the world does not hold, its sign-in refusal for the token's own lists
/// and rows that need a token, its refusal of a token without the row's scope, page-based paging of an array body
/// with `Link` URLs under `/user/{account_id}/…` as GitHub's own are, and a capped row's 422 for a page past the
/// cap. A row with a media type (starred's `star+json`) answers callers who do not ask for it with each record's
/// `repo`, as GitHub does.
struct StandInRecordedHandler: StandInHandler {
    static let paginationLimitMessage =
        "In order to keep the API fast for everyone, pagination is limited for this resource."

    let endpoint: Endpoint
    let body: [UInt8]

    /// Nil when the row is no `GET` or has no body in `Bodies`.
    init?(_ endpoint: Endpoint) {
        guard endpoint.method == .get, let body = Self.body(named: endpoint.operationID) else { return nil }
        self.endpoint = endpoint
        self.body = body
    }

    static func body(named operationID: String) -> [UInt8]? {
        let name = operationID.replacing("/", with: "-") + ".json"
        guard let folder = Bundle.module.url(forResource: "Bodies", withExtension: nil) else { return nil }
        return try? Array(Data(contentsOf: folder.appendingPathComponent(name)))
    }

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        var linkPath = request.path
        if endpoint.needsToken || endpoint.path.hasPrefix("/user/"), request.signedInAccount == nil {
            return request.signInRefusal()
        }
        if endpoint.isAccountScoped {
            guard let account = request.account else {
                return StandInErrorBody.notFound(documentationURL: request.documentation)
            }
            linkPath = endpoint.accountPath(String(account.id))
        }
        // An organization or repository the world does not hold is GitHub's 404 (`GET /repos/{owner}/{repo}/forks`).
        let world = request.context.world.current
        let unknownOrganization = request.parameters["org"].map { world.organization($0) == nil } ?? false
        let owner = request.parameters["owner"] ?? ""
        if unknownOrganization || request.parameters["repo"].map({ world.repository(owner, $0) == nil }) ?? false {
            return StandInErrorBody.notFound(documentationURL: request.documentation)
        }
        if let scope = endpoint.scope, let refusal = request.scopeRefusal(unlessOneOf: [scope]) { return refusal }
        guard var records = try? JSONText.arrayElements(body).map({ Array(body[$0]) }) else {
            return StandInHTTPResponse(status: 200, body: body)
        }
        if endpoint.mediaType != nil, !asksForMediaType(request.header("Accept")) {
            records = records.map { JSONText.value(at: ["repo"], in: $0) ?? $0 }
        }
        var cap: Int?
        if case .capped(let limit) = endpoint.paging { cap = limit }
        return request.pagedRecords(records, cap: cap, linkPath: linkPath)
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
