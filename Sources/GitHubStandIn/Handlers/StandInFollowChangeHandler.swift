/// `PUT /user/following/{username}` (follow) and `DELETE /user/following/{username}` (unfollow), as the token's
/// account: 204 with no body, whether or not anything changed, as both are idempotent on GitHub.
///
/// Refusals in GitHub's order: no token 401; a token without `user:follow` 403, or 404 for a `hide404` token (see
/// `StandInTokens`), before the target is even looked at; an unknown target 404. Following oneself is 204 and
/// changes nothing: GitHub documents no other answer for it (its 422 is for validation and spam in general).
struct StandInFollowChangeHandler: StandInHandler {
    enum Change: Sendable {
        case follow
        case unfollow
    }

    let change: Change

    init(_ change: Change) {
        self.change = change
    }

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let signedIn = request.signedInAccount, let token = request.caller.token else {
            return request.signInRefusal()
        }
        guard StandInTokens.canFollow(request.caller.scopes ?? []) else {
            if StandInTokens.hidesRefusals(token) {
                return StandInErrorBody.notFound(documentationURL: request.documentation)
            }
            return StandInErrorBody.response(
                403, message: StandInErrorBody.missingPermissionMessage, documentationURL: request.documentation)
        }
        guard let target = request.parameters["username"], let other = request.population.user(login: target) else {
            return StandInErrorBody.notFound(documentationURL: request.documentation)
        }
        switch change {
        case .follow:
            request.followGraph.follow(signedIn, other)
        case .unfollow:
            request.followGraph.unfollow(signedIn, other)
        }
        return StandInHTTPResponse(status: 204)
    }
}
