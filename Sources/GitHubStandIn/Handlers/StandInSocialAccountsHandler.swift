/// `GET /users/{login}/social_accounts` (also under `/user/{id}/`): the links on the account's profile.
struct StandInSocialAccountsHandler: StandInHandler {
    static let documentation =
        "https://docs.github.com/rest/users/social-accounts#list-social-accounts-for-a-user"

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let user = request.account else {
            return StandInErrorBody.notFound(documentationURL: Self.documentation)
        }
        return request.pagedList(
            request.population.socialAccounts(of: user), path: "/user/\(user.id)/social_accounts", bytesPerItem: 120
        ) {
            $0.write(into: &$1)
        }
    }
}
