import Data
import Domain

/// `outside-collaborators ORG`: the people who are not members of an organization but can reach one of its
/// repositories, for its owners.
struct OutsideCollaboratorsCommand: PeopleListCommand {
    var list: PeopleListOptions

    static let changes = PeopleChangeKey()
    static let filters = PeopleFilter.twoFactor(of: "outside collaborators")

    static let spec = PeopleList.spec(
        CommandSpec(
            name: "outside-collaborators",
            abstract: "List an organization's outside collaborators (\(Endpoint.outsideCollaborators)).",
            usage:
                "gh-users outside-collaborators ORG [--2fa-disabled | --2fa-insecure] [--limit N | --all] [options]",
            discussion: """
                Lists the people who are not members of the organization but can reach one of its
                repositories. Only the organization's owners may list them: it needs a token of an owner with
                the read:org scope, and GitHub's refusal (403, or 404 for what the token may not see) is exit
                status 4 with GitHub's reason, and the scopes it accepts when the token has none. A 404 asks
                for the organization (GET /orgs/{org}) first: when there is none by that name, exit status 3
                says so. The 2FA filters are GitHub's, for its owners, as for members.
                """,
            arguments: [("ORG", "The organization whose outside collaborators to list.")],
            options: filters.map(\.spec),
            examples: [
                ("gh-users outside-collaborators my-org --all", "Every outside collaborator of my-org."),
                ("gh-users outside-collaborators my-org --2fa-disabled --all", "Who of them has no 2FA."),
                (
                    "gh-users outside-collaborators my-org --all --full --format csv --fields login,name,email",
                    "Who they are, for a security review."
                ),
            ],
            fields: FieldCatalog.account),
        noun: "outside collaborators", filters: filters, changes: changes, profiles: []
    ).taking(.login)

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        list = PeopleListOptions(
            owner: .organization(try parsed.login(spec)), parsed)
    }

    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if !context.presenter.hasToken,
            let requirement = PeopleList.tokenRequirement(
                list, command: "outside-collaborators",
                needs: "outside-collaborators (read:org, as an owner of the organization)")
        {
            return requirement.refuse(context)
        }
        let people = GitHubEndpoints.accounts(.outsideCollaborators, under: list.owner, filters: list.filters)
        return await PeopleList.write(
            PeopleList.pages(people, list.plan, github), command: "outside-collaborators",
            noun: "outside collaborators", columns: AccountColumns.summary, full: .accounts(\.profiles),
            changes: Self.changes, list, context, github)
    }
}

/// `invitations ORG`: an organization's pending invitations, for its owners.
struct InvitationsCommand: PeopleListCommand {
    var list: PeopleListOptions

    static let changes = PeopleChangeKey(role: "role", fallbackName: "email", shrinksWhole: true)

    static let spec = PeopleList.spec(
        CommandSpec(
            name: "invitations",
            abstract: "List an organization's pending invitations (\(Endpoint.invitations)).",
            usage: "gh-users invitations ORG [--limit N | --all] [options]",
            discussion: """
                Lists the invitations to the organization that are not yet accepted: who was invited (the
                login, empty for an invitation sent to an email address, whose login is null, and the email),
                the role, when, and who invited them. Only the organization's owners may list them: it needs a token of an
                owner with the admin:org scope, and GitHub's refusal (403, or 404 for what the token may not
                see) is exit status 4 with GitHub's reason, and the scopes it accepts when the token has none.
                A 404 asks for the organization (GET /orgs/{org})
                first: when there is none by that name, exit status 3 says so.
                """,
            arguments: [("ORG", "The organization whose pending invitations to list.")],
            options: [],
            examples: [
                ("gh-users invitations my-org --all", "Every pending invitation to my-org."),
                (
                    "gh-users invitations my-org --all --format tsv --fields login,email,role,created_at",
                    "The same, for a script."
                ),
            ],
            fields: [
                "id", "login", "email", "role", "created_at", "failed_at", "failed_reason", "inviter", "team_count",
                "invitation_source", "node_id", "invitation_teams_url",
            ]),
        noun: "invitations", changes: changes, profiles: nil
    ).taking(.login)

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        list = PeopleListOptions(
            owner: .organization(try parsed.login(spec)), parsed)
    }

    /// Exit 4 without a token, before anything is sent: only owners see them. No `--full`: an invitation to an
    /// email address has no account.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if !context.presenter.hasToken,
            let requirement = PeopleList.tokenRequirement(
                list, command: "invitations", needs: "invitations (admin:org, as an owner of the organization)")
        {
            return requirement.refuse(context)
        }
        let invitations = GitHubEndpoints.records(.invitations, under: list.owner)
        let columns = [
            Column<Record>("LOGIN", path: ["login"], shrink: .last),
            Column("EMAIL", path: ["email"], shrink: .second),
            Column("ROLE", path: ["role"]),
            .time("INVITED", "created_at", context.render),
            Column("INVITER", path: ["inviter", "login"]),
        ]
        return await PeopleList.write(
            PeopleList.pages(invitations, list.plan, github), command: "invitations", noun: "invitations",
            columns: columns, full: nil, changes: Self.changes, list, context, github)
    }
}

extension PeopleChangeKey {
    /// `members ORG --changes FILE` with a token: each member, from the whole list, with their role, from the
    /// owners' (`role=admin`). GitHub lists every member to a member of the organization, but only the public ones
    /// to anyone else: a snapshot of the public ones would report every private member as gone. A member always
    /// sees themselves, so a whole list without the token's own account (`GET /user`) is refused (exit 4) and not
    /// recorded; a GitHub App's installation token has no account of its own and its list is recorded. A list of
    /// one role, which may leave the token's account out, is checked through GraphQL's `viewerIsAMember` instead;
    /// a 2FA filter needs none, as GitHub answers it to owners alone (422 to anyone else).
    static let members = PeopleChangeKey(
        rolePasses: .init(key: "role", role: "admin", others: "member", unless: \.publicOnly),
        checksMembership: true)

    /// Why a members list cannot be recorded: the token's account is no member, so GitHub listed only the
    /// public ones (see `members`); nil when it is, or for a 2FA filter's list.
    static func membershipRefusal(
        _ options: PeopleListOptions, _ people: [PeopleSnapshot.Entry], _ github: GitHubReader
    )
        async -> DomainError?
    {
        guard !options.publicOnly, options.filters["filter"] == nil else { return nil }
        let role = options.filters["role"]
        let account: User
        do throws(DomainError) {
            // nil: a GitHub App's installation token, which has no account and is listed every member its
            // installation may see: its list stands.
            guard let user = try await github.tokenAccount() else { return nil }
            account = user
            // A member always sees themselves in the whole list; one role's list may leave them out.
            let member =
                if role == nil { people.contains { $0.id == user.id } } else {
                    try await github.viewerIsMember(of: options.owner.description)
                }
            if member { return nil }
        } catch {
            return error
        }
        return .unauthorized(
            status: 200,
            message: "the token's account (\(account.login)) is "
                + (role == nil ? "not among the members GitHub listed of " : "no member of ") + "\(options.owner), "
                + "so GitHub listed only the ones who show their membership: recorded, they would report every "
                + "other member as gone. --changes needs a member's token (read:org), or --public for the public "
                + "members' changes")
    }
}
