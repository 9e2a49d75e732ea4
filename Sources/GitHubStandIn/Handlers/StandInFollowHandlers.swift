/// `GET /users/{username}/followers` and `/following` (also under `/user/{account_id}/`), and with `signedIn` the
/// token's own `GET /user/followers` and `/user/following`: one side of the follow graph, as writes left it.
struct StandInFollowHandler: StandInHandler {
    let relation: StandInFollowRelation
    var signedIn = false

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        request.about(signedIn: signedIn) { user in
            let name = relation == .followers ? "followers" : "following"
            let members = request.followGraph.members(relation, of: user)
            // GitHub's own Link URLs: `/user/{id}/followers` for a named account, `/user/followers` for the token's.
            return request.pagedUsers(members, linkPath: signedIn ? "/user/\(name)" : "/user/\(user.id)/\(name)")
        }
    }
}

/// `GET /users/{username}/following/{target_user}`: 204 with no body when the account follows the target, GitHub's
/// not-found body when it does not or when either account does not exist (GitHub documents only those two
/// answers, so the 404s cannot be told apart).
struct StandInFollowCheckHandler: StandInHandler {
    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let follower = request.account, let target = request.parameters["target_user"],
            let followed = request.population.user(login: target), request.followGraph.follows(follower, followed)
        else {
            return StandInErrorBody.notFound(documentationURL: request.documentation)
        }
        return StandInHTTPResponse(status: 204)
    }
}

/// `PUT /user/following/{username}` (follow) and `DELETE /user/following/{username}` (unfollow), as the token's
/// account: 204 with no body, whether or not anything changed, as both are idempotent on GitHub.
///
/// Refusals in GitHub's order: no token 401; a token without `user:follow` 403, or 404 for a `hide404` token (see
/// `StandInTokens`), before the target is even looked at; an unknown target 404. Following oneself is 204 and
/// changes nothing: GitHub documents no other answer for it (its 422 is for validation and spam in general).
struct StandInFollowChangeHandler: StandInHandler {
    let follow: Bool

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        request.asSignedIn(withOneOf: ["user:follow"]) { signedIn in
            guard let target = request.parameters["username"], let other = request.population.user(login: target)
            else {
                return StandInErrorBody.notFound(documentationURL: request.documentation)
            }
            if follow {
                request.followGraph.follow(signedIn, other)
            } else {
                request.followGraph.unfollow(signedIn, other)
            }
            return StandInHTTPResponse(status: 204)
        }
    }
}

extension StandInRouteRequest {
    /// `answer` about the account a route reads: the token's when `signedIn`, else the one its path names; when
    /// there is none, GitHub's sign-in refusal or the route's 404.
    func about(signedIn: Bool, _ answer: (StandInUser) -> StandInHTTPResponse) -> StandInHTTPResponse {
        guard let user = signedIn ? signedInAccount : account else {
            return signedIn ? signInRefusal() : StandInErrorBody.notFound(documentationURL: documentation)
        }
        return answer(user)
    }

    /// `answer` as the token's account, when its token has one of `scopes`; else GitHub's refusal, the sign-in
    /// one first (see `signInRefusal()` and `scopeRefusal(unlessOneOf:)`).
    func asSignedIn(withOneOf scopes: [String], _ answer: (StandInUser) -> StandInHTTPResponse) -> StandInHTTPResponse {
        guard let signedIn = signedInAccount else {
            return signInRefusal()
        }
        return scopeRefusal(unlessOneOf: scopes) ?? answer(signedIn)
    }
}
