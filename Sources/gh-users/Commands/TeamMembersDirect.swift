import Domain

/// `team-members --direct`: the team's own members, without its child teams'. REST's list has no such filter,
/// so the members are paged through GraphQL (`Team.members(membership: IMMEDIATE, role:)`), which needs a token
/// and spends GraphQL points; each is written in REST's team-member shape, `role` lowercased.
enum TeamMembersDirect {
    static let option = OptionDeclaration<PeopleListOptions>.flag(
        "direct",
        help: "Only the team's own members, not its child teams' (through GraphQL: needs a token, costs "
            + "GraphQL points).",
        apply: { options, reading throws(UsageError) in
            options.directTeam = try OwnedArgument.single(reading.parsed, spec: reading.command, TeamName.init)
        }, resumedWhen: { $0.directTeam != nil })

    /// What needs a token, for the exit-4 message; nil without --direct.
    @Sendable static func needsToken(_ options: PeopleListOptions) -> String? {
        options.directTeam == nil ? nil : "team-members --direct (GraphQL; read:org)"
    }

    /// GraphQL's `TeamMemberRole` for `--role` (`MAINTAINER`); nil for all.
    static func role(_ options: PeopleListOptions) -> String? {
        options.filters["role"].flatMap { $0 == "all" ? nil : $0.uppercased() }
    }
}

extension ListDeclaration where Options == PeopleListOptions, Item == User {
    /// With `--direct`, the pages come from GraphQL; without it, from REST as the row says.
    func direct() -> Self {
        let admission = admission
        return prepared { options, github, plan in
            guard let team = options.directTeam else { return nil }
            let role = TeamMembersDirect.role(options)
            return PreparedList(
                load: { cursor throws(DomainError) in
                    try await github.directMembers(of: team, role: role, first: plan.perPage, after: cursor)
                },
                admission: admission(options))
        }
    }
}
