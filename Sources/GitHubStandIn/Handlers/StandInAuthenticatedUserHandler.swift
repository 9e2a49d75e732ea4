/// `GET /user`: the profile of the account the token signs in as (see `StandInTokens`).
///
/// Tokens with the `user` or `read:user` scope see the private-user form; others see only the public profile,
/// as GitHub documents. Without a token GitHub answers 401 "Requires authentication".
struct StandInAuthenticatedUserHandler: StandInHandler {
    /// What `PATCH /user` changed.
    let edits: StandInProfileEdits

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let user = request.signedInAccount else {
            return request.signInRefusal()
        }
        // The counts move with follows and unfollows, and with them the body and so the ETag.
        let counts = request.followGraph.profileCounts(of: user)
        let edit = edits.edit(of: user)
        let body =
            StandInTokens.canReadPrivateProfile(request.caller.scopes ?? [])
            ? user.privateUserJSONBytes(followCounts: counts, edit: edit)
            : user.publicUserJSONBytes(followCounts: counts, edit: edit)
        var response = StandInHTTPResponse(status: 200, body: body)
        response.setHeader("Last-Modified", UTCTimestamp.httpDate(user.profileUpdatedAt(edit)))
        return response
    }
}
