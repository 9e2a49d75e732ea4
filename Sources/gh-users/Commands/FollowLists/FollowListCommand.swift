import AtomicCore
import Data
import Domain

/// `gh-users followers [LOGIN]` and `gh-users following [LOGIN]`, and their set operations.
struct FollowListOptions: PagedOptions {
    /// nil: the token's own account (`GET /user/followers`).
    var login: Login?
    var filter: FollowGraph.Filter?
    var paging = PagingOptions()
    var profiles = ProfileOptions()
    /// `--changes FILE`: the follower snapshot to compare with and replace.
    var changes: String?

    /// How the list is paged: a snapshot is of the whole list, so `--changes` reads to the end (and refuses
    /// `--limit`); a set operation keeps only some of the accounts it reads, so it reads full pages.
    var plan: PagingPlan {
        if changes != nil { return PagingPlan(limit: .all, requestedPerPage: paging.perPage) }
        return filter == nil ? paging.plan : paging.filteredPlan
    }
}

/// The two sides of the follow graph: accounts, page by page, never one twice.
enum FollowListCommand {
    static let mutual = filter(OptionSpec("mutual", help: "Only followers whom LOGIN follows too."), .mutual)
    static let notFollowedBack = filter(
        OptionSpec("not-followed-back", help: "Only followers whom LOGIN does not follow."), .difference)
    static let notFollowingBack = filter(
        OptionSpec("not-following-back", help: "Only accounts LOGIN follows that do not follow LOGIN."), .difference)

    /// The set operations each side takes, by the option that asks for each.
    static func filters(_ relation: UserRelation)
        -> [(option: OptionDeclaration<FollowListOptions>, filter: FollowGraph.Filter)]
    {
        relation == .followers
            ? [(mutual, .mutual), (notFollowedBack, .difference)] : [(notFollowingBack, .difference)]
    }

    /// Each side's own options, declared once: its set operations, then `--changes`.
    static func options(_ relation: UserRelation) -> GroupDeclaration<FollowListOptions> {
        GroupDeclaration(
            title: "OPTIONS", options: filters(relation).map(\.option) + [FollowerChanges.option])
    }

    /// A set operation's flag; one at most.
    private static func filter(_ spec: OptionSpec, _ filter: FollowGraph.Filter) -> OptionDeclaration<FollowListOptions>
    {
        OptionDeclaration(
            spec: spec,
            read: { options, reading throws(UsageError) in
                let chosen = [mutual, notFollowedBack, notFollowingBack].filter { reading.parsed.has($0) }
                if chosen.count > 1 {
                    throw reading.usageError(
                        chosen.map { "--" + $0.name }.joined(separator: " and ") + " cannot be used together")
                }
                options.filter = filter
            },
            resume: { options in options.filter == filter ? ["--" + spec.name] : [] })
    }

    /// What the accounts of a side are called in "Showing 30 followers".
    static func noun(_ relation: UserRelation) -> String {
        relation == .followers ? "followers" : "followed accounts"
    }

    /// A side's help and options, declared once.
    static func spec(_ relation: UserRelation) -> CommandSpec {
        let name = relation.rawValue
        let choices: String = filters(relation).map { "--" + $0.option.name }.joined(separator: " | ")
        return CommandSpec(
            name: name,
            abstract: relation == .followers
                ? "List the accounts that follow an account (GET /users/{username}/followers)."
                : "List the accounts an account follows (GET /users/{username}/following).",
            usage: "gh-users \(name) [LOGIN] [\(choices)] [--limit N | --all | --changes FILE] [options]",
            discussion: """
                Pages by GitHub's Link header, following its URLs exactly as given. An account that appears
                twice while the list shifts under the crawl is written once. Without LOGIN, the token's own
                account is listed (GET /user/\(name)); that needs a token.

                \(relation == .followers ? "--mutual and --not-followed-back compare" : "--not-following-back compares") \
                the followers and the following of LOGIN: the smaller of the two lists is held (as ids, or as the
                records to print), the other is streamed, and the cost is the pages of both. A list is read up
                to its profile's count plus a margin (a tenth, at least 1,000), and never past 2,000,000
                accounts whatever the profile claims; past that the run stops with status 1 before anything
                is written, rather than hold a list that never ends.

                --changes FILE writes who came and went since the last run with FILE, one record each:
                {"change":"added","login":…,"id":…}, "removed" (with the login FILE recorded) or, for an
                account matched by id whose login changed, "renamed" with "previous_login". On a terminal
                the table marks them + (added), − (U+2212, removed) and ~ (renamed). Then FILE is replaced,
                atomically and 0600, with the whole list as it is now (ids and logins, and which list it
                is: the account's id and login, so a renamed account carries on); the first run only records
                it and says so. It reads the whole list as GitHub has it now (--all is implied;
                --limit, --full and --offline cannot be used with it), with a set operation the set it gives.
                A run that stops before its changes are all written and, on a pipe, read (a failed request, a
                rate limit, Ctrl-C, a full stdout, a reader that left as | head -1 or | grep -q does, one that
                took nothing for 5 seconds, an answer taken from the cache because the network could not be
                reached) leaves FILE as it was, so the next run reports them again; a
                reader that left or took nothing is said, and exit 1. A FILE that is not
                a snapshot, or one made for another list, another account (another token's, without
                LOGIN) or against another API root (--api-url, GH_HOST), is exit 1 and left as it is, as is a list under half its profile's count (GitHub
                answered part of it), one that came back empty where FILE holds accounts, or past the bound
                above; one run at a time may use it (FILE.lock). A
                FILE written by an older gh-users (version 1, without the account id) is read if it names
                the account's login, and rewritten with the id; one made without LOGIN ("login": null)
                cannot be checked and is exit 1, saying how to carry it on.
                --fields takes change, login, id and previous_login.
                """,
            arguments: [("LOGIN", "The account whose \(name) to list; without it, the token's own.")],
            options: options(relation).group.options,
            examples: [
                ("gh-users \(name) octocat", "The first 30."),
                ("gh-users \(name) octocat --all --format ndjson | jq -r .login", "All of them, by login."),
                (
                    "gh-users \(name) octocat --all --full --format tsv --fields login,location",
                    "Each with its profile's location."
                ),
                relation == .followers
                    ? ("gh-users followers octocat --all --not-followed-back", "Followers octocat does not follow.")
                    : (
                        "gh-users following --all --not-following-back --format tsv --fields login",
                        "Whom you follow that does not follow you back, by login."
                    ),
                (
                    "gh-users \(name) --changes ~/.local/state/gh-users/\(name).json --format tsv",
                    "Run nightly: who came and went since the last run (once: mkdir -p ~/.local/state/gh-users)."
                ),
            ],
            fields: FieldCatalog.account,
            optionFields: [("With --\(FollowerChanges.option.name)", ListChange.fields)]
        ).paging(noun(relation), profiles: true)
    }

    /// At most one LOGIN, the side's options, then the paging and profile groups.
    static func parse(_ relation: UserRelation, _ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError)
        -> FollowListOptions
    {
        var list = FollowListOptions(login: try LoginArgument.optional(parsed, spec: spec))
        try options(relation).parse(parsed, spec: spec, into: &list)
        list.paging = parsed.paging
        list.profiles = parsed.profiles
        return list
    }

    /// One side's run, which `followers` and `following` each call: exit 4 without a token for the token's own
    /// account or `--full --via graphql`; with `--changes`, what changed since the last run; else the list (or
    /// the set a filter asks for), page by page.
    static func run(
        _ relation: UserRelation, _ options: FollowListOptions, _ context: CommandContext, _ github: GitHubReader
    ) async -> CommandOutcome {
        if !context.presenter.hasToken {
            if options.login == nil {
                return TokenRequirement(command: relation.rawValue + " without a LOGIN").refuse(context)
            }
            if options.profiles.full, options.profiles.via == .graphql {
                return ProfileSource.tokenRequirement(command: relation.rawValue).refuse(context)
            }
        }
        if let path = options.changes {
            return await FollowerChangesCoordinator(
                relation: relation, options: options, path: path, github: github, command: context
            ).run()
        }
        let plan = options.plan
        let pages =
            options.filter.map { filter in
                FollowGraph(github: github, login: options.login, output: relation, filter: filter)
                    .pages(limit: plan.limit, perPage: plan.perPage)
            }
            ?? PagedListViewModel(
                limit: plan.limit, list: GitHubEndpoints.relations(relation, of: options.login),
                perPage: plan.perPage, github: github)
        let full = options.profiles.full ? ProfileStage<FollowListOptions, User>.accounts(\.profiles) : nil
        let render = context.render
        var stream = ListStream(
            noun: noun(relation),
            columns: !render.readsColumns ? [] : full.map { $0.columns(render) } ?? AccountColumns.summary,
            command: context)
        stream.expansion = full.map { $0.expansion(options.profiles, github) }
        return await stream.run(pages)
    }
}

/// `followers` or `following`: the same list of one relation, with the same options, parse and run.
protocol FollowRelationCommand: GitHubCommand, PagedOptions {
    static var relation: UserRelation { get }
    var list: FollowListOptions { get set }
    init(list: FollowListOptions)
}

extension FollowRelationCommand {
    static var spec: CommandSpec { FollowListCommand.spec(relation) }

    var paging: PagingOptions {
        get { list.paging }
        set { list.paging = newValue }
    }

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        self.init(list: try FollowListCommand.parse(Self.relation, parsed, spec: spec))
    }

    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        await FollowListCommand.run(Self.relation, list, context, github)
    }
}

/// `gh-users followers [LOGIN]`: the accounts that follow an account.
struct FollowersCommand: FollowRelationCommand {
    static let relation = UserRelation.followers
    var list: FollowListOptions
}

/// `gh-users following [LOGIN]`: the accounts an account follows.
struct FollowingCommand: FollowRelationCommand {
    static let relation = UserRelation.following
    var list: FollowListOptions
}

extension FollowListOptions: CheckedOptions {
    func check(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        try FollowerChanges.checkFields(self, parsed, spec: spec)
    }
}
