import AtomicCore
import Domain
import Foundation
import Testing

@testable import gh_users

/// What a stopped crawl's hint says around its command line, where no test looked (mutation round 11).
struct ResumeHintEdgeTests {
    private struct NotRunnable: Error {}

    private func options(_ line: [String]) throws -> (ListUsersOptions, CommonOptions) {
        guard case .run(let invocation) = CommandRouter().route(line),
            let options = invocation.options as? ListUsersOptions
        else { throw NotRunnable() }
        return (options, invocation.common)
    }

    private func context(_ common: CommonOptions, stdoutTTY: Bool = false, file: String? = nil) -> CommandContext {
        var context = CommandContext(
            io: IOStreams.test(stdoutTTY: stdoutTTY).0,
            render: RenderContext.resolve(
                requested: common.format, isTTY: stdoutTTY, colorEnabled: false, width: 80, now: .now),
            presenter: ErrorPresenter(now: .now, hasToken: false),
            common: common
        )
        context.stdoutFile = file
        return context
    }

    /// A JSON crawl's rest is an array of its own: the hint says to write it elsewhere, not after the file
    /// (M11-61).
    @Test func aJSONCrawlsHintSaysTheRestIsAnArrayOfItsOwn() throws {
        let (options, common) = try options(["list", "--all", "--format", "json"])
        let lines = ListUsersCommand.resumeHint(after: 3, options, context(common)).split(separator: "\n")
        #expect(
            lines.map(String.init) == [
                "The rest is a JSON array of its own: write it to another file, not after this one (or crawl with "
                    + "--format ndjson, whose lines can be appended).",
                "To continue from here: gh-users list --since 3 --all --format json",
            ])
    }

    /// A csv crawl on a terminal appends to nothing: no word about a second header (M11-59).
    @Test func aCSVCrawlOnATerminalSaysNothingOfItsHeader() throws {
        let (options, common) = try options(["list", "--all", "--format", "csv"])
        let hint = ListUsersCommand.resumeHint(after: 3, options, context(common, stdoutTTY: true))
        #expect(hint == "To continue from here: gh-users list --since 3 --all --format csv")
    }

    /// A `--state` crawl whose stdout went to a file (`> u.tsv`) is continued by appending to that file: the
    /// line ends in `>> u.tsv` (M11-62).
    @Test func aStateCrawlToAFileOnStdoutAppendsToIt() throws {
        let (options, common) = try options(["list", "--all", "--state", "s.json"])
        let hint = ListUsersCommand.resumeHint(after: 3, options, context(common, file: "/data/u.tsv"))
        #expect(hint == "To continue from here, run it again: gh-users list --state s.json --all >> /data/u.tsv")
    }

    /// Only a `--state` crawl with `--output` has its rerun cut the file back, and only one with stdout
    /// appends to the file stdout was (M11-63, M11-64).
    @Test(arguments: [
        (["list", "--all", "--state", "s.json"], false, "/data/u.tsv"),
        (["list", "--all", "--state", "s.json", "--output", "o.tsv"], true, nil),
        (["list", "--all", "--output", "o.tsv"], false, nil),
        (["list", "--all"], false, nil),
    ])
    func whatTheRerunDoesToTheOutput(line: [String], cutsBack: Bool, appended: String?) throws {
        let (options, common) = try options(line)
        let hint = CrawlResumeHint(requested: options, context: context(common, file: "/data/u.tsv"))
        #expect(hint.rerunCutsOutputBack == cutsBack)
        #expect(hint.appendedFile == appended)
    }
}
