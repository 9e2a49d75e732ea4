import Domain
import Foundation
import JSONBytes

/// `organization(login:) { team(slug:) { members(membership: IMMEDIATE, role:) } }`, as `team-members --direct`
/// asks it (`GraphQLTeamMembersQuery`): every team of every organization has the members of GitHub's documented
/// example for `GET /orgs/{org}/teams/{team_slug}/members` (`Bodies/teams-list-members-in-org.json`), so the
/// two agree; a team's own members are those whose `inherited` is false, each with its `role` in GraphQL's
/// capitals, on one page.
enum StandInTeamMembers {
    /// Whether the document is the team members query; its values come as variables.
    static func isAsked(in query: String) -> Bool {
        query.contains("team(slug:") && query.contains("membership: IMMEDIATE")
    }

    static func write(variables: [String: Any], into writer: inout JSONByteWriter) {
        let body = StandInRecordedHandler.body(named: Endpoint.teamMembers.operationID) ?? Array("[]".utf8)
        let role = (variables["role"] as? String)?.lowercased()
        let members = ((try? JSONText.arrayElements(body)) ?? []).map { Array(body[$0]) }.filter { member in
            JSONText.text(of: "inherited", in: member) != "true"
                && (role == nil || JSONText.text(of: "role", in: member) == role)
        }
        writer.raw("\"organization\":{\"team\":{\"members\":{\"totalCount\":")
        writer.integer(members.count)
        writer.raw(",\"edges\":[")
        for (index, member) in members.enumerated() {
            let texts = JSONText.texts(
                of: ["role", "id", "node_id", "login", "html_url", "avatar_url", "site_admin"], in: member)
            writer.raw(index == 0 ? "{\"role\":" : ",{\"role\":")
            writer.string(texts[0].uppercased())
            writer.raw(",\"node\":{\"databaseId\":")
            writer.integer(Int(texts[1]) ?? 0)
            for (key, text) in zip(["id", "login", "url", "avatarUrl"], texts[2...5]) {
                writer.raw(",")
                writer.string(key)
                writer.raw(":")
                writer.string(text)
            }
            writer.raw(texts[6] == "true" ? ",\"isSiteAdmin\":true}}" : ",\"isSiteAdmin\":false}}")
        }
        writer.raw("],\"pageInfo\":{\"hasNextPage\":false,\"endCursor\":null}}}}")
    }
}
