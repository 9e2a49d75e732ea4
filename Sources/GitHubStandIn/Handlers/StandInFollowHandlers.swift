/// One side of an account's follow graph, or with `signedIn` the token's own (`GET /user/followers`).
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

/// `GET /users/{username}/following/{target_user}`: 204, or 404 when not, or when either account does not exist.
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

/// `PUT` and `DELETE /user/following/{username}`: 204 whether or not anything changed, as on GitHub. The scope is
/// checked before the target is looked at, so a missing scope never tells whether an account exists.
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
    /// `answer` about the token's account when `signedIn`, else the one the path names.
    func about(signedIn: Bool, _ answer: (StandInUser) -> StandInHTTPResponse) -> StandInHTTPResponse {
        guard let user = signedIn ? signedInAccount : account else {
            return signedIn ? signInRefusal() : StandInErrorBody.notFound(documentationURL: documentation)
        }
        return answer(user)
    }

    /// `answer` as the token's account, when its token has one of `scopes`; else GitHub's refusal.
    func asSignedIn(withOneOf scopes: [String], _ answer: (StandInUser) -> StandInHTTPResponse) -> StandInHTTPResponse {
        guard let signedIn = signedInAccount else {
            return signInRefusal()
        }
        return scopeRefusal(unlessOneOf: scopes) ?? answer(signedIn)
    }
}
