import Domain
import Foundation
import JSONBytes

extension StandInWorld {
    /// Makes `login` an active member with `role`, or removes them (`role` nil); false for an unknown organization.
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

/// GitHub's membership writes: an owner's `PUT /orgs/{org}/memberships/{username}` changes a member's role at once
/// and invites anyone else; the invited person's `PATCH /user/memberships/orgs/{org}` joins; an owner's `DELETE
/// /orgs/{org}/members/{username}` removes (204). Anyone but an owner gets 403, a body without a known role 422.
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

/// The writes `Scripts/try --world` sends (204 once the world changed): starring, an owner's team grant, and a
/// repository admin's direct grant, which, as on GitHub, changes a collaborator's permission at once and invites
/// anyone else (201), who has no access until they accept. Someone without the right gets 403.
struct StandInWorldWriteHandler: StandInHandler {
    enum Operation: Sendable {
        case star, teamGrant, collaborator, acceptInvitation
    }

    let operation: Operation
    let add: Bool

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        request.asSignedIn(withOneOf: ["repo", "admin:org", "write:org", "public_repo"]) { signedIn in
            let notFound = StandInErrorBody.notFound(documentationURL: request.documentation)
            let forbidden = StandInErrorBody.response(
                403, message: "Must have admin rights to Repository.", documentationURL: request.documentation)
            let permission = JSONText.text(of: "permission", in: request.body)
            guard !add || [.star, .acceptInvitation].contains(operation) || StandInWorld.level(permission) != nil
            else {
                return StandInErrorBody.response(
                    422, message: "Validation Failed", documentationURL: request.documentation)
            }
            return request.context.world.edit { world -> StandInHTTPResponse in
                if operation == .acceptInvitation {
                    return world.accept(request.parameters["invitation_id"].flatMap { Int($0) }, by: signedIn.login)
                        ? StandInHTTPResponse(status: 204) : notFound
                }
                guard let owner = request.parameters["owner"], let name = request.parameters["repo"],
                    let repository = world.repository(owner, name),
                    let index = world.repositoryIndex(owner + "/" + name)
                else { return notFound }
                switch operation {
                case .star:
                    world.repositories[index].setStar(by: signedIn, add, now: request.now)
                case .acceptInvitation:
                    break
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
                    let direct = repository.collaborators.keys.first { $0.lowercased() == user.login.lowercased() }
                    world.repositories[index].invitations.removeAll { $0.login == user.login }
                    if let direct { world.repositories[index].collaborators[direct] = add ? permission : nil }
                    guard add, direct == nil else { break }
                    world.repositoryInvitationsMade += 1
                    let invitation = StandInWorld.Invitation(
                        id: world.repositoryInvitationsMade, login: user.login, permission: permission,
                        createdAt: request.now)
                    world.repositories[index].invitations.append(invitation)
                    let record = request.invitationRecord(
                        invitation, repository, id: StandInWorld.repositoryID(index), by: signedIn)
                    return StandInHTTPResponse(status: 201, body: record)
                }
                return StandInHTTPResponse(status: 204)
            }
        }
    }
}

extension StandInWorld {
    /// False for an invitation that does not exist or is someone else's.
    mutating func accept(_ id: Int?, by login: String) -> Bool {
        for index in repositories.indices {
            guard
                let invitation = repositories[index].invitations.first(where: {
                    $0.id == id && $0.login.lowercased() == login.lowercased()
                })
            else { continue }
            repositories[index].invitations.removeAll { $0.id == id }
            repositories[index].collaborators[invitation.login] = invitation.permission
            return true
        }
        return false
    }
}

extension StandInRouteRequest {
    /// A documented record of octocat/Hello-World (the first of `repos-list-forks` by default) made `fullName`'s:
    /// its names, its own URLs, its `owner` where the population holds it, and its ids; nested records keep theirs.
    func repositoryRecord(_ fullName: String, id: Int, from record: [UInt8]? = nil) -> [UInt8] {
        let forks = StandInRecordedHandler.body(named: "repos-list-forks") ?? []
        let record = record ?? (try? JSONText.arrayElements(forks))?.first.map { Array(forks[$0]) } ?? []
        var values: [String: any Sendable] = [
            "id": id, "node_id": Data("010:Repository\(id)".utf8).base64EncodedString(),
            "name": String(fullName.drop { $0 != "/" }.dropFirst()), "full_name": fullName,
        ]
        for (key, range) in (try? JSONText.objectMembers(record)) ?? [:]
        where values[key] == nil && record[range.lowerBound] == UInt8(ascii: "\"") {
            values[key] = JSONText.text(of: key, in: record).replacing("octocat/Hello-World", with: fullName)
        }
        if let owner = population.user(login: String(fullName.prefix { $0 != "/" })) {
            var writer = JSONByteWriter(reservingCapacity: 1_200)
            owner.writeSimpleUser(into: &writer)
            values["owner"] = writer.bytes
        }
        return replacing(values, in: record)
    }

    func invitationRecord(
        _ invitation: StandInWorld.Invitation, _ repository: StandInWorld.Repository, id: Int,
        by inviter: StandInUser
    ) -> [UInt8] {
        var writer = JSONByteWriter(reservingCapacity: 8_000)
        writer.raw("{\"id\":")
        writer.integer(invitation.id)
        writer.raw(",\"repository\":")
        writer.bytes += repositoryRecord(repository.fullName, id: id)
        for (key, user) in [("invitee", population.user(login: invitation.login)), ("inviter", inviter)] {
            writer.unescaped(",\"\(key)\":")
            if let user { user.writeSimpleUser(into: &writer) } else { writer.null() }
        }
        writer.raw(",\"permissions\":")
        writer.string(StandInWorld.level(invitation.permission).map(StandInWorld.roleName) ?? invitation.permission)
        writer.raw(",\"created_at\":")
        writer.string(UTCTimestamp.iso8601(invitation.createdAt))
        writer.raw(",\"url\":")
        writer.string("https://api.github.com/user/repository_invitations/\(invitation.id)")
        writer.raw(",\"html_url\":")
        writer.string("https://github.com/\(repository.fullName)/invitations")
        writer.raw(",\"node_id\":")
        writer.string(Data("020:RepositoryInvitation\(invitation.id)".utf8).base64EncodedString())
        writer.raw("}")
        return writer.bytes
    }
}
