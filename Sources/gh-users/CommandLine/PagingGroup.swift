import Domain

/// `--limit N`, `--all` and `--per-page N`, shared by every paging command.
struct PagingOptions: OptionValues {
    var limit: ItemLimit = .default
    var perPage: Int?

    var plan: PagingPlan { PagingPlan(limit: limit, requestedPerPage: perPage) }

    /// The plan of a list filtered here, not at GitHub: full pages unless `--per-page` says, since keeping N
    /// records may take many pages (`--limit 1` read one account a request).
    var filteredPlan: PagingPlan { PagingPlan(limit: limit, requestedPerPage: perPage ?? PagingPlan.maximumPerPage) }
}

/// The options of a command that takes the paging group: the command's init reads the group into `paging` after
/// the command's own parse, and `list` in the same pass as its own, so no command can take the group and
/// forget to read it (`CatalogTests` checks every one).
protocol PagedOptions: Sendable, Equatable {
    var paging: PagingOptions { get set }
}

/// The paging group, with its help in each command's own words ("Stop after N repositories").
enum PagingGroup {
    static let limit = OptionDeclaration<PagingOptions>.value(
        OptionSpec("limit", short: "L", value: "N", help: "Stop after N items (N >= 1)."),
        at: \.limit,
        parse: { reading throws(UsageError) in
            .count(try reading.number(in: 1...Int64(Int.max), rule: "a whole number >= 1"))
        },
        resume: { limit in
            guard case .count(let count) = limit else { return nil }
            return String(count)
        }
    )
    static let all = OptionDeclaration<PagingOptions>.flag(
        "all", help: "Go on to the last page.",
        apply: { options, reading throws(UsageError) in
            if reading.parsed.value(limit) != nil {
                throw reading.usageError("--limit and --all cannot be used together")
            }
            options.limit = .all
        },
        resumedWhen: { $0.limit == .all }
    )
    static let perPage = OptionDeclaration<PagingOptions>.value(
        OptionSpec(
            "per-page", value: "N", help: "Items per request, 1 to 100.",
            default: "the limit when it fits in one page, else 100"),
        at: \.perPage,
        parse: { reading throws(UsageError) in
            try reading.number(in: 1...Int64(PagingPlan.maximumPerPage), rule: "a whole number from 1 to 100")
        },
        resume: { $0.map(String.init) }
    )

    static let declared = GroupDeclaration(title: "PAGING OPTIONS", options: [limit, all, perPage])

    /// The group with its help in the command's own words.
    static func group(noun: String) -> OptionGroup {
        let capitalised = noun.prefix(1).uppercased() + noun.dropFirst()
        let worded = [
            limit.name: "Stop after N \(noun) (N >= 1).", perPage.name: "\(capitalised) per request, 1 to 100.",
        ]
        let group = declared.group
        return OptionGroup(
            title: group.title,
            options: group.options.map { option in
                guard let help = worded[option.name] else { return option }
                return OptionSpec(
                    option.name, short: option.short, value: option.valueName, help: help,
                    default: option.defaultValue, choices: option.choices)
            }
        )
    }
}
