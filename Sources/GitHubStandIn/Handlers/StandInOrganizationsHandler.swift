/// `GET /users/{login}/orgs` (also under `/user/{id}/`): the organizations the account is a public member of.
struct StandInOrganizationsHandler: StandInHandler {
    static let documentation = "https://docs.github.com/rest/orgs/orgs#list-organizations-for-a-user"

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let user = request.account else {
            return StandInErrorBody.notFound(documentationURL: Self.documentation)
        }
        return request.pagedList(
            request.population.organizations(of: user), path: "/user/\(user.id)/orgs", bytesPerItem: 800
        ) {
            $0.write(into: &$1)
        }
    }
}
