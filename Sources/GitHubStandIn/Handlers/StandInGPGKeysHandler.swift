/// `GET /users/{login}/gpg_keys` (also under `/user/{id}/`): the account's GPG keys with their subkeys.
struct StandInGPGKeysHandler: StandInHandler {
    static let documentation = "https://docs.github.com/rest/users/gpg-keys#list-gpg-keys-for-a-user"

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let user = request.account else {
            return StandInErrorBody.notFound(documentationURL: Self.documentation)
        }
        return request.pagedList(
            request.population.gpgKeys(of: user), path: "/user/\(user.id)/gpg_keys", bytesPerItem: 2_500
        ) {
            $0.write(into: &$1, isSubkey: false)
        }
    }
}
