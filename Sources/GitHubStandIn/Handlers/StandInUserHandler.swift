/// `GET /users/{username}` and `GET /user/{account_id}`: one account's public profile.
struct StandInUserHandler: StandInHandler {
    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let user = request.account else {
            return StandInErrorBody.notFound(documentationURL: request.documentation)
        }
        // The counts move with follows and unfollows, and with them the body and so the ETag.
        let counts = request.followGraph.profileCounts(of: user)
        var response = StandInHTTPResponse(status: 200, body: user.publicUserJSONBytes(followCounts: counts))
        response.setHeader(
            "Last-Modified", UTCTimestamp.httpDate(StandInProfileNumbers(ordinal: user.ordinal).updatedAt))
        return response
    }
}
