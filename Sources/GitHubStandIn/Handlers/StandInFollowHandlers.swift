/// One of an account's lists (`followers`, `following`), or with `signedIn` the token's own (`GET /user/followers`,
/// `/user/blocks`, which needs the `user` scope).
struct StandInFollowHandler: StandInHandler {
    let relation: StandInFollowRelation
    var signedIn = false

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        request.about(signedIn: signedIn) { user in
            if relation == .blocks, let refusal = request.scopeRefusal(unlessOneOf: ["user"]) { return refusal }
            let members = request.followGraph.members(relation, of: user)
            // GitHub's own Link URLs: `/user/{id}/followers` for a named account, `/user/followers` for the token's.
            return request.pagedUsers(
                members, linkPath: signedIn ? "/user/\(relation)" : "/user/\(user.id)/\(relation)")
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

/// `PUT` and `DELETE /user/following/{username}` and `/user/blocks/{username}`: 204 whether or not anything
/// changed, as on GitHub; blocking oneself or an organization is 422. The scope is checked before the target is
/// looked at, so a missing scope never tells whether an account exists.
struct StandInFollowChangeHandler: StandInHandler {
    let relation: StandInFollowRelation
    let adding: Bool

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        request.asSignedIn(withOneOf: [relation == .blocks ? "user" : "user:follow"]) { signedIn in
            guard let other = request.account else {
                return StandInErrorBody.notFound(documentationURL: request.documentation)
            }
            if relation == .blocks, adding, other.ordinal == signedIn.ordinal || other.type == "Organization" {
                return StandInErrorBody.response(
                    422, message: "Validation Failed", documentationURL: request.documentation)
            }
            request.followGraph.change(relation, signedIn, other, adding: adding)
            return StandInHTTPResponse(status: 204)
        }
    }
}
