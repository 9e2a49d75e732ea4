import AtomicCore
import Data
import Domain
import JSONBytes

/// `gh-users events LOGIN [--received]`: which account, and whether its own events or the ones it received.
struct ListEventsOptions: PagedOptions {
    var login: Login
    var received = false
    var paging = PagingOptions()

    /// The row `--received` chooses: both are capped at GitHub's 300.
    var endpoint: Endpoint { received ? .receivedPublicEvents : .publicEvents }
}

/// `gh-users events LOGIN`: an account's public activity, newest first, up to the 300 GitHub keeps; with
/// `--received`, the public activity of the accounts it follows and the repositories it watches.
enum ListEventsCommand {
    static let received = OptionDeclaration<ListEventsOptions>.flag(
        OptionSpec(
            "received", help: "List the public events the account received (\(Endpoint.receivedPublicEvents))."),
        at: \.received)
    static let options = GroupDeclaration(title: "OPTIONS", options: [received])

    static let spec = CommandSpec(
        name: "events",
        abstract: "List an account's recent public events (GET /users/{username}/events/public).",
        usage: "gh-users events LOGIN [--received] [--limit N | --all] [options]",
        discussion: """
            Pushes, stars, forks, issues and the rest, newest first. GitHub keeps only the 300 most recent
            public events of an account (and none older than 30 days); gh-users stops there and says so on
            stderr, without asking for the page GitHub would refuse. --received lists instead what the
            account's feed shows: the public events of the accounts it follows and the repositories it
            watches, with the same cap, and an ACTOR column: the login of the account that did each.
            --fields takes a path into an event's objects, as csv headers name it: actor.login, repo.name.
            """,
        arguments: [("LOGIN", "The account whose events to list.")],
        options: options.group.options,
        examples: [
            ("gh-users events octocat", "The 30 most recent."),
            ("gh-users events octocat --all --format ndjson | jq -r .type | sort | uniq -c", "What it does most."),
            ("gh-users events octocat --received --limit 10", "The latest ten in its feed."),
        ],
        fields: ["id", "type", "actor", "repo", "org", "payload", "public", "created_at"]
    ).paging("events", profiles: false).taking(.login)

    /// When, what and where; for the events an account received, who did each as well, since that is another
    /// account each time.
    static func columns(received: Bool, context: RenderContext) -> [Column<Record>] {
        [.time("WHEN", "created_at", context)]
            + (received ? [Column("ACTOR", path: ["actor", "login"], shrink: .last)] : [])
            + [
                Column("TYPE", path: ["type"]),
                Column("REPOSITORY", path: ["repo", "name"], shrink: .last),
                Column("ID", path: ["id"]),
            ]
    }

    static func notes(taken: Int, options: ListEventsOptions) -> [String] {
        guard let cap = options.endpoint.itemCap, options.paging.limit.exceeds(cap), taken >= cap else { return [] }
        let which = options.received ? "public events an account received" : "public events of an account"
        return ["gh-users: GitHub keeps only the \(cap) most recent \(which); these are all of them."]
    }
}

extension ListEventsOptions: GitHubCommand {
    static var spec: CommandSpec { ListEventsCommand.spec }

    /// The LOGIN, `--received`, then the paging group.
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        self.init(login: try parsed.login(spec))
        try ListEventsCommand.options.parse(parsed, spec: spec, into: &self)
        paging = parsed.paging
    }

    /// The account's public events, or those it received, newest first; never the page past GitHub's cap, and
    /// a closing line when the cap is what ended the list.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        // Never ask for the page GitHub refuses: stop at the row's cap (the 300th event).
        let plan = PagingPlan(limit: paging.limit.capped(at: endpoint.itemCap), requestedPerPage: paging.perPage)
        let pages = PagedListViewModel(
            GitHubEndpoints.records(endpoint, of: login), plan: plan, github: github)
        let render = context.render
        let stream = ListStream(
            noun: received ? "received events" : "events",
            columns: render.readsColumns ? ListEventsCommand.columns(received: received, context: render) : [],
            command: context)
        let end = await stream.stream(pages)
        return stream.close(end, notes: ListEventsCommand.notes(taken: end.taken, options: self))
    }
}
