import AtomicCore
import AtomicLogger
import Foundation
import JSONBytes
import Networking
import TestSupport
import Testing

@testable import gh_users

/// Runs one command in-process as a user runs it: argv → router → the command's declaration → the real
/// `GitHubRepository` → `HTTPClient` → `http`, a strict stub transport, with a fresh cache folder. When the run
/// ends, a request no stub matched or a stub never used fails the test (cli/cli's `httpmock.Registry.Verify`).
struct CommandHarness {
    /// What the run left: its exit status and both streams, and the most bytes one write gave stdout.
    struct Outcome {
        let status: Int32
        let out: String
        let err: String
        var largestWrite = 0
    }

    /// The moment every run happens at, so reset times and relative dates read the same on every machine.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The `X-GitHub-Request-Id` a test's answer carries, for the line that names it.
    static let requestID = ("X-GitHub-Request-Id", "CF25:41C0:C9E976")

    let http = StubTransport()
    /// What the run has written to stdout so far, for an answer to look at mid-run (whether output streams).
    let stdoutSoFar = OutputProbe()
    /// What the run logged (a warning goes to stderr in the live wiring).
    let log = InMemoryLogHandler()
    var environment: [String: String] = [:]
    var stdoutTTY = false
    /// stderr is a terminal: the notes written for a person (which list `members` listed) are written.
    var stderrTTY = false
    /// gh's `GH_SPINNER_DISABLED` as `IOStreams.system` reads it: false draws no status line in place.
    var redrawsStatusLine = true
    var width = 80
    /// A cache folder the runs share, for a second run that revalidates the first's answers; nil gives each run
    /// a fresh one, removed after it.
    var cacheDirectory: URL?
    /// The machine's clock for this harness's runs (`now` unless a test sets it wrong).
    var clock = CommandHarness.now

    /// A harness whose runs have `CommandRequestTests.token` in `GH_TOKEN`.
    static func signedIn() -> CommandHarness {
        var harness = CommandHarness()
        harness.environment["GH_TOKEN"] = CommandRequestTests.token
        return harness
    }

    /// Registers the answer to one expected request; `body` names a file in `Bodies.folder`; `redirectedTo`
    /// (a path and query) is where the answer came from after a redirect the transport followed.
    func expect(
        _ request: String, accept: String? = nil, status: Int = 200, headers: [(String, String)] = [],
        body: String? = nil, redirectedTo: String? = nil
    ) {
        http.register(
            RequestMatcher(request, accept: accept), status: status, headers: headers,
            body: body.map(Bodies.named) ?? Data(), redirectedTo: redirectedTo)
    }

    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async -> Outcome {
        let cache =
            cacheDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-command-\(UUID())")
        defer { if cacheDirectory == nil { try? FileManager.default.removeItem(at: cache) } }
        var variables = environment
        let now = clock
        variables["XDG_CACHE_HOME"] = cache.path
        var (io, out, err) = IOStreams.test(stdoutTTY: stdoutTTY, stderrTTY: stderrTTY, width: width)
        io.redrawsStatusLine = redrawsStatusLine
        stdoutSoFar.attach(out)
        let transport = http.transport
        var app = AppEnvironment(
            io: io,
            environment: variables,
            logger: Logger(label: "gh-users", handler: log),
            now: { now },
            makeGitHub: { request in
                // No wait is slept: a retry's backoff or a rate limit's countdown passes at once, and a rate-limit
                // wait is announced on the session's stderr as the live wiring announces it.
                let announcer = WaitAnnouncer(io: request.io, times: .following { now }, pause: { _ in })
                let clock = RetryClock(
                    now: { now }, random: { 0 },
                    sleep: { duration, reason in try await announcer.sleep(duration, reason: reason) })
                return AppEnvironment.gitHub(request, transport: transport, clock: clock)
            },
            makeCacheRepository: { _ in nil },
            readTokenFile: { path in throw TokenFileError(message: "no token file '\(path)' in a command test") }
        )
        // The second between two writes passes on a clock that never sleeps.
        app.writeClock = TickingClock(step: .zero).clock
        let status = await GhUsersApp(environment: app).run(arguments)
        for problem in http.problems {
            Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
        }
        return Outcome(status: status, out: out.text, err: err.text, largestWrite: out.largestWrite)
    }
}

/// A run's stdout as it stands, once the run has begun.
final class OutputProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var output: CapturedOutput?

    func attach(_ output: CapturedOutput) { lock.withLock { self.output = output } }

    var text: String { lock.withLock { output?.text ?? "" } }

    /// A text kept from within an answer.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        var value: String { lock.withLock { text } }
        func set(_ value: String) { lock.withLock { text = value } }
    }
}

/// The answers GitHub gives, one file per operation (`<operation>.json`), read from the stand-in's folder
/// (`Sources/GitHubStandIn/Bodies`), whose `NOTICE.md` gives their sources: one copy serves both.
enum Bodies {
    static var folder: URL { GitHubBodies.folder }

    static func named(_ name: String) -> Data {
        let url = folder.appendingPathComponent(name + ".json")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record("no body file \(url.path)")
            return Data()
        }
        return data
    }

    /// The body's JSON without its insignificant whitespace, to compare with what a command printed.
    static func compact(_ name: String) -> String {
        compact(Array(named(name)))
    }

    static func compact(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        JSONText.compact(bytes, into: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
