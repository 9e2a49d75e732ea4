import AtomicCore
import Domain

extension Command where Options: PagedOptions {
    /// A command that pages through one GitHub list. It takes the paging group on top of the GitHub ones, and a
    /// listing of accounts the profile group too; both are read into the options after `parse`, so a command
    /// cannot take a group and forget to read it.
    init<Item: Sendable>(
        list declaration: ListDeclaration<Options, Item>,
        spec: CommandSpec,
        parse: @escaping @Sendable (ParsedArguments, CommandSpec) throws(UsageError) -> Options
    ) {
        let name = spec.name
        // What needs a token, as the exit-4 message names it: `followers without a LOGIN`, but `emails` whole.
        let needingToken = spec.arguments.isEmpty ? name : name + " without a LOGIN"
        var spec = spec.adding([PagingGroup.group(noun: declaration.noun)])
        let profiles = declaration.profiles?.options
        if profiles != nil {
            spec = spec.adding([ProfileGroup.group])
            spec.optionFields.append(
                ("With --\(ProfileGroup.full.name), also", FieldCatalog.profile.filter { !spec.fields.contains($0) }))
            for field in spec.fields where !FieldCatalog.profile.contains(field) {
                spec.fieldNotes[field] = "not with --\(ProfileGroup.full.name)"
            }
        }
        self.init(
            spec: spec,
            parse: { parsed, spec throws(UsageError) in
                var options = try parse(parsed, spec)
                options.paging = try PagingGroup.declared.parse(parsed, spec: spec)
                if let profiles { options[keyPath: profiles] = try ProfileGroup.declared.parse(parsed, spec: spec) }
                return options
            },
            action: .github { options, context, github in
                await declaration.run(
                    options, context: context, github: github, command: name, needingToken: needingToken)
            }
        )
    }
}

extension ListDeclaration {
    /// One run: the checks and setup before the first request, then the shared coordinator.
    fileprivate func run(
        _ requested: Options, context initialContext: CommandContext, github: any GitHubReader, command name: String,
        needingToken: String
    ) async -> CommandOutcome {
        if let refusal = refusal(requested, context: initialContext, command: name, needingToken: needingToken) {
            return refusal
        }
        var run = Run(options: requested, context: initialContext)
        if let start = setup.start {
            switch start(requested, initialContext) {
            case .finished(let outcome): return outcome
            case .run(let started): run = started
            }
        }
        let (options, context, continuesOutput) = (run.options, run.context, run.continuesOutput)
        let plan = paging(options)
        let expanding = profiles.flatMap { stage in
            let chosen = options[keyPath: stage.options]
            return chosen.full ? (stage, chosen) : nil
        }
        var presentation = presentation(requested, context)
        presentation.pageWritten = run.pageWritten
        if let runNotes = run.closingNotes {
            let declaredNotes = presentation.closingNotes
            presentation.closingNotes = { declaredNotes($0, $1, $2) + runNotes($0) }
        }
        let layout = columns
        let columns: @Sendable (RenderContext) -> [Column<Item>]
        if let (stage, _) = expanding {
            columns = stage.columns
        } else {
            columns = { layout(options, $0) }
        }
        let raw = raw
        return await PagedListCoordinator(
            makeViewModel: { source(for: options, github: github, plan: plan).viewModel(plan: plan, github: github) },
            makeWriter: {
                RecordStreamWriter(context: $0, columns: columns($0), raw: raw, continuesOutput: continuesOutput)
            },
            presentation: presentation,
            command: context,
            expansion: expanding.map { stage, chosen in stage.expansion(chosen, github) }
        ).run()
    }

    /// Exit 4 before anything is sent, when these options need a token and there is none.
    private func refusal(_ options: Options, context: CommandContext, command name: String, needingToken: String)
        -> CommandOutcome?
    {
        guard !context.presenter.hasToken else { return nil }
        if setup.requiresToken(options) {
            return TokenRequirement(command: needingToken).refuse(context)
        }
        if let stage = profiles, options[keyPath: stage.options].full, options[keyPath: stage.options].via == .graphql {
            return ProfileSource.tokenRequirement(command: name).refuse(context)
        }
        return nil
    }
}
