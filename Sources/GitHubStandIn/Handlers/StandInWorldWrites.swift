import Domain
import Foundation
import JSONBytes

extension StandInWorld {
    /// Makes `login` a member with `role`, or removes them (`role` nil); false for an unknown organization. With
    /// `activate` the member is active, else a newcomer is invited (pending) and a member keeps their state.
    @discardableResult
    package mutating func setMember(_ login: String, role: String?, of organization: String, activate: Bool = true)
        -> Bool
    {
        guard let index = organizationIndex(organization) else { return false }
        var members = organizations[index].members
        let existing = members.firstIndex { $0.login.isSame(as: login) }
        switch (role, existing) {
        case (nil, let existing?):
            // Removed from the organization is removed from its teams and "will no longer have any access to the
            // organization's repositories" (GitHub's "Remove an organization member"): direct grants too.
            members.remove(at: existing)
            for team in organizations[index].teams.indices {
                organizations[index].teams[team].members.removeAll { $0.login.isSame(as: login) }
            }
            for repository in repositories.indices where repositories[repository].owner.isSame(as: organization) {
                repositories[repository].collaborators = repositories[repository].collaborators.filter {
                    !$0.key.isSame(as: login)
                }
                repositories[repository].invitations.removeAll { $0.login.isSame(as: login) }
            }
        case (let role?, let existing?):
            (members[existing].role, members[existing].active) = (role, activate || members[existing].active)
        case (let role?, nil): members.append(Member(login: login, role: role, active: activate))
        case (nil, nil): break
        }
        organizations[index].members = members
        return true
    }
}

/// What GitHub's write routes and web UI change in the world (`Scripts/try --world` sends them). An owner's `PUT
/// /orgs/{org}/memberships/{username}` changes a member's role at once and invites anyone else, who joins with
/// `PATCH /user/memberships/orgs/{org}`; an owner's `DELETE /orgs/{org}/members/{username}` removes (204). Starring,
/// an owner's team grant, and a repository admin's direct grant are 204; a direct grant changes a collaborator's
/// permission at once and invites anyone else (201), who has no access until they accept. Someone without the right
/// gets 403, a body without a role, state or permission GitHub knows 422.
enum StandInWorldWrite: Sendable, Hashable {
    case membership, joining, star, teamGrant, collaborator, acceptInvitation
}

extension StandInRouteRequest {
    /// `operation`'s `PUT`, `PATCH` (`add`) or `DELETE`.
    func worldWrite(_ operation: StandInWorldWrite, add: Bool) -> StandInHTTPResponse {
        asSignedIn(withOneOf: ["repo", "admin:org", "write:org", "public_repo"]) { signedIn in
            let key = [StandInWorldWrite.membership: "role", .joining: "state"][operation] ?? "permission"
            let field = JSONText.text(of: key, in: request.body)
            let valid: Bool
            switch operation {
            case .membership: valid = !add || ["admin", "member"].contains(field)
            case .joining: valid = field == "active"
            case .teamGrant, .collaborator: valid = !add || StandInWorld.level(field) != nil
            case .star, .acceptInvitation: valid = true
            }
            guard valid else { return refusal(422, "Validation Failed") }
            let user = parameters["username"].flatMap(population.user(login:))
            return context.world.edit { world -> StandInHTTPResponse in
                let org = parameters["org"].flatMap(world.organizationIndex)
                let repo = parameters["repo"].flatMap { name in
                    parameters["owner"].flatMap { world.repositoryIndex($0 + "/" + name) }
                }
                let owns = org.map { world.organizations[$0].member(signedIn.login)?.role == "admin" } ?? false
                switch operation {
                case .acceptInvitation:
                    let id = parameters["invitation_id"].flatMap { Int($0) }
                    return world.accept(id, by: signedIn.login) ? StandInHTTPResponse(status: 204) : notFound
                case .membership, .joining:
                    let person = operation == .joining ? signedIn : user
                    guard let org, let person else { return notFound }
                    let existing = world.organizations[org].members.firstIndex { $0.login.isSame(as: person.login) }
                    if operation == .joining {
                        guard let existing else { return notFound }
                        world.organizations[org].members[existing].active = true
                    } else if !owns {
                        return refusal(403, "You must be an admin to change an organization's memberships")
                    } else {
                        let login = world.organizations[org].login
                        world.setMember(person.login, role: add ? field : nil, of: login, activate: false)
                        guard add else { return StandInHTTPResponse(status: 204) }
                    }
                    let membership = world.organizations[org].members.first { $0.login.isSame(as: person.login) }
                    return StandInHTTPResponse(status: 200, body: membershipRecord(membership, person))
                case .star:
                    guard let repo else { return notFound }
                    world.repositories[repo].setStar(by: signedIn, add, now: now)
                case .teamGrant:
                    guard let org, let repo,
                        let team = world.organizations[org].teams.firstIndex(where: {
                            $0.slug == parameters["team_slug"]
                        })
                    else { return notFound }
                    guard owns else { return refusal(403, "Must have admin rights to Repository.") }
                    // GitHub's "Add or update team repository permissions": 422 for a repository the organization
                    // does not own.
                    let repository = world.repositories[repo]
                    guard repository.owner.isSame(as: world.organizations[org].login) else {
                        return refusal(422, "Validation Failed")
                    }
                    world.organizations[org].teams[team].repositories[repository.fullName] = add ? field : nil
                case .collaborator:
                    guard let repo, let user else { return notFound }
                    let repository = world.repositories[repo]
                    guard world.permission(of: signedIn.login, on: repository) == 4 else {
                        return refusal(403, "Must have admin rights to Repository.")
                    }
                    // GitHub takes a permission on an organization's repository only: on an account's, push.
                    let field = world.organization(repository.owner) == nil ? "push" : field
                    let direct = repository.collaborators.keys.first { $0.isSame(as: user.login) }
                    world.repositories[repo].invitations.removeAll { $0.login == user.login }
                    if let direct { world.repositories[repo].collaborators[direct] = add ? field : nil }
                    guard add, direct == nil else { break }
                    world.repositoryInvitationsMade += 1
                    let invitation = StandInWorld.Invitation(
                        id: world.repositoryInvitationsMade, login: user.login, permission: field,
                        createdAt: now)
                    world.repositories[repo].invitations.append(invitation)
                    let record = invitationRecord(invitation, repository, in: world, by: signedIn)
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
            let mine = repositories[index].invitations.first { $0.id == id && $0.login.isSame(as: login) }
            guard let invitation = mine else { continue }
            repositories[index].invitations.removeAll { $0.id == id }
            repositories[index].collaborators[invitation.login] = invitation.permission
            return true
        }
        return false
    }
}

extension StandInRouteRequest {
    /// The first record of the documented list `name`.
    static func firstRecord(of name: String) -> [UInt8] {
        let body = StandInRecordedHandler.body(named: name) ?? []
        return (try? JSONText.arrayElements(body))?.first.map { Array(body[$0]) } ?? []
    }

    /// The documented records every repository and organization record is made from, each read once: a fork
    /// (`repos-list-forks`' octocat/Hello-World), a listed repository, a repository in full, an organization.
    static let documentedRepository = firstRecord(of: "repos-list-forks")
    static let listedRepository = firstRecord(of: "repos-list-for-user")
    static let fullRepository = StandInRecordedHandler.body(named: "repos-get") ?? []
    static let listedOrganization = firstRecord(of: "orgs-list-for-user")
    static let fullOrganization = StandInRecordedHandler.body(named: "orgs-get") ?? []

    /// A documented record of octocat/Hello-World (`documentedRepository` by default) made `fullName`'s:
    /// its names, its own URLs, its `owner` (an account of the population, or an organization of the world) and
    /// its ids; nested records keep theirs.
    func repositoryRecord(
        _ fullName: String, in world: StandInWorld, id: Int? = nil, from record: [UInt8] = documentedRepository
    ) -> [UInt8] {
        let id = id ?? StandInWorld.repositoryID(world.repositoryIndex(fullName) ?? 0)
        var values: [String: any Sendable] = [
            "id": id, "node_id": Data("010:Repository\(id)".utf8).base64EncodedString(),
            "name": String(fullName.drop { $0 != "/" }.dropFirst()), "full_name": fullName,
        ]
        let login = String(fullName.prefix { $0 != "/" })
        if let owner = population.user(login: login) ?? world.organizationAccount(login: login) {
            values["owner"] = owner.simpleUserBytes
        }
        return replacing(values, in: record, renaming: [("octocat/Hello-World", fullName)])
    }

    func membershipRecord(_ membership: StandInWorld.Member?, _ user: StandInUser) -> [UInt8] {
        let state = membership?.active == false ? "pending" : "active"
        let texts = [("state", state), ("role", membership?.role ?? "member")]
        return JSONByteWriter.object(texts.map { ($0, JSONValue.string($1).bytes) } + [("user", user.simpleUserBytes)])
    }

    func invitationRecord(
        _ invitation: StandInWorld.Invitation, _ repository: StandInWorld.Repository, in world: StandInWorld,
        by inviter: StandInUser
    ) -> [UInt8] {
        let permission = StandInWorld.level(invitation.permission).map(StandInWorld.roleName) ?? invitation.permission
        let texts = [
            ("permissions", permission), ("created_at", UTCTimestamp.iso8601(invitation.createdAt)),
            ("url", "https://api.github.com/user/repository_invitations/\(invitation.id)"),
            ("html_url", "https://github.com/\(repository.fullName)/invitations"),
            ("node_id", Data("020:RepositoryInvitation\(invitation.id)".utf8).base64EncodedString()),
        ]
        let users = [("invitee", population.user(login: invitation.login)), ("inviter", inviter)].map {
            ($0, $1?.simpleUserBytes ?? Array("null".utf8))
        }
        let id = ("id", Array(String(invitation.id).utf8))
        return JSONByteWriter.object(
            [id, ("repository", repositoryRecord(repository.fullName, in: world))] + users
                + texts.map { ($0, JSONValue.string($1).bytes) })
    }
}
