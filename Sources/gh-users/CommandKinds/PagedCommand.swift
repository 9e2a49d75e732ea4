import AtomicCore
import Domain

extension Command {
    /// A command that pages through one GitHub list. It takes the paging group on top of the GitHub ones, and a
    /// listing of accounts the profile group too; both are read into the options after `parse`, so a command
    /// cannot take a group and forget to read it.
    init<Options: PagedOptions, Item: ListedItem>(
        list declaration: ListDeclaration<Options, Item>,
        spec: CommandSpec,
        parse: @escaping @Sendable (ParsedArguments, CommandSpec) throws(UsageError) -> Options
    ) {
        self.init(github: declaration.spec(spec)) { parsed, spec throws(UsageError) in
            .github(try ListRun(declaration, parsed, spec, options: try parse(parsed, spec)))
        }
    }
}

extension ListDeclaration {
    /// The command's spec with the groups this list takes: paging, and for a listing of accounts the profiles.
    func spec(_ spec: CommandSpec) -> CommandSpec {
        spec.paging(noun, profiles: profiles != nil, keeping: profiles?.kept.map(\.name) ?? [])
    }
}

extension CommandSpec {
    /// The spec of a paging command: the paging group in the command's words, and for a listing of accounts
    /// (`profiles`) the profile group, whose fields help lists apart: a profile's, and the list's own keys it
    /// keeps (`kept`).
    func paging(_ noun: String, profiles: Bool, keeping kept: [String] = []) -> CommandSpec {
        var spec = adding([PagingGroup.group(noun: noun)])
        guard profiles else { return spec }
        spec = spec.adding([ProfileGroup.group])
        spec.optionFields.append(
            (ProfileGroup.keptLabel, FieldCatalog.profile.filter { !spec.fields.contains($0) } + kept))
        for field in spec.fields where !FieldCatalog.profile.contains(field) && !kept.contains(field) {
            spec.fieldNotes[field] = "not with --\(ProfileGroup.full.name)"
        }
        return spec
    }
}

/// One run of a paging command: its declaration and the options parsed for it.
struct ListRun<Options: PagedOptions, Item: ListedItem>: GitHubRun {
    let declaration: ListDeclaration<Options, Item>
    let options: Options
    /// The command's name, which the exit-4 message for `--via graphql` names.
    let command: String
    /// What needs a token, as the exit-4 message names it: `followers without a LOGIN`, but `emails` whole.
    let needingToken: String

    /// The command's own options, then the groups the list takes, read into them.
    init(
        _ declaration: ListDeclaration<Options, Item>, _ parsed: ParsedArguments, _ spec: CommandSpec,
        options parsedOptions: Options
    ) throws(UsageError) {
        var options = parsedOptions
        options.paging = try PagingGroup.declared.parse(parsed, spec: spec)
        if let profiles = declaration.profiles?.options {
            options[keyPath: profiles] = try ProfileGroup.declared.parse(parsed, spec: spec)
        }
        self.declaration = declaration
        self.options = options
        command = spec.name
        needingToken = spec.arguments.isEmpty ? spec.name : spec.name + " without a LOGIN"
    }

    /// One run: the token check, then the shared coordinator with what the declaration says.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if let refusal = refusal(context) { return refusal }
        let options = declaration.setup.resolve?(options, context) ?? options
        let plan = declaration.paging?(options) ?? options.paging.plan
        let expanding = declaration.profiles.flatMap { stage in
            let chosen = options[keyPath: stage.options]
            return chosen.full ? (stage, chosen) : nil
        }
        let presentation = declaration.presentation?(options, context) ?? .init(noun: declaration.noun)
        let render = context.render
        let columns =
            !render.readsColumns
            ? []
            : expanding.map { stage, _ in stage.columns(render) } ?? declaration.columns(options, render)
        var stream = ListStream(noun: presentation.noun, columns: columns, command: context)
        stream.emptyNote = presentation.emptyNote
        stream.expansion = expanding.map { stage, chosen in stage.expansion(chosen, github) }
        let end = await stream.stream(declaration.viewModel(options, github, plan: plan))
        return stream.close(
            end, notes: presentation.closingNotes(end.taken, end.totalCount, end.incompleteResults))
    }

    /// Exit 4 before anything is sent, when these options need a token and there is none.
    func refusal(_ context: CommandContext) -> CommandOutcome? {
        guard !context.presenter.hasToken else { return nil }
        if declaration.setup.requiresToken?(options) == true {
            return TokenRequirement(command: needingToken).refuse(context)
        }
        if let needs = declaration.setup.needsToken?(options) {
            return TokenRequirement(command: needs).refuse(context)
        }
        if let stage = declaration.profiles, options[keyPath: stage.options].full,
            options[keyPath: stage.options].via == .graphql
        {
            return ProfileSource.tokenRequirement(command: command).refuse(context)
        }
        return nil
    }
}

extension ListDeclaration {
    /// The pages of one run: prepared here for the options that need it, else the declared list as GitHub
    /// serves it.
    func viewModel(_ options: Options, _ github: GitHubReader, plan: PagingPlan) -> PagedListViewModel<Item> {
        if let prepared = prepare?(options, github, plan) {
            return PagedListViewModel(limit: plan.limit, noting: prepared.load, admission: prepared.admission)
        }
        return PagedListViewModel(
            limit: plan.limit, list: list(options), perPage: plan.perPage, github: github,
            admission: admission(options))
    }
}
