import Domain
import Foundation
import JSONBytes

extension StandInWorld {
    /// Makes `login` an active member of the organization with `role`, or removes them (`role` nil); false for an
    /// unknown organization. A direct collaborator who joins stops being an outside collaborator by the world's
    /// own rule (`outsideCollaborators(of:)`).
    @discardableResult
    package mutating func setMember(_ login: String, role: String?, of organization: String) -> Bool {
        guard let index = organizationIndex(organization) else { return false }
        var members = organizations[index].members
        let existing = members.firstIndex { $0.login.lowercased() == login.lowercased() }
        switch (role, existing) {
        case (nil, let existing?): members.remove(at: existing)
        case (let role?, let existing?): (members[existing].role, members[existing].active) = (role, true)
        case (let role?, nil): members.append(Member(login: login, role: role))
        case (nil, nil): break
        }
        organizations[index].members = members
        return true
    }
}

/// The writes that change an organization's members between runs, by the methods GitHub documents:
/// - `PUT /orgs/{org}/memberships/{username}` `{"role":"admin"|"member"}`, by an owner: a member's role changes
///   at once; anyone else is invited, a pending membership, until they accept;
/// - `PATCH /user/memberships/orgs/{org}` `{"state":"active"}`, by the invited person: they join;
/// - `DELETE /orgs/{org}/members/{username}`, by an owner: 204, and they are gone.
/// Each answers 200 with the membership (`state`, `role`, `user`), or 204 for a removal; anyone but an owner gets
/// 403, an unknown organization or account 404, a body without a known role or state 422.
struct StandInMembershipWriteHandler: StandInHandler {
    enum Operation: Sendable {
        case set, accept, remove
    }

    let operation: Operation

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        request.asSignedIn(withOneOf: ["admin:org", "write:org"]) { signedIn in
            let notFound = StandInErrorBody.notFound(documentationURL: request.documentation)
            let population = request.population
            let target = operation == .accept ? signedIn : request.parameters["username"].flatMap(population.user)
            guard let organization = request.parameters["org"], let target else { return notFound }
            let field = JSONText.text(of: operation == .accept ? "state" : "role", in: request.body)
            guard operation == .remove || ["admin", "member", "active"].contains(field) else {
                return StandInErrorBody.response(
                    422, message: "Validation Failed", documentationURL: request.documentation)
            }
            return request.context.world.edit { world -> StandInHTTPResponse in
                guard let index = world.organizationIndex(organization) else { return notFound }
                let list = world.organizations[index].members
                let isOwner =
                    world.isMember(signedIn.login, of: world.organizations[index])
                    && list.contains { $0.login.lowercased() == signedIn.login.lowercased() && $0.role == "admin" }
                guard isOwner || operation == .accept else {
                    return StandInErrorBody.response(
                        403, message: "You must be an admin to change an organization's memberships",
                        documentationURL: request.documentation)
                }
                let existing = list.firstIndex { $0.login.lowercased() == target.login.lowercased() }
                switch (operation, existing) {
                case (.remove, _):
                    world.setMember(target.login, role: nil, of: organization)
                    return StandInHTTPResponse(status: 204)
                case (.accept, nil):
                    return notFound
                case (.accept, let existing?):
                    world.organizations[index].members[existing].active = true
                case (.set, let existing?):
                    world.organizations[index].members[existing].role = field
                case (.set, nil):
                    var invited = StandInWorld.Member(login: target.login, role: field)
                    invited.active = false
                    world.organizations[index].members.append(invited)
                }
                guard let membership = world.organizations[index].members.first(where: { $0.login == target.login })
                else { return notFound }
                var writer = JSONByteWriter(reservingCapacity: 1_200)
                writer.raw("{\"state\":")
                writer.string(membership.active ? "active" : "pending")
                writer.raw(",\"role\":")
                writer.string(membership.role)
                writer.raw(",\"user\":")
                target.writeSimpleUser(into: &writer)
                writer.raw("}")
                return StandInHTTPResponse(status: 200, body: writer.bytes)
            }
        }
    }
}

/// The writes GitHub makes from its web UI and documents for its API, which `Scripts/try --world` sends, each
/// answered 204 once the world changed:
/// - `PUT`/`DELETE /user/starred/{owner}/{repo}`: the token's account stars or unstars a repository, now;
/// - `PUT /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}` `{"permission": …}` and `DELETE`, by an owner of the
///   organization: a team's grant on a repository;
/// - `PUT /repos/{owner}/{repo}/collaborators/{username}` `{"permission": …}` and `DELETE`, by an admin of the
///   repository: a direct grant. GitHub invites a new collaborator first (201 with the invitation); the stand-in
///   grants at once, as though the invitation were accepted.
/// An unknown organization, team, repository or account is 404; someone without the right 403; a permission GitHub
/// does not know 422.
struct StandInWorldWriteHandler: StandInHandler {
    enum Operation: Sendable {
        case star, teamGrant, collaborator
    }

    let operation: Operation
    let add: Bool

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        request.asSignedIn(withOneOf: ["repo", "admin:org", "write:org", "public_repo"]) { signedIn in
            let notFound = StandInErrorBody.notFound(documentationURL: request.documentation)
            let forbidden = StandInErrorBody.response(
                403, message: "Must have admin rights to Repository.", documentationURL: request.documentation)
            let permission = JSONText.text(of: "permission", in: request.body)
            guard !add || operation == .star || StandInWorld.level(permission) != nil else {
                return StandInErrorBody.response(
                    422, message: "Validation Failed", documentationURL: request.documentation)
            }
            return request.context.world.edit { world -> StandInHTTPResponse in
                guard let owner = request.parameters["owner"], let name = request.parameters["repo"],
                    let repository = world.repository(owner, name),
                    let index = world.repositoryIndex(owner + "/" + name)
                else { return notFound }
                switch operation {
                case .star:
                    guard var stars = repository.stars else { return StandInHTTPResponse(status: 204) }
                    stars.removeAll { $0.user.lowercased() == signedIn.login.lowercased() }
                    if add { stars.append(.init(starredAt: UTCTimestamp.iso8601(request.now), user: signedIn.login)) }
                    world.repositories[index].stars = stars
                case .teamGrant:
                    guard let org = request.parameters["org"], let orgIndex = world.organizationIndex(org),
                        let slug = request.parameters["team_slug"],
                        let team = world.organizations[orgIndex].teams.firstIndex(where: { $0.slug == slug })
                    else { return notFound }
                    let owners = world.organizations[orgIndex].members.filter { $0.active && $0.role == "admin" }
                    guard owners.contains(where: { $0.login.lowercased() == signedIn.login.lowercased() }) else {
                        return forbidden
                    }
                    world.organizations[orgIndex].teams[team].repositories[repository.fullName] =
                        add ? permission : nil
                case .collaborator:
                    guard let login = request.parameters["username"], let user = request.population.user(login: login)
                    else { return notFound }
                    guard world.permission(of: signedIn.login, on: repository) == 4 else { return forbidden }
                    world.repositories[index].collaborators = repository.collaborators.filter {
                        $0.key.lowercased() != user.login.lowercased()
                    }
                    if add { world.repositories[index].collaborators[user.login] = permission }
                }
                return StandInHTTPResponse(status: 204)
            }
        }
    }
}
