/// `GET /users/{username}/following/{target_user}` and the token's own `GET /user/following/{username}`: 204 with no
/// body when the account follows the target, GitHub's not-found body when it does not or when either account does
/// not exist (GitHub documents only those two answers, so the 404s cannot be told apart).
struct StandInFollowCheckHandler: StandInHandler {
    let subject: StandInFollowSubject

    init(of subject: StandInFollowSubject) {
        self.subject = subject
    }

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        let follower: StandInUser?
        switch subject {
        case .named:
            follower = request.account
        case .signedIn:
            guard let signedIn = request.signedInAccount else {
                return request.signInRefusal()
            }
            follower = signedIn
        }
        guard let follower, let target = request.parameters["target_user"] ?? request.parameters["username"],
            let followed = request.population.user(login: target), request.followGraph.follows(follower, followed)
        else {
            return StandInErrorBody.notFound(documentationURL: request.documentation)
        }
        return StandInHTTPResponse(status: 204)
    }
}
