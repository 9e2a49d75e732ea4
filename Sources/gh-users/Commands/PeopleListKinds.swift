import AtomicCore
import Data
import Domain
import JSONBytes

/// What a list of the people of an organization, a repository or a team takes: whose list it is, the filters
/// GitHub documents for it (by query key: `affiliation` → `outside`), the paging and the profile options.
struct PeopleListOptions: PagedOptions {
    var owner: ListOwner
    var filters: [String: String] = [:]
    /// `members --public`, or a run without a token: the list anyone may see (`GET /orgs/{org}/public_members`).
    var publicOnly = false
    /// `team-members --direct`: the team whose own members GraphQL lists.
    var directTeam: TeamName?
    var paging = PagingOptions()
    var profiles = ProfileOptions()
    /// `--changes FILE`: the snapshot to compare with and replace.
    var changes: String?
}

/// What a people list is listed under, as its one argument names it: checked before anything is sent, a bad one
/// a usage error (exit 64) that gives the form to use.
enum PeopleListOwner: Sendable {
    /// `ORG`.
    case organization
    /// `OWNER/REPO`.
    case repository
    /// `ORG/TEAM`.
    case team

    func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> ListOwner {
        switch self {
        case .organization: return .organization(try LoginArgument.single(parsed, spec: spec))
        case .repository: return .repository(try OwnedArgument.single(parsed, spec: spec, RepositoryName.init))
        case .team: return .team(try OwnedArgument.single(parsed, spec: spec, TeamName.init))
        }
    }
}

/// A filter GitHub documents for a people list, given as an option and sent as its query key.
enum PeopleFilter {
    /// `--NAME VALUE`, one of `choices`, sent as `key=VALUE` (`--affiliation outside`); GitHub's default when
    /// not given.
    static func choice(
        _ name: String, key: String? = nil, help: String, default shown: String? = nil, choices: [String]
    ) -> OptionDeclaration<PeopleListOptions> {
        let spec = OptionSpec(name, value: name.uppercased(), help: help, default: shown, choices: choices)
        return .optional(
            spec, at: \.filters[key ?? name],
            parse: { reading throws(UsageError) in
                guard choices.contains(reading.text) else {
                    throw .invalidChoice(reading.option, reading.text, spec: reading.command)
                }
                return reading.text
            },
            write: { $0 })
    }

    /// `--NAME`, sent as `key=value` (`--anon` is `anon=1`).
    static func flag(_ name: String, help: String, sends key: String, _ value: String) -> OptionDeclaration<
        PeopleListOptions
    > {
        .flag(
            name, help: help, apply: { options, _ in options.filters[key] = value },
            resumedWhen: { $0.filters[key] == value })
    }
}

extension Command {
    /// The accounts a row lists under an organization, a repository or a team (`.assignees`: `GET
    /// /repos/{owner}/{repo}/assignees`), named by the spec's one argument: the accounts' columns (or `columns`,
    /// which read GitHub's JSON too), `--full` for their profiles, GitHub's JSON as sent, and the filters the row
    /// documents as options (which the spec lists among its own); `keeping` the list's keys each profile keeps.
    init(
        people endpoint: Endpoint, under owner: PeopleListOwner, noun: String, withheld: String? = nil,
        filters: [OptionDeclaration<PeopleListOptions>] = [], keeping kept: [ListedKey] = [],
        columns: (@Sendable (RenderContext) -> [Column<User>])? = User.listColumns,
        changes: PeopleChangeKey = PeopleChangeKey(), spec: CommandSpec
    ) {
        self.init(
            peopleList: ListDeclaration<PeopleListOptions, User>(
                noun: noun, list: { GitHubEndpoints.accounts(endpoint, under: $0.owner, filters: $0.filters) },
                columns: columns
            ).fullProfiles(.accounts(\.profiles, keeping: kept)).withheldFromOthers(withheld),
            under: owner, filters: filters, changes: changes, spec: spec)
    }

    /// The records a row lists under an organization or a repository that are not accounts, or not only
    /// (`.forks`, `.contributors` with anonymous authors): read by key, GitHub's JSON as sent; with `full`
    /// (`.records(\.profiles, account:keeping:)`), `--full` writes the accounts they hold as profiles. The columns
    /// may depend on the filters (`--anon`'s authors have a name and an email).
    init(
        peopleRecords endpoint: Endpoint, under owner: PeopleListOwner, noun: String, withheld: String? = nil,
        filters: [OptionDeclaration<PeopleListOptions>] = [], full: ProfileStage<PeopleListOptions, Record>? = nil,
        changes: PeopleChangeKey, columns: @escaping @Sendable (PeopleListOptions, RenderContext) -> [Column<Record>],
        spec: CommandSpec
    ) {
        let declaration = ListDeclaration<PeopleListOptions, Record>(
            noun: noun, list: { GitHubEndpoints.records(endpoint, under: $0.owner, filters: $0.filters) },
            columns: nil, layout: columns)
        self.init(
            peopleList: (full.map { declaration.fullProfiles($0) } ?? declaration).withheldFromOthers(withheld),
            under: owner, filters: filters, changes: changes, spec: spec)
    }

    init<Item: ListedItem>(
        peopleList declaration: ListDeclaration<PeopleListOptions, Item>, under owner: PeopleListOwner,
        filters: [OptionDeclaration<PeopleListOptions>], changes key: PeopleChangeKey, spec: CommandSpec
    ) {
        let changes = ChangesOption.declaration(
            at: \PeopleListOptions.changes, fields: key.fields,
            help:
                "Write who joined, who left\(key.takesRoles ? " and whose role changed" : "") since the last run with "
                + "FILE, then record the whole list in FILE (more under CHANGES).")
        let group = GroupDeclaration(
            title: "OPTIONS", options: filters + [changes],
            check: { options, parsed, spec throws(UsageError) in
                try ChangesOption.checkFields(options.changes, parsed, spec: spec, fields: key.fields)
                if options.changes != nil, options.filters["anon"] != nil {
                    throw UsageError(
                        message: "--changes records people by their account id, which --anon's authors do not have",
                        command: spec)
                }
            })
        var spec = spec.adding([OptionGroup(title: "CHANGES OPTIONS", options: [changes.spec])])
        spec.usage = spec.usage.replacing("[--limit N | --all]", with: "[--limit N | --all | --changes FILE]")
        spec.discussion = (spec.discussion.map { $0 + "\n\n" } ?? "") + PeopleChangeKey.discussion(key)
        spec.optionFields.append(("With --\(changes.name)", key.fields))
        self.init(github: declaration.spec(spec)) { parsed, spec throws(UsageError) in
            let options = try group.parse(
                parsed, spec: spec, into: PeopleListOptions(owner: try owner.parse(parsed, spec: spec)))
            return .github(PeopleListRun(listing: try ListRun(declaration, parsed, spec, options: options), key: key))
        }
    }
}

extension ListDeclaration where Options == PeopleListOptions {
    /// A repository's list that GitHub shows only its admins and collaborators since July 2026 (its stargazers
    /// and watchers), when `count` names the repository's key that counts it (`stargazers_count`): a 403 or 404
    /// for the list's first page (a 404 as every people list's, `ResourceRepository.firstPage(_:perPage:)`), or
    /// an empty first page, asks `GET /repos/{owner}/{repo}`, to tell a
    /// repository that does not exist (its 404: exit 3) or a list that is empty (its count 0) from the list
    /// withheld (exit 4, which says so in one line and points to star-history).
    func withheldFromOthers(_ count: String?) -> Self {
        guard let count else { return self }
        let (noun, list, admission) = (noun, list, admission)
        return prepared { options, github, plan in
            let resource = list(options)
            let owner = options.owner
            return PreparedList(
                load: { cursor throws(DomainError) in
                    if let cursor { return try await github.page(resource, at: cursor) }
                    return try await Self.firstPage(
                        resource, perPage: plan.perPage, noun: noun, count: count, of: owner, github: github)
                },
                admission: admission(options))
        }
    }

    /// The list's first page, or why GitHub withholds it (see `withheldFromOthers(_:)`).
    static func firstPage(
        _ resource: ListResource<Item>, perPage: Int, noun: String, count: String, of owner: ListOwner,
        github: GitHubReader
    ) async throws(DomainError) -> Page<Item> {
        let page: Page<Item>
        do throws(DomainError) {
            page = try await github.firstPage(resource, perPage: perPage)
        } catch {
            throw await withholding(error, noun: noun, of: owner, github: github)
        }
        guard page.items.isEmpty, page.next == nil else { return page }
        try await refuseEmpty(noun, count: count, of: owner, github: github)
        return page
    }

    /// An empty first page of a repository whose `count` key says it has some: withheld (exit 4).
    static func refuseEmpty(_ noun: String, count: String, of owner: ListOwner, github: GitHubReader)
        async throws(DomainError)
    {
        let repository = try await github.fetch(GitHubEndpoints.repository(owner))
        let counted = Int(JSONText.text(of: count, in: repository.raw.bytes)) ?? 0
        guard counted > 0 else { return }
        throw withheld(noun, of: owner, status: 200, saying: "an empty list, of \(counted); ")
    }

    /// Why GitHub refused the list: the repository is missing or the list is withheld. A 404 has asked for the
    /// repository already (`ResourceRepository.firstPage(_:perPage:)`: still `notFound` when it is missing, a
    /// refusal when it exists); a 403 asks it here. Any other failure is the list's own.
    private static func withholding(
        _ error: DomainError, noun: String, of owner: ListOwner, github: any ResourceRepository
    ) async -> DomainError {
        switch error {
        case .unauthorized(404, _, _, _): return withheld(noun, of: owner, status: 404)
        case .unauthorized(403, _, _, _):
            do throws(DomainError) {
                _ = try await github.fetch(GitHubEndpoints.repository(owner))
            } catch {
                return error
            }
            return withheld(noun, of: owner, status: 403)
        default: return error
        }
    }

    /// The July 2026 rule, in one line, as a refusal (exit 4). It names no request id: the answer is GitHub's
    /// rule, not a failure to report to GitHub, and the issue asks for one line.
    private static func withheld(_ noun: String, of owner: ListOwner, status: Int, saying prefix: String = "")
        -> DomainError
    {
        .unauthorized(
            status: status,
            message:
                prefix + "since July 2026 GitHub lists a repository's \(noun) only to its admins and collaborators; "
                + "gh-users star-history \(owner) gives its stars a day")
    }
}
