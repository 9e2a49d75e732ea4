/// `GET /users/{username}` and `GET /user/{account_id}`: one account's public profile.
struct StandInUserHandler: StandInHandler {
    /// What `PATCH /user` changed, which the public profile shows too.
    let edits: StandInProfileEdits

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let user = request.account else {
            return StandInErrorBody.notFound(documentationURL: request.documentation)
        }
        // The counts move with follows and unfollows, and with them the body and so the ETag.
        let counts = request.followGraph.profileCounts(of: user)
        let edit = edits.edit(of: user)
        var response = StandInHTTPResponse(
            status: 200, body: user.publicUserJSONBytes(followCounts: counts, edit: edit))
        response.setHeader("Last-Modified", UTCTimestamp.httpDate(user.profileUpdatedAt(edit)))
        return response
    }
}
