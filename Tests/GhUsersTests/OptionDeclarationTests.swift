import Domain
import Testing

@testable import gh_users

/// Each shared option is declared once; what a resume hint writes back from its values must parse to the same
/// values, and a default must write nothing.
struct OptionDeclarationTests {
    private struct Decided: Equatable {
        var common: CommonOptions
        var paging: PagingOptions
        var profiles: ProfileOptions
    }

    private func decided(_ words: [String]) throws -> Decided {
        guard case .run(let invocation) = CommandRouter().route(["list"] + words) else {
            throw Unparsed(words: words)
        }
        let options = try #require(invocation.options as? ListUsersOptions)
        return Decided(common: invocation.common, paging: options.paging, profiles: options.profiles)
    }

    private struct Unparsed: Error { let words: [String] }

    private func resumeWords(_ decided: Decided) -> [String] {
        PagingGroup.declared.arguments(decided.paging) + ProfileGroup.declared.arguments(decided.profiles)
            + CommonOptions.arguments(decided.common)
    }

    @Test func theDefaultsWriteNothing() {
        #expect(CommonOptions.arguments(CommonOptions()).isEmpty)
        #expect(PagingGroup.declared.arguments(PagingOptions()).isEmpty)
        #expect(ProfileGroup.declared.arguments(ProfileOptions()).isEmpty)
    }

    @Test(arguments: [
        ["--json", "--fields", "login,id", "--color", "always"],
        ["--format", "csv", "--api-url", "http://127.0.0.1:9", "--token-file", "/run/t"],
        ["--timeout", "2.5", "--retries", "0", "--max-wait", "60"],
        ["--wait-on-rate-limit"],
        ["--wait-on-rate-limit", "--max-wait", "900"],
        ["--offline", "--cache-dir", "/tmp/c"],
        ["--no-cache", "--limit", "30", "--per-page", "7"],
        ["--all", "--full", "--concurrency", "8", "--via", "graphql"],
        ["-L", "12", "--full", "--fields", "bio"],
    ])
    func whatAResumeHintWritesParsesToTheSameValues(words: [String]) throws {
        let first = try decided(words)
        #expect(try decided(resumeWords(first)) == first, "\(resumeWords(first))")
    }

    /// Diagnostics shape no output, so a rerun is not asked to repeat them.
    @Test func theDiagnosticsAreNeverWrittenBack() throws {
        let first = try decided(["--verbose", "--log-level", "trace", "--debug"])
        #expect(first.common.debug && first.common.logLevel == .trace)
        #expect(resumeWords(first).isEmpty)
    }

    /// Help shows a typed default as a rerun would write it.
    @Test func helpShowsTheTypedDefaults() {
        #expect(NetworkGroup.retries.spec.defaultValue == String(CommonOptions().retries))
        #expect(NetworkGroup.timeout.spec.defaultValue == "30")
        #expect(OutputGroup.color.spec.defaultValue == CommonOptions().color.rawValue)
        #expect(PagingGroup.limit.spec.defaultValue == "30")
        #expect(ProfileGroup.concurrency.spec.defaultValue == String(ProfileGroup.defaultConcurrency))
    }
}

/// A command's own options are declared as the groups' are: the words their values write back parse to the
/// same values, and a command line without them writes nothing.
struct CommandOptionDeclarationTests {
    /// The command line given, and what its own options write back from what the parse decided.
    private static let cases: [(words: [String], written: @Sendable (any Sendable) -> [String]?)] = [
        (
            ["repos", "octocat", "--type", "member", "--sort", "pushed", "--direction", "asc", "--forks"],
            { ($0 as? ListReposOptions).map { ListReposCommand.options.arguments($0.query) } }
        ),
        (
            ["starred", "octocat", "--sort", "updated", "--direction", "asc"],
            { ($0 as? ListStarredOptions).map(ListStarredCommand.options.arguments) }
        ),
        (["events", "octocat", "--received"], { ($0 as? ListEventsOptions).map(ListEventsCommand.options.arguments) }),
        (
            ["hovercard", "octocat", "--subject-type", "repository", "--subject-id", "1296269"],
            { ($0 as? HovercardOptions).map(HovercardCommand.options.arguments) }
        ),
        (
            ["contributions", "octocat", "--from", "2024-01-01", "--to", "2024-06-30"],
            { ($0 as? ContributionsOptions).map(ContributionsCommand.options.arguments) }
        ),
        (
            ["search", "location:Lisbon", "--sort", "followers", "--order", "asc"],
            { ($0 as? SearchUsersOptions).map(SearchUsersCommand.options.arguments) }
        ),
        (["search", "type:org", "--split"], { ($0 as? SearchUsersOptions).map(SearchUsersCommand.options.arguments) }),
        (
            ["show", "--id", "583231", "--id", "9919", "--concurrency", "2"],
            { ($0 as? ShowUsersOptions).map(ShowUsersCommand.options.arguments) }
        ),
        (
            ["show", "octocat", "--via", "graphql"],
            { ($0 as? ShowUsersOptions).map(ShowUsersCommand.options.arguments) }
        ),
        (
            ["followers", "octocat", "--not-followed-back", "--changes", "/tmp/f.json"],
            { ($0 as? FollowersCommand).map { FollowListCommand.options(.followers).arguments($0.list) } }
        ),
        (
            ["following", "octocat", "--not-following-back"],
            { ($0 as? FollowingCommand).map { FollowListCommand.options(.following).arguments($0.list) } }
        ),
    ]

    private func options(_ words: [String]) throws -> any Sendable & Equatable {
        guard case .run(let invocation) = CommandRouter().route(words) else { throw Unparsed(words: words) }
        return invocation.options
    }

    private struct Unparsed: Error { let words: [String] }

    @Test(arguments: cases.indices)
    func whatACommandsOptionsWriteBackParsesToTheSameValues(index: Int) throws {
        let (words, written) = Self.cases[index]
        let operands = Array(words.prefix { !$0.hasPrefix("-") })
        let given = try options(words)
        let back = try #require(written(given))
        // Written back in the order help lists them, which is how each case gives them.
        #expect(back == Array(words.dropFirst(operands.count)), "\(back)")
        if operands.count > 1 { #expect(try written(options(operands)) == []) }
    }
}

/// `list` reads its own options, the paging group and the profile group in one pass: each group is checked
/// once its own options are read, so with errors in several groups the first group's error is the one said.
struct NestedGroupTests {
    private func message(_ line: String) -> String? {
        guard case .usageError(let error) = CommandRouter().route(line.split(separator: " ").map(String.init)) else {
            return nil
        }
        return error.message
    }

    @Test(arguments: [
        (
            "list --state s.json --format json --limit 0",
            "--state needs a format that can be appended to (tsv, csv or ndjson), not json"
        ),
        ("list --limit 0 --fields name", "invalid value '0' for '--limit': a whole number >= 1"),
        // Past Int64's reach, a whole number that meets ">= 1" is told the bound.
        (
            "list --limit 99999999999999999999",
            "invalid value '99999999999999999999' for '--limit': a whole number >= 1, at most 9223372036854775807"
        ),
        ("list --per-page 101", "invalid value '101' for '--per-page': a whole number from 1 to 100"),
        // Digits only, as --timeout and --max-wait take them.
        ("list --limit +5", "invalid value '+5' for '--limit': a whole number >= 1"),
        ("list --since -0", "invalid value '-0' for '--since': an account id is an integer >= 0"),
        ("show --id +5", "invalid value '+5' for '--id': an account id is an integer >= 1"),
        // Past Int64, the bound, as --limit says it (helper-287: the rule alone, which the value meets).
        (
            "show --id 99999999999999999999",
            "invalid value '99999999999999999999' for '--id': an account id is an integer >= 1, at most "
                + "9223372036854775807"
        ),
        (
            "hovercard octocat --subject-type repository --subject-id 99999999999999999999",
            "invalid value '99999999999999999999' for '--subject-id': the subject's numeric id, 1 or more, at most "
                + "9223372036854775807"
        ),
        ("show --id 0", "invalid value '0' for '--id': an account id is an integer >= 1"),
        (
            "list --since 3 --limit 1 --fields name",
            "the field 'name' is in a profile, not in this list: add --full, or choose among this list's fields: "
                + FieldCatalog.account.joined(separator: ", ")
        ),
    ])
    func eachGroupIsCheckedBeforeTheNextIsRead(line: String, expected: String) {
        #expect(message(line) == expected)
    }
}
