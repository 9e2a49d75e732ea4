// The `organization-simple` JSON below (key names, key order, URL forms) follows the schema of
// `GET /users/{username}/orgs` in `orgs-list-for-user.schema.json`, from GitHub's OpenAPI description,
// github/rest-api-description (MIT License, Copyright (c) 2020 GitHub); the description's example for it was not
// obtained, so the values are synthetic.

/// One entry of `GET /users/{username}/orgs`.
package struct StandInOrganization: Sendable, Equatable, StandInRecord {
    package let login: String
    package let id: Int
    package let description: String?
    /// The population's Organization account this is, or nil for the synthetic organizations that only the
    /// many-organizations account belongs to (GitHub answers 404 for their logins here).
    package let account: StandInUser?

    /// `012:Organization<id>` in base64, GitHub's legacy node id form, as the population's Organizations have.
    package var nodeID: String {
        Base64Text.encode(Array("012:Organization\(id)".utf8))
    }

    package var avatarURL: String {
        account?.avatarURL ?? "https://avatars.githubusercontent.com/u/\(id)?v=4"
    }

    package func write(into writer: inout JSONByteWriter) {
        let base = "https://api.github.com/orgs/" + login
        writer.raw("{\"login\":")
        writer.string(login)
        writer.raw(",\"id\":")
        writer.integer(id)
        writer.raw(",\"node_id\":\"")
        Base64Text.append("012:Organization\(id)", to: &writer.bytes)
        writer.raw("\",\"url\":\"")
        writer.unescaped(base)
        writer.raw("\",\"repos_url\":\"")
        writer.unescaped(base)
        writer.raw("/repos\",\"events_url\":\"")
        writer.unescaped(base)
        writer.raw("/events\",\"hooks_url\":\"")
        writer.unescaped(base)
        writer.raw("/hooks\",\"issues_url\":\"")
        writer.unescaped(base)
        writer.raw("/issues\",\"members_url\":\"")
        writer.unescaped(base)
        writer.raw("/members{/member}\",\"public_members_url\":\"")
        writer.unescaped(base)
        writer.raw("/public_members{/member}\",\"avatar_url\":\"")
        writer.unescaped(avatarURL)
        writer.raw("\",\"description\":")
        writer.optionalString(description)
        writer.raw("}")
    }
}

/// Memberships: a User belongs to a run of consecutive Organizations of the population (every ordinal ending in
/// 7), starting at a place picked from its ordinal, so any membership can be computed without a table.
extension StandInPopulation {
    /// Synthetic organizations' ids start here, above any population id.
    static let syntheticOrganizationIDBase = 90_000_000

    /// Public memberships, in the order GitHub lists them; empty for Organizations and bots, which cannot join one.
    package func organizations(of user: StandInUser) -> [StandInOrganization] {
        guard user.type == "User" else {
            return []
        }
        let count =
            user.ordinal == StandInSurfaceAccounts.manyOrganizationsOrdinal
            ? StandInSurfaceAccounts.manyOrganizationsCount : (user.ordinal * 3) % 5
        // Ordinals 7, 17, 27, ... up to the population's size.
        let populationOrganizations = users.count >= 7 ? (users.count - 7) / 10 + 1 : 0
        let fromPopulation = min(count, populationOrganizations)
        var result: [StandInOrganization] = []
        result.reserveCapacity(count)
        let start = populationOrganizations > 0 ? (user.ordinal * 31) % populationOrganizations : 0
        for offset in 0..<fromPopulation {
            let organization = users[7 + 10 * ((start + offset) % populationOrganizations) - 1]
            result.append(
                StandInOrganization(
                    login: organization.login, id: organization.id,
                    description: Self.organizationDescription(ordinal: organization.ordinal), account: organization))
        }
        // Only the many-organizations account outgrows a small population; the rest are made up, as the alternative
        // (fewer memberships in small populations) would leave its paging untested where tests run.
        for index in 0..<(count - fromPopulation) {
            result.append(
                StandInOrganization(
                    login: "Synthetic-Guild-\(index + 1)", id: Self.syntheticOrganizationIDBase + index,
                    description: "Synthetic organization \(index + 1), outside the population", account: nil))
        }
        return result
    }

    /// Nil for a quarter of them, as GitHub sends for organizations without one.
    static func organizationDescription(ordinal: Int) -> String? {
        guard ordinal % 4 != 3 else {
            return nil
        }
        let parts = StandInNameParts(ordinal: ordinal)
        return "\(parts.capitalizedAdjective) \(parts.noun) software, made in \(StandInNameParts.cities[ordinal % 11])."
    }
}
