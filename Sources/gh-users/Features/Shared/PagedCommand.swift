import AtomicCore
import Domain

/// What a paging command declares beyond its spec and parse: which list, which items belong in the output,
/// and how they look. Everything else (paging, prefetch, streaming, JSON closing, resume hints, progress) is
/// the shared `PagedListCoordinator`'s.
struct ListDeclaration<Options: Sendable, Item: Sendable>: Sendable {
    /// What the items are called in help and messages ("repositories").
    let noun: String
    let paging: @Sendable (Options) -> PagingPlan
    let list: @Sendable (Options) -> ListResource<Item>
    /// A fresh admission rule for each run: which items are written (a fork filter, the `/users` id floor).
    let admission: @Sendable (Options) -> Admission
    let columns: @Sendable (RenderContext) -> [Column<Item>]
    let raw: @Sendable (Item) -> RawJSON
    var presentation: @Sendable (Options, CommandContext) -> PagedListCoordinator<Item>.Presentation
    /// Whether these options read the token's own account (`followers` without a LOGIN): exit 4 without a token.
    let requiresToken: @Sendable (Options) -> Bool
    /// For a command whose pages are not one list's as GitHub serves them (the follow graph's set operations):
    /// the loader and admission rule for one run, in place of `list` and `admission`; nil for these options:
    /// the declared `list` and `admission` do.
    var prepare: (@Sendable (Options, any GitHubReader, PagingPlan) -> Preparation?)?
    /// For a listing of accounts: `--full`, each account written as its profile.
    var profiles: ProfileStage<Options, Item>?
    /// Work a run does before its first request (`list --state` reads where the crawl stopped and opens its
    /// `--output` file): the options and output the run goes on with, or the outcome that ends it at once.
    var start: (@Sendable (Options, CommandContext) -> Start)?

    enum Start {
        case run(Run)
        /// Nothing is to be fetched, or nothing can be: the outcome, already reported.
        case finished(CommandOutcome)
    }

    /// What one run pages with, once `start` has had its say.
    struct Run {
        var options: Options
        /// The streams and output settings: `--output FILE` puts a file where stdout was.
        var context: CommandContext
        /// The output already holds records that this run appends to, so no CSV header is written again.
        var continuesOutput = false
        var pageWritten: (@Sendable (Item) throws(OutputWriteError) -> Void)?
        /// Lines for stderr once the list has ended, given how many items were taken, after the others.
        var closingNotes: (@Sendable (_ taken: Int) -> [String])?
    }

    struct Preparation {
        let load: PagedListViewModel<Item>.Loader
        let admission: Admission
        /// Lines for stderr once the list has ended, from what the run learned (a split search's query count),
        /// after the presentation's own.
        var closingNotes: (@Sendable () -> [String])?
    }

    /// One run's rule for which items are written, and for what counts as new (so that a page of items all
    /// filtered out is not taken for a server going round in circles).
    struct Admission {
        let admit: (Item) -> Bool
        var isNew: ((Item) -> Bool)?
        /// Whether the list ends at an item (`list --until`): nothing after it is wanted, or requested.
        var isLast: ((Item) -> Bool)?
    }

    init(
        noun: String,
        paging: @escaping @Sendable (Options) -> PagingPlan,
        list: @escaping @Sendable (Options) -> ListResource<Item>,
        admission: @escaping @Sendable (Options) -> Admission,
        columns: @escaping @Sendable (RenderContext) -> [Column<Item>],
        raw: @escaping @Sendable (Item) -> RawJSON,
        presentation: (@Sendable (Options, CommandContext) -> PagedListCoordinator<Item>.Presentation)? = nil,
        prepare: (@Sendable (Options, any GitHubReader, PagingPlan) -> Preparation?)? = nil,
        profiles: ProfileStage<Options, Item>? = nil,
        start: (@Sendable (Options, CommandContext) -> Start)? = nil,
        requiresToken: @escaping @Sendable (Options) -> Bool = { _ in false }
    ) {
        self.noun = noun
        self.paging = paging
        self.list = list
        self.admission = admission
        self.columns = columns
        self.raw = raw
        self.presentation = presentation ?? { _, _ in .init(noun: noun) }
        self.prepare = prepare
        self.profiles = profiles
        self.start = start
        self.requiresToken = requiresToken
    }

    /// Page-based lists can shift while they are read: an item whose id was already seen is dropped, as is
    /// anything `keep` refuses. Every id is recorded, kept or not, so a page of repeats is told from a page
    /// of items `keep` refused.
    static func unseen(
        id: @escaping @Sendable (Item) -> Int64?,
        keep: @escaping @Sendable (Options) -> (Item) -> Bool = { _ in { _ in true } }
    ) -> @Sendable (Options) -> Admission {
        { options in
            let seen = SeenIDs()
            let kept = keep(options)
            return Admission(
                admit: { item in
                    guard let identity = id(item) else { return kept(item) }
                    return seen.admit(identity) && kept(item)
                },
                isNew: { item in id(item).map { !seen.contains($0) } ?? true }
            )
        }
    }
}

extension Command {
    /// A command that pages through one GitHub list. It takes the paging group on top of the GitHub ones, and a
    /// listing of accounts the profile group too.
    init<Item: Sendable>(
        list declaration: ListDeclaration<Options, Item>,
        spec: CommandSpec,
        parse: @escaping @Sendable (ParsedArguments, CommandSpec) throws(UsageError) -> Options
    ) {
        let name = spec.name
        var spec = spec.adding([PagingOptions.group(noun: declaration.noun)])
        if declaration.profiles != nil {
            spec = spec.adding([ProfileGroup.group])
            spec.fields += FieldCatalog.profile.filter { !spec.fields.contains($0) }
        }
        self.init(
            spec: spec,
            parse: parse,
            action: .github { requested, initialContext, github in
                if declaration.requiresToken(requested), !initialContext.presenter.hasToken {
                    return TokenRequirement(command: name + " without a LOGIN").refuse(initialContext)
                }
                if let stage = declaration.profiles, stage.options(requested).full,
                    stage.options(requested).via == .graphql, !initialContext.presenter.hasToken
                {
                    return ProfileSource.tokenRequirement(command: name).refuse(initialContext)
                }
                var run = ListDeclaration<Options, Item>.Run(options: requested, context: initialContext)
                if let start = declaration.start {
                    switch start(requested, initialContext) {
                    case .finished(let outcome): return outcome
                    case .run(let started): run = started
                    }
                }
                let (options, context, continuesOutput) = (run.options, run.context, run.continuesOutput)
                let plan = declaration.paging(options)
                let list = declaration.list(options)
                let profiles = declaration.profiles.flatMap { stage in
                    let chosen = stage.options(options)
                    return chosen.full ? (stage, chosen) : nil
                }
                let preparedNotes = PreparedNotes()
                var presentation = declaration.presentation(requested, context)
                presentation.pageWritten = run.pageWritten
                let declaredNotes = presentation.closingNotes
                let runNotes = run.closingNotes
                presentation.closingNotes = {
                    declaredNotes($0, $1, $2) + (preparedNotes.source?() ?? []) + (runNotes?($0) ?? [])
                }
                return await PagedListCoordinator(
                    makeViewModel: {
                        if let prepared = declaration.prepare?(options, github, plan) {
                            preparedNotes.source = prepared.closingNotes
                            return PagedListViewModel(
                                limit: plan.limit, load: prepared.load, admit: prepared.admission.admit,
                                isNew: prepared.admission.isNew)
                        }
                        let admission = declaration.admission(options)
                        return PagedListViewModel(
                            limit: plan.limit,
                            load: { cursor throws(DomainError) in
                                if let cursor { return try await github.page(list, at: cursor) }
                                return try await github.firstPage(list, perPage: plan.perPage)
                            },
                            admit: admission.admit,
                            isNew: admission.isNew,
                            isLast: admission.isLast
                        )
                    },
                    makeWriter: {
                        let columns = profiles.map { $0.0.columns } ?? declaration.columns
                        return RecordStreamWriter(
                            context: $0, columns: columns($0), raw: declaration.raw,
                            continuesOutput: continuesOutput)
                    },
                    presentation: presentation,
                    command: context,
                    expansion: profiles.map { stage, chosen in stage.expansion(chosen, github) }
                ).run()
            }
        )
    }
}

/// Carries a preparation's closing notes from the view model, made inside the run, to the presentation, made
/// before it. Set once, then read once the list has ended.
private final class PreparedNotes: @unchecked Sendable {
    var source: (@Sendable () -> [String])?
}
