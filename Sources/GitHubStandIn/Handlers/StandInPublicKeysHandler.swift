/// `GET /users/{login}/keys` (also under `/user/{id}/`): the account's public SSH keys.
struct StandInPublicKeysHandler: StandInHandler {
    static let documentation = "https://docs.github.com/rest/users/keys#list-public-keys-for-a-user"

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let user = request.account else {
            return StandInErrorBody.notFound(documentationURL: Self.documentation)
        }
        return request.pagedList(request.population.keys(of: user), path: "/user/\(user.id)/keys", bytesPerItem: 800) {
            $0.write(into: &$1)
        }
    }
}
