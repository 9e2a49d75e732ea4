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
    /// the loader and admission rule for one run, in place of `list` and `admission`.
    var prepare: (@Sendable (Options, any GitHubReader, PagingPlan) -> Preparation)?

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
    }

    init(
        noun: String,
        paging: @escaping @Sendable (Options) -> PagingPlan,
        list: @escaping @Sendable (Options) -> ListResource<Item>,
        admission: @escaping @Sendable (Options) -> Admission,
        columns: @escaping @Sendable (RenderContext) -> [Column<Item>],
        raw: @escaping @Sendable (Item) -> RawJSON,
        presentation: (@Sendable (Options, CommandContext) -> PagedListCoordinator<Item>.Presentation)? = nil,
        prepare: (@Sendable (Options, any GitHubReader, PagingPlan) -> Preparation)? = nil,
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
    /// A command that pages through one GitHub list. It takes the paging group on top of the GitHub ones.
    init<Item: Sendable>(
        list declaration: ListDeclaration<Options, Item>,
        spec: CommandSpec,
        parse: @escaping @Sendable (ParsedArguments, CommandSpec) throws(UsageError) -> Options
    ) {
        let name = spec.name
        self.init(
            spec: spec.adding([PagingOptions.group(noun: declaration.noun)]),
            parse: parse,
            action: .github { options, context, github in
                let plan = declaration.paging(options)
                let list = declaration.list(options)
                if declaration.requiresToken(options), !context.presenter.hasToken {
                    let error = DomainError.tokenRequired(command: "gh-users " + name + " without a LOGIN")
                    context.io.writeErr(context.presenter.present(error).message)
                    return .failed(error)
                }
                let preparedNotes = PreparedNotes()
                var presentation = declaration.presentation(options, context)
                let declaredNotes = presentation.closingNotes
                presentation.closingNotes = { declaredNotes($0, $1, $2) + (preparedNotes.source?() ?? []) }
                return await PagedListCoordinator(
                    makeViewModel: {
                        if let prepare = declaration.prepare {
                            let prepared = prepare(options, github, plan)
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
                            isNew: admission.isNew
                        )
                    },
                    makeWriter: {
                        RecordStreamWriter(context: $0, columns: declaration.columns($0), raw: declaration.raw)
                    },
                    presentation: presentation,
                    command: context
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
