import Data
import Domain

/// `members ORG`: an organization's members, its filters, and what stderr says of which list GitHub gave.
struct MembersCommand: PeopleListCommand {
    var list: PeopleListOptions

    static let memberRole = PeopleFilter.choice(
        "role", help: "admin (the owners), member or all; needs a token.", default: "all",
        choices: ["admin", "member", "all"])
    static let twoFactor = PeopleFilter.twoFactor(of: "members")
    static let publicOnly = OptionDeclaration<PeopleListChoices>.flag(
        "public", help: "Only the members who show their membership (GET /orgs/{org}/public_members).",
        apply: { options, reading throws(UsageError) in
            // Read after them (`filters`' order): `--role all`, GitHub's default, is no filter.
            if options.filters["role"] != nil || options.filters["filter"] != nil {
                throw reading.usageError(
                    "--public lists the public members as they are: --role and the 2FA filters need the whole list")
            }
            options.publicOnly = true
        }, resumedWhen: { $0.publicOnly })

    static let filters = [memberRole] + twoFactor + [publicOnly]

    static let spec = PeopleList.spec(
        CommandSpec(
            name: "members",
            abstract: "List the members of an organization (\(Endpoint.members)).",
            usage:
                "gh-users members ORG [--role all|admin|member] [--2fa-disabled | --2fa-insecure] [--public] "
                + "[--limit N | --all] [options]",
            discussion: """
                With a token, lists the members the token can see (\(Endpoint.members)): every member for a
                member of the organization (read:org for a classic token), and only the public ones for anyone
                else, which GitHub's answer does not tell apart (--changes checks that the token's own account
                is listed). Without a token, or with --public, lists the members who show their membership
                (\(Endpoint.publicMembers)). On a terminal, stderr says which list it was; the public members
                listed for want of a token (no --public), or a server that redirects the request to them, are
                said piped or not, and --role or a 2FA filter answered so is exit status 4.
                --role, the 2FA filters and --changes need a token (exit status 4 without one; --changes
                --public records the public members' changes without one). The 2FA filters are for
                the organization's owners: GitHub's refusal (422 or 403) is exit status 4, and says so. A 404
                asks for the organization (GET /orgs/{org}): none by that name is exit status 3.
                """,
            arguments: [("ORG", "The organization whose members to list.")],
            options: filters.map(\.spec),
            examples: [
                ("gh-users members github --all", "Every member of github the token can see."),
                ("gh-users members my-org --2fa-disabled --all", "Who has no 2FA, for an owner's review."),
                (
                    "gh-users members github --public --all --full --format tsv --fields login,name",
                    "The public ones, with their names."
                ),
            ],
            fields: FieldCatalog.account),
        noun: "members", filters: filters, changes: .members, profiles: []
    ).taking(.login)

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        list = PeopleListOptions(
            owner: .organization(try parsed.login(spec)), parsed)
    }

    /// Exit 4 without a token for a filter that needs one; without a token, the public members; then the list,
    /// or with `--changes` what changed, and on a terminal which list it was.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if !context.presenter.hasToken,
            let requirement = PeopleList.tokenRequirement(list, command: "members", needs: needsToken)
        {
            return requirement.refuse(context)
        }
        var list = list
        if !context.presenter.hasToken { list.publicOnly = true }
        if let file = list.changes {
            // A pass for each role (`PeopleChangeKey.members`), each its whole list.
            let passes = PeopleChangeKey.members.passes(list).map { pages($0.options, list.plan, github) }
            return await PeopleList.changes(
                file, command: "members", noun: "members", key: .members, list, pages: passes, context, github)
        }
        let stream = PeopleList.stream(
            noun: "members", columns: AccountColumns.summary, full: .accounts(\.profiles), list, context, github)
        let end = await stream.stream(pages(list, list.paging.plan, github))
        // The public members for want of a token (not --public) are said piped too: a cron job that lost its
        // token would take them for every member (helper-365), and GitHub's answer says nothing of it.
        let says = context.io.stderrIsTTY || (!context.presenter.hasToken && !self.list.publicOnly)
        var notes = says ? [Self.note(list, hasToken: context.presenter.hasToken)] : []
        // A server redirected to the public members (as GitHub's docs said of a non-member in 2012; it answers
        // 200 since): said piped or not, since a script told nothing would take them for every member.
        if end.answeredPath != nil { notes.append(Self.publicMembersNote(list.owner)) }
        return stream.close(end, notes: notes)
    }

    /// What needs a token, as the exit-4 message names it; nil when nothing does.
    private var needsToken: String? {
        if let filter = list.filters["filter"] {
            return "members --\(filter.replacing("_", with: "-")) (read:org, as an owner of the organization)"
        }
        if list.filters["role"] != nil { return "members --role (read:org)" }
        // Without a token GitHub lists only the public members, which a cron job's snapshot would record as every
        // member, every private one gone (a review's find); --public says that list is the one wanted.
        return list.changes != nil && !list.publicOnly
            ? "members --changes (read:org, as a member; --public for the public members' changes)" : nil
    }

    /// The public members as GitHub serves them; or the members, whose first page says when GitHub answered with
    /// the public ones (its redirect for a token that is not a member, `Page.answeredPath`): the run ends with a
    /// line saying so, on a terminal or not (`GitHubEndpoints.members` refuses a filtered list answered so).
    private func pages(_ options: PeopleListOptions, _ plan: PagingPlan, _ github: GitHubReader)
        -> PagedListViewModel<User>
    {
        let list =
            options.publicOnly
            ? GitHubEndpoints.accounts(.publicMembers, under: options.owner)
            : GitHubEndpoints.members(under: options.owner, filters: options.filters)
        return PeopleList.pages(list, plan, github)
    }

    /// Which list `members` listed, for a terminal's stderr.
    private static func note(_ options: PeopleListOptions, hasToken: Bool) -> String {
        guard options.publicOnly else {
            return "Members as the token sees them: every member for a member of the organization, "
                + "only the public ones for anyone else."
        }
        return hasToken
            ? "Public members only (--public): the members who show their membership."
            : "Public members only: without a token GitHub lists only the members who show their membership."
    }

    /// What a run says when GitHub answered `GET /orgs/{org}/members` with the public members, piped or not: a
    /// script told nothing would take them for every member.
    static func publicMembersNote(_ owner: ListOwner) -> String {
        "Public members only: GitHub answered with the members of \(owner) who show their membership, as it does "
            + "for a token that is not a member."
    }
}
