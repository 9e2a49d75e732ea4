import AtomicCore
import Data
import Domain
import JSONBytes

/// What a list of the people of an organization, a repository or a team takes: whose list it is, the options it
/// declares itself (`PeopleListChoices`), the paging and the profile options.
struct PeopleListOptions: PagedOptions {
    var owner: ListOwner
    var choices = PeopleListChoices()
    var paging = PagingOptions()
    var profiles = ProfileOptions()

    var filters: [String: String] {
        get { choices.filters }
        set { choices.filters = newValue }
    }
    var publicOnly: Bool {
        get { choices.publicOnly }
        set { choices.publicOnly = newValue }
    }
    var directTeam: TeamName? { choices.directTeam }
    var changes: String? { choices.changes }

    init(owner: ListOwner) {
        self.owner = owner
    }

    /// The list under `owner`, as the command's one argument names it (checked by the command's `init`), with the
    /// options as the scanner read them.
    init(owner: ListOwner, _ parsed: ParsedArguments) {
        self.owner = owner
        choices = parsed.options()
        paging = parsed.paging
        profiles = parsed.profiles
    }
}

/// The options a people list declares itself, which the scanner reads: the filters GitHub documents for it (by
/// query key: `affiliation` → `outside`), `members --public`, `team-members --direct` and `--changes`.
struct PeopleListChoices: OptionValues {
    var filters: [String: String] = [:]
    /// `members --public`, or a run without a token: the list anyone may see (`GET /orgs/{org}/public_members`).
    var publicOnly = false
    /// `team-members --direct`: the team whose own members GraphQL lists.
    var directTeam: TeamName?
    /// `--changes FILE`: the snapshot to compare with and replace.
    var changes: String?
}

extension PeopleListChoices: CheckedOptions {
    /// `--changes`' fields are a rule about `--fields`.
    static var relatedOptions: [OptionSpec] { [OutputGroup.fields.spec] }

    /// `--changes`' rule across the options: its fields only with it, and not with `--anon`'s authors, who have
    /// no id.
    func check(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        let fields = spec.optionFields.first { $0.label == PeopleList.changesLabel }?.fields ?? []
        try ChangesOption.checkFields(changes, parsed, spec: spec, fields: fields)
        if changes != nil, filters["anon"] != nil {
            throw UsageError(
                message: "--changes records people by their account id, which --anon's authors do not have",
                command: spec)
        }
    }
}

/// A filter GitHub documents for a people list, given as an option and sent as its query key.
enum PeopleFilter {
    /// `--NAME VALUE`, one of `choices`, sent as `key=VALUE` (`--affiliation outside`); GitHub's default when
    /// not given.
    /// `aliases` are other words for a choice (`write` for `push`), taken and sent as the choice; help and
    /// completions list the choices alone, and a value that is neither names both.
    /// The choice that is GitHub's default (`shown`: `--role all`) names the same list as none, and is kept as
    /// none: nothing after the scanner (a token check, `--public`, `--changes`' passes) takes it for a filter.
    static func choice(
        _ name: String, key: String? = nil, help: String, default shown: String? = nil, choices: [String],
        aliases: [String: String] = [:]
    ) -> OptionDeclaration<PeopleListChoices> {
        // The aliases are offered too (completions, the man page), after the words GitHub sends.
        let offered = choices + aliases.keys.sorted()
        let spec = OptionSpec(name, value: name.uppercased(), help: help, default: shown, choices: offered)
        let key = key ?? name
        return OptionDeclaration(
            spec: spec,
            read: { options, reading throws(UsageError) in
                // One value: a second was sent in its place without a word (`--permission admin --permission
                // pull` listed pull), where `access` refuses it (helper-287).
                try reading.oneValue(same: aliases)
                let choice = aliases[reading.text] ?? reading.text
                options.filters[key] = choice == shown ? nil : choice
            },
            resume: { options in options.filters[key].map { ["--" + name, $0] } ?? [] })
    }

    /// `--2fa-disabled` and `--2fa-insecure` for a list of `people`, sent as `filter=2fa_disabled`: one of them at
    /// most.
    static func twoFactor(of people: String) -> [OptionDeclaration<PeopleListChoices>] {
        let states = [
            ("disabled", "insecure", "without two-factor authentication"),
            ("insecure", "disabled", "with an insecure two-factor method"),
        ]
        return states.map { state, other, help in
            .flag(
                "2fa-" + state, help: "Only the \(people) \(help). For the organization's owners only; needs a token.",
                apply: { options, reading throws(UsageError) in
                    guard !reading.parsed.flags.contains("2fa-" + other) else {
                        throw reading.usageError("--2fa-disabled and --2fa-insecure are two filters: give one of them")
                    }
                    options.filters["filter"] = "2fa_" + state
                }, resumedWhen: { $0.filters["filter"] == "2fa_" + state })
        }
    }

    /// `--NAME`, sent as `key=value` (`--anon` is `anon=1`).
    static func flag(_ name: String, help: String, sends key: String, _ value: String) -> OptionDeclaration<
        PeopleListChoices
    > {
        .flag(
            name, help: help, apply: { options, _ in options.filters[key] = value },
            resumedWhen: { $0.filters[key] == value })
    }
}

/// A people list's command: its values are a `PeopleListOptions`, paged as every paging command is.
protocol PeopleListCommand: GitHubCommand, PagedOptions {
    var list: PeopleListOptions { get set }
}

extension PeopleListCommand {
    var paging: PagingOptions {
        get { list.paging }
        set { list.paging = newValue }
    }
}

/// What the people lists share, as plain helpers each command calls: its spec with the paging, profile and
/// `--changes` options, the token check, the pages of a list as GitHub serves it, the stream, and the
/// `--changes` snapshot.
enum PeopleList {
    /// The command's spec with `--changes` (its option, its help and its fields), the paging group and, when the
    /// list takes `--full` (`profiles`), the profile group and the list's own keys each profile keeps.
    static func spec(
        _ spec: CommandSpec, noun: String, filters: [OptionDeclaration<PeopleListChoices>] = [],
        changes key: PeopleChangeKey, profiles kept: [ListedKey]?
    ) -> CommandSpec {
        let changes = changesOption(key)
        var spec = spec.adding([OptionGroup(title: "CHANGES OPTIONS", options: [changes.spec])])
        spec.usage = spec.usage.replacing("[--limit N | --all]", with: "[--limit N | --all | --changes FILE]")
        spec.discussion = (spec.discussion.map { $0 + "\n\n" } ?? "") + PeopleChangeKey.discussion(key)
        spec.optionFields.append((changesLabel, key.fields))
        return spec.declaring(GroupDeclaration(title: "OPTIONS", options: filters + [changes]))
            .paging(noun, profiles: kept != nil, keeping: kept?.map(\.name) ?? [])
    }

    /// How help introduces the fields of `--changes`' records.
    static let changesLabel = "With --changes"

    /// `--changes FILE`, in the list's words.
    private static func changesOption(_ key: PeopleChangeKey) -> OptionDeclaration<PeopleListChoices> {
        ChangesOption.declaration(
            at: \PeopleListChoices.changes, fields: key.fields,
            help:
                "Write who joined and who left\(key.takesRoles ? " (and whose role changed)" : "") since "
                + "the last run with FILE, then record the whole list in FILE.")
    }

    /// What needs a token among the options, for the check at the top of a people list's `run` when there is
    /// none (exit 4 before anything is sent): `needs` names what needs it (`members --role (read:org)`);
    /// `--full --via graphql` does, for `command`. nil when nothing does.
    static func tokenRequirement(_ options: PeopleListOptions, command: String, needs: String? = nil)
        -> TokenRequirement?
    {
        if let needs { return TokenRequirement(command: needs) }
        if options.profiles.full, options.profiles.via == .graphql {
            return ProfileSource.tokenRequirement(command: command)
        }
        return nil
    }

    /// A list as GitHub serves it: the first page, then each `Link` followed, an item already written dropped.
    static func pages<Item: ListedItem>(
        _ list: ListResource<Item>, _ plan: PagingPlan, _ github: GitHubReader
    ) -> PagedListViewModel<Item> {
        PagedListViewModel(
            list, plan: plan, github: github)
    }

    /// The stream of a list: its `columns`, or under `--full` the profiles' (`full`), each account expanded.
    static func stream<Item: ListedItem>(
        noun: String, columns: [Column<Item>], full: ProfileStage<PeopleListOptions, Item>?,
        _ options: PeopleListOptions, _ context: CommandContext, _ github: GitHubReader
    ) -> ListStream<Item> {
        let expanding = options.profiles.full ? full : nil
        let render = context.render
        var stream = ListStream(
            noun: noun, columns: !render.readsColumns ? [] : expanding.map { $0.columns(render) } ?? columns,
            command: context)
        stream.expansion = expanding.map { $0.expansion(options.profiles, github) }
        return stream
    }

    /// The list written, or with `--changes` what changed since the last run: `pages` are paged as
    /// `PeopleListOptions.plan` says, the whole list for `--changes`.
    static func write<Item: ListedItem>(
        _ pages: PagedListViewModel<Item>, command: String, noun: String, columns: [Column<Item>],
        full: ProfileStage<PeopleListOptions, Item>?, changes key: PeopleChangeKey, _ options: PeopleListOptions,
        _ context: CommandContext, _ github: GitHubReader
    ) async -> CommandOutcome {
        if let file = options.changes {
            return await changes(
                file, command: command, noun: noun, key: key, options, pages: [pages], context, github)
        }
        return await stream(noun: noun, columns: columns, full: full, options, context, github).run(pages)
    }

    /// `--changes FILE`: the whole list read (in a pass for each role, where the records carry none), compared
    /// with the snapshot in FILE, and recorded; `pages` gives each pass's pages.
    static func changes<Item: ListedItem>(
        _ file: String, command: String, noun: String, key: PeopleChangeKey, _ options: PeopleListOptions,
        pages: [PagedListViewModel<Item>], _ context: CommandContext, _ github: GitHubReader
    ) async -> CommandOutcome {
        await PeopleChangesCoordinator<Item>(
            noun: noun, command: command, options: options, key: key, file: PeopleSnapshotFile(path: file),
            github: github, context: context
        ).run(zip(key.passes(options), pages).map { .init(pass: $0, pages: $1) })
    }
}

extension PeopleListOptions {
    /// How the list is paged: as `--limit`, `--all` and `--per-page` say, or whole for `--changes` (at the page
    /// size asked for).
    var plan: PagingPlan {
        changes == nil ? paging.plan : PagingPlan(limit: .all, requestedPerPage: paging.perPage)
    }
}

/// `login` on a list whose records hold the person under `account` (a stargazer's `user`, a fork's `owner`): the
/// person's login, as on every people list, for the table and for `--fields`; under `--full` the record is the
/// person's profile, with a login of its own.
func personLogin(_ header: String, under account: String) -> Column<Record> {
    Column(header, key: "login", shrink: .last, derived: true) { record in
        let own = JSONText.text(of: "login", in: record.raw.bytes)
        return own.isEmpty ? JSONText.text(at: [account, "login"], in: record.raw.bytes) : own
    }
}

/// The accounts' columns with the role GitHub gives each under `key` (`role_name` of a collaborator).
func accountsWithRole(_ key: String) -> [Column<User>] {
    [
        Column("ID") { String($0.id) },
        Column("LOGIN", shrink: .last) { $0.login },
        Column("ROLE", key: key) { JSONText.text(of: key, in: $0.raw.bytes) },
        // A URL cut to a few letters says nothing: it gives way, as a description does, before a login is cut.
        Column("URL", key: "html_url", shrink: .first) { $0.htmlURL ?? "" },
    ]
}
