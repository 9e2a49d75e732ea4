/// `GET /user`: the profile of the account the token signs in as (see `StandInTokens`).
///
/// Tokens with the `user` or `read:user` scope see the private-user form; others see only the public profile,
/// as GitHub documents. Without a token GitHub answers 401 "Requires authentication".
struct StandInAuthenticatedUserHandler: StandInHandler {
    static let documentation = "https://docs.github.com/rest/users/users#get-the-authenticated-user"

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let token = request.caller.token else {
            return StandInErrorBody.response(
                401, message: "Requires authentication", documentationURL: Self.documentation)
        }
        guard let user = request.population.authenticatedAccount(forToken: token) else {
            // Only an empty population has nobody to sign in as.
            return StandInErrorBody.badCredentials()
        }
        let body =
            StandInTokens.canReadPrivateProfile(request.caller.scopes ?? [])
            ? user.privateUserJSONBytes() : user.publicUserJSONBytes()
        var response = StandInHTTPResponse(status: 200, body: body)
        response.setHeader(
            "Last-Modified", UTCTimestamp.httpDate(StandInProfileNumbers(ordinal: user.ordinal).updatedAt))
        return response
    }
}
