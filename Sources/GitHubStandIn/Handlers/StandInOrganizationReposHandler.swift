/// `GET /orgs/{org}/repos`: the organization's repositories in the world, by name, each GitHub's documented
/// minimal repository made the repository's own (`repositoryRecord`); an unknown organization is GitHub's 404. The
/// REST side of the listing `access` reads through GraphQL.
struct StandInOrganizationReposHandler: StandInHandler {
    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        let world = request.context.world.current
        guard let login = request.parameters["org"], let organization = world.organization(login) else {
            return StandInErrorBody.notFound(documentationURL: request.documentation)
        }
        let repositories = world.repositories.filter { $0.owner.lowercased() == organization.login.lowercased() }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
        return request.pagedRecords(repositories.map { request.repositoryRecord($0.fullName, in: world) })
    }
}
