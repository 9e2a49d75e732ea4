import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

struct ProgressTests {
    private func repository() -> StubTransport {
        let users = StubTransport()
        users.answerPages("/users?since=0&per_page=2", [[1, 2], [3, 4], [5]])
        return users
    }

    @Test func aMultiPageListingShowsProgressOnATerminalAndErasesIt() async {
        let (io, out, err) = IOStreams.test(stderrTTY: true)
        var (env, _, _) = AppEnvironment.test(http: repository())
        env.io = io
        #expect(await GhUsersApp(environment: env).run(["list", "--all", "--per-page", "2"]) == 0)
        #expect(out.text.split(separator: "\n").count == 5)
        #expect(err.text.contains("Fetched 1 page · 2 accounts"))
        #expect(err.text.contains("Fetched 2 pages · 4 accounts"))
        #expect(err.text.hasSuffix("\r\u{1B}[2K"))
        #expect(!out.text.contains("Fetched"))
    }

    /// A progress line wider than a narrow pane wrapped, and `\r` with erase-line cleared only its last row: the
    /// pane filled with stale copies. Each drawing fits the terminal, short of its last column.
    @Test func theProgressLineFitsANarrowTerminal() async {
        var (io, _, err) = IOStreams.test(stderrTTY: true, width: 20)
        io.stderrWidth = 20
        var (env, _, _) = AppEnvironment.test(http: repository())
        env.io = io
        #expect(await GhUsersApp(environment: env).run(["list", "--all", "--per-page", "2"]) == 0)
        let drawings = err.text.split(separator: "\r\u{1B}[2K").map(String.init).filter { !$0.isEmpty }
        #expect(drawings.count >= 2, "\(err.text)")
        #expect(drawings.allSatisfy { DisplayWidth.of($0) <= 19 && $0.hasPrefix("Fetched ") }, "\(drawings)")
    }

    /// One of anything is said in the singular, in the progress line and in the note a limit stop leaves.
    @Test func oneIsSingular() async {
        for limit in [1, 2] {
            let users = StubTransport()
            users.answerPages("/users?since=0&per_page=1", [[1], [2]], linkOn: true)
            let (io, _, err) = IOStreams.test(stdoutTTY: true, stderrTTY: true)
            var (env, _, _) = AppEnvironment.test(http: users)
            env.io = io
            #expect(await GhUsersApp(environment: env).run(["list", "--limit", "\(limit)", "--per-page", "1"]) == 0)
            // The rate follows the count when the page took half a second or more, as on a loaded machine.
            if limit == 1 {
                #expect(err.text.contains("Showing 1 account. To continue"), "\(err.text)")
            } else {
                #expect(err.text.contains(/Fetched 1 page · 1 account( · [0-9]+\/s)?\r/), "\(err.text)")
            }
        }
        #expect(Counted.text(1, plural: "events") == "1 event")
        #expect(Counted.text(1, plural: "email addresses") == "1 email address")
        #expect(Counted.text(1, plural: "starred repositories") == "1 starred repository")
        #expect(Counted.text(2, plural: "repositories") == "2 repositories")
    }

    @Test func offATerminalThereIsNoProgress() async {
        let (env, _, err) = AppEnvironment.test(http: repository())
        #expect(await GhUsersApp(environment: env).run(["list", "--all", "--per-page", "2"]) == 0)
        #expect(err.text.isEmpty)
    }

    /// stdout a pipe whose reader prints to the same terminal (`| head`): the progress line mixed into its lines
    /// ("Fetched 1 page · 100 accounts1\toctocat…"), and OUTPUT.md says none appears when output is piped.
    @Test func stdoutToAPipeShowsNoProgress() async {
        var (io, out, err) = IOStreams.test(stderrTTY: true)
        io.stdoutIsPipe = true
        var (env, _, _) = AppEnvironment.test(http: repository())
        env.io = io
        #expect(await GhUsersApp(environment: env).run(["list", "--all", "--per-page", "2"]) == 0)
        #expect(!out.text.isEmpty)
        #expect(err.text.isEmpty, "\(err.text)")
    }

    @Test func aSinglePageShowsNone() async {
        let users = StubTransport()
        users.answerPages("/users?since=0&per_page=30", [[1]])
        let (io, _, err) = IOStreams.test(stderrTTY: true)
        var (env, _, _) = AppEnvironment.test(http: users)
        env.io = io
        #expect(await GhUsersApp(environment: env).run(["list"]) == 0)
        #expect(err.text.isEmpty)
    }
}
