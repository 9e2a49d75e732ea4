import Domain
import Foundation
import JSONBytes

/// The members of every organization, as writes left them; one per server. An organization nobody wrote to has
/// the members of GitHub's documented example (`Bodies/orgs-list-members.json`: octocat), the first of them its
/// owner (role `admin`), all of them public. A membership added by its owner (`PUT
/// /orgs/{org}/memberships/{username}`) is pending and private, as GitHub's is, until the person accepts it
/// (`PATCH /user/memberships/orgs/{org}`): only then is it listed. So `--changes` sees people join, leave and change
/// role between runs, as an organization's owner sees them on GitHub.
package final class StandInMemberships: @unchecked Sendable {
    package struct Membership: Sendable, Equatable {
        package let ordinal: Int
        package var role: String
        package var active: Bool
        package var isPublic: Bool

        package init(ordinal: Int, role: String, active: Bool = true, isPublic: Bool = false) {
            self.ordinal = ordinal
            self.role = role
            self.active = active
            self.isPublic = isPublic
        }
    }

    private let lock = NSLock()
    private var written: [String: [Membership]] = [:]
    private let base: [String]

    init() {
        let body = StandInRecordedHandler.body(named: Endpoint.members.operationID) ?? []
        base = ((try? JSONText.arrayElements(body)) ?? []).map { JSONText.text(of: "login", in: Array(body[$0])) }
    }

    /// The organization's memberships, in the order they were made.
    package func memberships(of organization: String, in population: StandInPopulation) -> [Membership] {
        lock.withLock { memberships(organization.lowercased(), population) }
    }

    /// Changes the organization's memberships under the lock.
    package func edit<Result>(
        _ organization: String, in population: StandInPopulation, _ body: (inout [Membership]) -> Result
    ) -> Result {
        lock.withLock {
            var list = memberships(organization.lowercased(), population)
            defer { written[organization.lowercased()] = list }
            return body(&list)
        }
    }

    private func memberships(_ key: String, _ population: StandInPopulation) -> [Membership] {
        written[key]
            ?? base.compactMap { population.user(login: $0) }.enumerated().map { index, user in
                Membership(ordinal: user.ordinal, role: index == 0 ? "admin" : "member", active: true, isPublic: true)
            }
    }
}

/// `GET /orgs/{org}/members` (and with `publicOnly`, `GET /orgs/{org}/public_members`): the active members, as
/// GitHub lists them to a member; to anyone else, and on the public list, only those who show their membership.
/// `role=admin` or `member` lists one role; a 2FA `filter` is for the organization's owners (403 for anyone
/// else), and lists no one: no member of the stand-in is without two-factor authentication.
struct StandInMembersHandler: StandInHandler {
    var publicOnly = false

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let organization = request.parameters["org"] else {
            return StandInErrorBody.notFound(documentationURL: request.documentation)
        }
        let all = request.context.memberships.memberships(of: organization, in: request.population).filter(\.active)
        let caller = request.signedInAccount.flatMap { user in all.first { $0.ordinal == user.ordinal } }
        var listed = publicOnly || caller == nil ? all.filter(\.isPublic) : all
        if !publicOnly {
            if let refusal = request.scopeRefusal(unlessOneOf: ["read:org"]) { return refusal }
            if let role = request.query["role"], role != "all" { listed = listed.filter { $0.role == role } }
            if request.query["filter"].map({ $0 != "all" }) == true {
                guard caller?.role == "admin" else {
                    return StandInErrorBody.response(
                        403, message: "Only organization owners can filter by two-factor authentication",
                        documentationURL: request.documentation)
                }
                listed = []
            }
        }
        let users = listed.map { request.population.users[$0.ordinal - 1] }
        return request.pagedList(users, path: request.path, bytesPerItem: 1_000) { $0.writeSimpleUser(into: &$1) }
    }
}

/// The writes that change an organization's members between runs, by the methods GitHub documents:
/// - `PUT /orgs/{org}/memberships/{username}` `{"role":"admin"|"member"}`, by an owner: a member's role changes
///   at once; anyone else is invited, a pending membership, until they accept;
/// - `PATCH /user/memberships/orgs/{org}` `{"state":"active"}`, by the invited person: they join;
/// - `DELETE /orgs/{org}/members/{username}`, by an owner: 204, and they are gone.
/// Each answers 200 with the membership (`state`, `role`, `user`), or 204 for a removal; anyone but an owner gets
/// 403, an unknown account 404, a body without a known role or state 422.
struct StandInMembershipWriteHandler: StandInHandler {
    enum Operation: Sendable {
        case set, accept, remove
    }

    let operation: Operation

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        request.asSignedIn(withOneOf: ["admin:org", "write:org"]) { signedIn in
            guard let organization = request.parameters["org"] else {
                return StandInErrorBody.notFound(documentationURL: request.documentation)
            }
            let population = request.population
            let target = operation == .accept ? signedIn : request.parameters["username"].flatMap(population.user)
            guard let target else { return StandInErrorBody.notFound(documentationURL: request.documentation) }
            let field = JSONText.text(of: operation == .accept ? "state" : "role", in: request.body)
            guard operation == .remove || ["admin", "member", "active"].contains(field) else {
                return StandInErrorBody.response(
                    422, message: "Validation Failed", documentationURL: request.documentation)
            }
            return request.context.memberships.edit(organization, in: population) { list -> StandInHTTPResponse in
                let isOwner = list.contains { $0.ordinal == signedIn.ordinal && $0.active && $0.role == "admin" }
                guard isOwner || operation == .accept else {
                    return StandInErrorBody.response(
                        403, message: "You must be an admin to change an organization's memberships",
                        documentationURL: request.documentation)
                }
                let index = list.firstIndex { $0.ordinal == target.ordinal }
                switch (operation, index) {
                case (.remove, let index):
                    if let index { list.remove(at: index) }
                    return StandInHTTPResponse(status: 204)
                case (.accept, nil):
                    return StandInErrorBody.notFound(documentationURL: request.documentation)
                case (.accept, let index?):
                    list[index].active = true
                case (.set, let index?):
                    list[index].role = field
                case (.set, nil):
                    list.append(.init(ordinal: target.ordinal, role: field, active: false, isPublic: false))
                }
                guard let membership = list.first(where: { $0.ordinal == target.ordinal }) else {
                    return StandInErrorBody.notFound(documentationURL: request.documentation)
                }
                var writer = JSONByteWriter(reservingCapacity: 1_200)
                writer.raw("{\"state\":")
                writer.string(membership.active ? "active" : "pending")
                writer.raw(",\"role\":")
                writer.string(membership.role)
                writer.raw(",\"user\":")
                population.users[target.ordinal - 1].writeSimpleUser(into: &writer)
                writer.raw("}")
                return StandInHTTPResponse(status: 200, body: writer.bytes)
            }
        }
    }
}
