/// `gh-users cache info|clear`.
struct CacheOptions: Sendable, Equatable {
    enum Action: String, Sendable, CaseIterable {
        case info
        case clear
    }

    var action: Action

    static let spec = CommandSpec(
        name: "cache",
        abstract: "Show where the response cache is and how large, or empty it.",
        usage: "gh-users cache info|clear [--cache-dir DIR] [options]",
        discussion: """
            gh-users keeps each GitHub answer with its ETag and revalidates it on the next run: an unchanged
            answer (HTTP 304) costs no rate limit. `info` prints the cache's path, entries and size; `clear`
            removes every entry. The size is bounded by GH_USERS_CACHE_SIZE (default 100MB); the least
            recently used entries go first.
            """,
        arguments: [("info|clear", "What to do.")],
        options: [],
        examples: [
            ("gh-users cache info", "Path, entries and size."),
            ("gh-users cache info --json | jq .size_bytes", "The same, for a script."),
            ("gh-users cache clear", "Remove every cached answer."),
        ]
    )

    static func parse(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> CacheOptions {
        CacheOptions(
            action: try WordArgument.parse(
                parsed, spec: spec, missing: "cache needs an action", unknown: "cache action")
        )
    }
}
