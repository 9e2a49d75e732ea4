import AtomicCore
import Domain

/// What a paging command declares beyond its spec and parse: which list, which items belong in the output,
/// and how they look; and, where it needs them, a few capabilities: how it is presented, pages prepared here
/// in place of the list, full profiles, and a token for some options. Everything else (paging,
/// prefetch, streaming, JSON closing, resume hints, progress) is the shared `PagedListCoordinator`'s.
struct ListDeclaration<Options: PagedOptions, Item: ListedItem>: Sendable {
    /// What the items are called in help and messages ("repositories").
    let noun: String
    /// How the list is paged, when not as `--limit`, `--all` and `--per-page` say (`followers --changes`).
    let paging: (@Sendable (Options) -> PagingPlan)?
    let list: @Sendable (Options) -> ListResource<Item>
    /// A fresh admission rule for each run: which items are written (a fork filter, the `/users` id floor).
    let admission: @Sendable (Options) -> ListAdmission<Item>
    /// The table's columns: most lists have the same whatever the options.
    let columns: (@Sendable (RenderContext) -> [Column<Item>])?
    /// The columns, for a list whose columns depend on the options as well (`events --received`).
    let layout: (@Sendable (Options, RenderContext) -> [Column<Item>])?
    /// How a run is presented beyond its records: a resume hint, closing notes (`presented(by:)`); nil for
    /// the noun alone.
    private(set) var presentation: (@Sendable (Options, CommandContext) -> ListPresentation)?
    /// Pages prepared here in place of the list, for the options that need them (`prepared(by:)`).
    private(set) var prepare: (@Sendable (Options, GitHubReader, PagingPlan) -> PreparedList<Item>?)?
    /// For a listing of accounts: `--full`, each account written as its profile (`fullProfiles(_:)`).
    private(set) var profiles: ProfileStage<Options, Item>?
    /// What a run needs before its first request (`requiringToken(when:)`).
    private(set) var setup = RunSetup()

    /// A list of GitHub's records, declaring what differs from the defaults: pages as the paging group says,
    /// never an id twice, GitHub's JSON as written, and for accounts the accounts' columns.
    init(
        noun: String,
        paging: (@Sendable (Options) -> PagingPlan)? = nil,
        list: @escaping @Sendable (Options) -> ListResource<Item>,
        admission: @escaping @Sendable (Options) -> ListAdmission<Item> = ListDeclaration.unseen(id: \.listedID),
        columns: (@Sendable (RenderContext) -> [Column<Item>])? = Item.listColumns,
        layout: (@Sendable (Options, RenderContext) -> [Column<Item>])? = nil
    ) {
        precondition(columns != nil || layout != nil, "a list declares its columns")
        self.noun = noun
        self.paging = paging
        self.list = list
        self.admission = admission
        self.columns = columns
        self.layout = layout
    }

    /// The columns for these options.
    func columns(_ options: Options, _ context: RenderContext) -> [Column<Item>] {
        layout?(options, context) ?? columns?(context) ?? []
    }

    /// The same list, presented its own way: a resume hint, closing notes.
    func presented(
        by presentation: @escaping @Sendable (Options, CommandContext) -> ListPresentation
    ) -> Self {
        var copy = self
        copy.presentation = presentation
        return copy
    }

    /// For a command whose pages are not one list's as GitHub serves them (the follow graph's set operations, a
    /// split search): the loader and admission rule for one run; nil for options the declared list serves.
    func prepared(
        by prepare: @escaping @Sendable (Options, GitHubReader, PagingPlan) -> PreparedList<Item>?
    ) -> Self {
        var copy = self
        copy.prepare = prepare
        return copy
    }

    /// A listing of accounts: it takes the profile group, whose values `stage.options` names.
    func fullProfiles(_ stage: ProfileStage<Options, Item>) -> Self {
        var copy = self
        copy.profiles = stage
        return copy
    }

    /// Options that read the token's own account (`followers` without a LOGIN): exit 4 without a token.
    func requiringToken(when requires: @escaping @Sendable (Options) -> Bool) -> Self {
        var copy = self
        copy.setup.requiresToken = requires
        return copy
    }

    /// Options that need a token, named as the exit-4 message names them (`members --role (read:org)`); nil
    /// for options that need none.
    func requiringToken(for needs: @escaping @Sendable (Options) -> String?) -> Self {
        var copy = self
        copy.setup.needsToken = needs
        return copy
    }

    /// Options that depend on the run as well as on the command line (`members` without a token lists the
    /// public members): applied after the token check, before the first request.
    func resolved(by resolve: @escaping @Sendable (Options, CommandContext) -> Options) -> Self {
        var copy = self
        copy.setup.resolve = resolve
        return copy
    }

    /// What a run needs before its first request.
    struct RunSetup: Sendable {
        /// nil when no options need a token.
        var requiresToken: (@Sendable (Options) -> Bool)?
        /// What needs a token, for a command whose need is its options' (`requiringToken(for:)`).
        var needsToken: (@Sendable (Options) -> String?)?
        /// What the run makes of the options (`resolved(by:)`); nil to take them as parsed.
        var resolve: (@Sendable (Options, CommandContext) -> Options)?
    }

    /// Page-based lists can shift while they are read: an item whose id was already seen is dropped, as is
    /// anything `keep` refuses. Every id is recorded, kept or not, so a page of repeats is told from a page
    /// of items `keep` refused.
    static func unseen(
        id: @escaping @Sendable (Item) -> Int64?,
        keep: @escaping @Sendable (Options) -> (Item) -> Bool = { _ in { _ in true } }
    ) -> @Sendable (Options) -> ListAdmission<Item> {
        { options in
            let seen = SeenIDs()
            let kept = keep(options)
            return ListAdmission(
                admit: { item in
                    guard let identity = id(item) else { return kept(item) }
                    return seen.admit(identity) && kept(item)
                },
                isNew: { item in id(item).map { !seen.contains($0) } ?? true }
            )
        }
    }
}

/// A record GitHub lists, as the list kind reads it by default: the JSON written, and the id that tells a record
/// already written (nil when it has none).
protocol ListedItem: JSONRecord {
    var listedID: Int64? { get }
    /// The columns a list of these has unless it declares its own; nil when each list declares them.
    static var listColumns: (@Sendable (RenderContext) -> [Column<Self>])? { get }
}

extension ListedItem {
    static var listColumns: (@Sendable (RenderContext) -> [Column<Self>])? { nil }
}

extension User: ListedItem {
    var listedID: Int64? { id }
    static var listColumns: (@Sendable (RenderContext) -> [Column<User>])? { { _ in AccountColumns.summary } }
}

extension Record: ListedItem {
    var listedID: Int64? { id }
}

extension Repo: ListedItem {
    var listedID: Int64? { id }
}

/// How a declared list is presented beyond its records: its noun, what a terminal is told of an empty list, and
/// lines for stderr once it ends (a search's 1,000-result cap).
struct ListPresentation: Sendable {
    let noun: String
    var emptyNote: String?
    var closingNotes: @Sendable (_ taken: Int, _ totalCount: Int?, _ incomplete: Bool) -> [String] = { _, _, _ in [] }
}
