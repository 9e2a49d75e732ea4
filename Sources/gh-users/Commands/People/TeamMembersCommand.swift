import Data
import Domain

/// `team-members ORG/TEAM`: a team's members with their roles; with `--direct`, only its own members, which
/// REST's list has no filter for, so they are paged through GraphQL (`Team.members(membership: IMMEDIATE, role:)`),
/// which needs a token and spends GraphQL points; each is written in REST's team-member shape, `role` lowercased.
struct TeamMembersCommand: PeopleListCommand {
    var list: PeopleListOptions

    static let teamRole = PeopleFilter.choice(
        "role", help: "member, maintainer or all.", default: "all", choices: ["member", "maintainer", "all"])
    static let direct = OptionDeclaration<PeopleListChoices>.flag(
        "direct",
        help: "Only the team's own members, not its child teams' (through GraphQL: needs a token, costs "
            + "GraphQL points).",
        apply: { options, reading throws(UsageError) in
            options.directTeam = try reading.parsed.team(reading.command)
        }, resumedWhen: { $0.directTeam != nil })
    static let changes = PeopleChangeKey(role: "role")
    static let kept = [ListedKey("role"), ListedKey("inherited")]

    static let spec = PeopleList.spec(
        CommandSpec(
            name: "team-members",
            abstract: "List a team's members, with each one's role (\(Endpoint.teamMembers)).",
            usage:
                "gh-users team-members ORG/TEAM [--role member|maintainer|all] [--direct] [--limit N | --all] "
                + "[options]",
            discussion: """
                Lists the members of the team, the members of its child teams included, each with role
                (member or maintainer) and inherited (through a child team), as GitHub's REST description gives
                them; an answer without them (a 2022 recording has none) leaves them null, never guessed.
                TEAM is the team's slug, as in its URL. It needs a token that can see
                the team (read:org for a classic token): GitHub's 403 is exit status 4 with the scope named.
                A 404 asks for the organization (GET /orgs/{org}; a team's own lookup answers only those who
                may list it): when there is none by that name, exit status 3 says so; when there is, exit
                status 4 says the team does not exist or is secret and the token's account is not in it.
                With --full each is written as its profile with role and inherited added. With --direct, only the team's
                own members, without its child teams': GitHub's REST list cannot leave them out, so they are
                paged through GraphQL (Team.members(membership: IMMEDIATE), --role as its role filter), which
                needs a token (exit status 4 without one) and spends GraphQL points, about one a page; each is
                written in the REST list's shape, role included (avatar_url is rebuilt from the account id on
                github.com, elsewhere GraphQL's avatarUrl: either may differ from REST's for the same account).
                """,
            arguments: [("ORG/TEAM", "The team, as ORG/TEAM-SLUG (github/justice-league).")],
            options: [teamRole.spec, direct.spec],
            examples: [
                ("gh-users team-members github/justice-league --all", "Every member of the team."),
                ("gh-users team-members github/justice-league --role maintainer", "Its maintainers."),
                (
                    "gh-users team-members github/justice-league --direct --all",
                    "Its own members, not its child teams'."
                ),
            ],
            fields: FieldCatalog.account + ["role", "inherited"]),
        noun: "team members", filters: [teamRole, direct], changes: changes, profiles: kept
    ).taking(.team)

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        list = PeopleListOptions(
            owner: .team(try parsed.team(spec)), parsed)
    }

    /// Exit 4 without a token; then the list, or with `--changes` what changed.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        // GitHub shows a team only to a token: even a visible team's members are 401 to anyone else.
        let needs = list.directTeam == nil ? "team-members (read:org)" : "team-members --direct (GraphQL; read:org)"
        if !context.presenter.hasToken,
            let requirement = PeopleList.tokenRequirement(list, command: "team-members", needs: needs)
        {
            return requirement.refuse(context)
        }
        return await PeopleList.write(
            pages(list.plan, github), command: "team-members", noun: "team members", columns: accountsWithRole("role"),
            full: .accounts(\.profiles, keeping: Self.kept), changes: Self.changes, list, context, github)
    }

    /// REST's list, or with `--direct` the team's own members through GraphQL, `--role` as GraphQL's role.
    private func pages(_ plan: PagingPlan, _ github: GitHubReader) -> PagedListViewModel<User> {
        guard let team = list.directTeam else {
            return PeopleList.pages(
                GitHubEndpoints.accounts(.teamMembers, under: list.owner, filters: list.filters), plan, github)
        }
        return PagedListViewModel(
            limit: plan.limit,
            pages: github.directMembers(of: team, restRole: list.filters["role"], perPage: plan.perPage))
    }
}
