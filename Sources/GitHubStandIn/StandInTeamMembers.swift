import Domain
import Foundation
import JSONBytes

/// `team(slug:) { members(membership: IMMEDIATE) }`, as `team-members --direct` asks it: the team's own members,
/// on one page; a team the caller may not see is null, as GitHub answers it.
enum StandInTeamMembers {
    static func isAsked(in query: String) -> Bool {
        query.contains("team(slug:") && query.contains("membership: IMMEDIATE")
    }

    static func write(variables: [String: Any], request: StandInRouteRequest, into writer: inout JSONByteWriter) {
        let world = request.context.world.current
        let role = (variables["role"] as? String)?.lowercased()
        let organization = (variables["org"] as? String).flatMap(world.organization)
        let caller = request.signedInAccount?.login ?? ""
        guard let organization, world.isMember(caller, of: organization),
            let team = organization.teams.first(where: { $0.slug == variables["team"] as? String })
        else { return writer.raw("\"organization\":{\"team\":null}") }
        let members = team.members.filter { role == nil || $0.role == role }.compactMap { member in
            request.population.user(login: member.login).map { (member.role, $0) }
        }
        writer.raw("\"organization\":{\"team\":{\"members\":{\"totalCount\":")
        writer.integer(members.count)
        writer.raw(",\"edges\":[")
        for (index, (role, user)) in members.enumerated() {
            writer.raw(index == 0 ? "{\"role\":" : ",{\"role\":")
            writer.string(role.uppercased())
            writer.raw(",\"node\":")
            user.writeGraphQLNode(["id", "login", "url", "avatarUrl"], into: &writer)
            writer.raw("}")
        }
        writer.raw("],\"pageInfo\":{\"hasNextPage\":false,\"endCursor\":null}}}}")
    }
}

extension StandInUser {
    /// A `User` node: `databaseId`, `fields` in the document's order, `isSiteAdmin`.
    func writeGraphQLNode(_ fields: [String], into writer: inout JSONByteWriter) {
        let values = ["id": nodeID, "login": login, "url": htmlURL, "avatarUrl": avatarURL]
        writer.raw("{\"databaseId\":")
        writer.integer(id)
        for key in fields {
            writer.unescaped(",\"\(key)\":")
            writer.string(values[key] ?? "")
        }
        writer.raw(",\"isSiteAdmin\":")
        writer.boolean(siteAdmin)
        writer.raw("}")
    }
}
