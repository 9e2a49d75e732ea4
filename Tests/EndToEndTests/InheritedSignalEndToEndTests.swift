import Foundation
import GitHubStandIn
import TestSupport
import Testing

/// A signal the process was started with ignored stays ignored (GNU's coding standards; `nohup sleep` survives the
/// same test): `nohup` ignores SIGHUP, and a shell without job control ignores SIGINT for a command it runs in the
/// background. Before, gh-users caught both anyway, so `nohup gh-users … &` stopped with exit 129 when the terminal
/// went away, and a script's background crawl stopped with exit 130 at a Ctrl-C meant for the script.
struct InheritedSignalEndToEndTests {
    /// 100 pages of 3 accounts, each answer 20 ms late: the crawl is still paging for about two seconds after its
    /// first record is written, which is when the signal is sent.
    private let users = 300
    private let crawl = #""$GH_USERS" list --all --format ndjson --per-page 3 --no-cache --api-url "$API""#

    /// The shell starts the crawl in the background as `launch` says, sends it `signal` once its first record is
    /// out, and reports its status and how many records it wrote.
    private func run(launch: String, signal: String) async throws -> (status: String, records: Int, stderr: String) {
        try await withStandIn(users: users, latency: 20) { server in
            let script = """
                \(launch) \(crawl) > out.ndjson 2> err.txt &
                pid=$!
                until [ -s out.ndjson ]; do sleep 0.01; done
                kill -\(signal) "$pid"
                wait "$pid"; echo "status=$?"
                wc -l < out.ndjson
                cat err.txt
                """
            // Signed in: 100 pages are past the 60 requests an hour GitHub gives a caller without a token.
            let result = try await BinaryRunner.shell(
                script, environment: ["API": server.baseURL, "GH_TOKEN": "inherited-signal-token"], timeout: 60)
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let records = Int(lines.dropFirst().first?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1
            return (lines.first ?? "", records, lines.dropFirst(2).joined(separator: "\n"))
        }
    }

    /// `nohup gh-users … &`, then the terminal goes away: the crawl runs to its end.
    @Test func aSIGHUPIgnoredByNohupLeavesTheCrawlRunning() async throws {
        let result = try await run(launch: "nohup", signal: "HUP")
        #expect(result.status == "status=0", "\(result.stderr)")
        #expect(result.records == users, "\(result.stderr)")
        #expect(!result.stderr.contains("interrupted"), "\(result.stderr)")
    }

    /// A script's background job (bash without job control starts it with SIGINT ignored), then a SIGINT sent to it:
    /// the crawl runs to its end.
    @Test func aSIGINTIgnoredForABackgroundJobLeavesTheCrawlRunning() async throws {
        let result = try await run(launch: "", signal: "INT")
        #expect(result.status == "status=0", "\(result.stderr)")
        #expect(result.records == users, "\(result.stderr)")
        #expect(!result.stderr.contains("interrupted"), "\(result.stderr)")
    }

    /// A Ctrl-C (SIGINT to the foreground process group: the script's shell and gh-users) stops a script's loop.
    /// bash goes on after a command that exited, even with 130, taking it for one that handled the signal, and
    /// stops only when the command died of SIGINT (bash's "wait and cooperative exit"). Before, gh-users exited
    /// 130 and the script ran its next command. `env --default-signal` gives the script SIGINT at its default,
    /// as a terminal's shell would, where `&` would have ignored it.
    @Test(.enabled(if: Self.resetsSignals, "env here has no --default-signal (coreutils 8.31 or later)"))
    func aCtrlCStopsTheScriptThatRanTheCommand() async throws {
        try await withStandIn(users: users, latency: 20) { server in
            let script = """
                env --default-signal=INT setsid bash -c '\(crawl) > out.ndjson 2> err.txt; echo "went on $?" > after.txt' &
                group=$!
                until [ -s out.ndjson ]; do sleep 0.01; done
                kill -INT -- -"$group"
                wait "$group"; echo "status=$?"
                cat after.txt 2>/dev/null
                cat err.txt
                """
            let result = try await BinaryRunner.shell(
                script, environment: ["API": server.baseURL, "GH_TOKEN": "inherited-signal-token"], timeout: 60)
            #expect(result.stdout.hasPrefix("status=130\n"), "\(result.stdout)")
            #expect(!result.stdout.contains("went on"), "\(result.stdout)")
            #expect(result.stdout.contains("gh-users: interrupted"), "\(result.stdout)")
        }
    }

    /// Whether `env --default-signal` is there to give a background job its SIGINT back.
    static let resetsSignals = (try? SpawnedProcess.run("/usr/bin/env", ["--default-signal=INT", "true"]))?.status == 0

    /// SIGTERM, which the shell leaves at its default for the same background job, still stops the crawl with 143:
    /// the tests above show what was inherited, not a handler that stopped working.
    @Test func aSIGTERMNotIgnoredStillStopsTheBackgroundCrawl() async throws {
        let result = try await run(launch: "", signal: "TERM")
        #expect(result.status == "status=143", "\(result.stderr)")
        #expect(result.records < users, "\(result.stderr)")
        #expect(result.stderr.contains("gh-users: interrupted"), "\(result.stderr)")
    }
}
