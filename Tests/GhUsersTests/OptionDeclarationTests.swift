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
