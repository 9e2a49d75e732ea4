/// The answers about who follows and blocks whom, each the function of a request its route row calls.
extension StandInRouteRequest {
    /// One of an account's lists (`followers`, `following`), or with `signedIn` the token's own (`GET
    /// /user/followers`, `/user/blocks`, which needs the `user` scope).
    func followList(_ relation: StandInFollowRelation, signedIn: Bool = false) -> StandInHTTPResponse {
        about(signedIn: signedIn) { user in
            if relation == .blocks, let refusal = scopeRefusal(unlessOneOf: ["user"]) { return refusal }
            return pagedUsers(followGraph.members(relation, of: user))
        }
    }

    /// `GET /users/{username}/following/{target_user}`: 204, or 404 when not or when either account is missing.
    func followCheck() -> StandInHTTPResponse {
        guard let follower = account, let target = parameters["target_user"],
            let followed = population.user(login: target), followGraph.follows(follower, followed)
        else { return notFound }
        return StandInHTTPResponse(status: 204)
    }

    /// `PUT` and `DELETE /user/following/{username}` and `/user/blocks/{username}`: 204 whether or not anything
    /// changed, as on GitHub; blocking oneself or an organization is 422. The scope is checked before the target is
    /// looked at, so a missing scope never tells whether an account exists.
    func changeFollow(_ relation: StandInFollowRelation, adding: Bool) -> StandInHTTPResponse {
        asSignedIn(withOneOf: [relation == .blocks ? "user" : "user:follow"]) { signedIn in
            guard let other = account else { return notFound }
            if relation == .blocks, adding, other.ordinal == signedIn.ordinal || other.type == "Organization" {
                return refusal(422, "Validation Failed")
            }
            followGraph.change(relation, signedIn, other, adding: adding)
            return StandInHTTPResponse(status: 204)
        }
    }
}
