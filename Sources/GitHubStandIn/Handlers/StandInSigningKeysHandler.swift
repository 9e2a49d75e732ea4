/// `GET /users/{login}/ssh_signing_keys` (also under `/user/{id}/`): the account's SSH commit-signing keys.
struct StandInSigningKeysHandler: StandInHandler {
    static let documentation = "https://docs.github.com/rest/users/ssh-signing-keys#list-ssh-signing-keys-for-a-user"

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let user = request.account else {
            return StandInErrorBody.notFound(documentationURL: Self.documentation)
        }
        return request.pagedList(
            request.population.signingKeys(of: user), path: "/user/\(user.id)/ssh_signing_keys", bytesPerItem: 300
        ) {
            $0.write(into: &$1)
        }
    }
}
