import AtomicCore
import AtomicLogger
import Domain
import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

extension AppEnvironment {
    /// An environment with captured streams whose GitHub is the real repository over `http`, a strict stub
    /// transport (or `transport`, one made of it); no retry wait is slept.
    static func test(
        http: StubTransport = StubTransport(),
        transport: HTTPTransport? = nil,
        stdoutTTY: Bool = false,
        width: Int = 80,
        environment: [String: String] = [:],
        tokenFiles: [String: TokenFile] = [:]
    ) -> (AppEnvironment, out: CapturedOutput, err: CapturedOutput) {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let transport = transport ?? http.transport
        let clock = RetryClock(now: { now }, random: { 0 }, sleep: { _, _ in })
        let (io, out, err) = IOStreams.test(stdoutTTY: stdoutTTY, width: width)
        var env = AppEnvironment(
            io: io,
            environment: environment,
            logger: Logger(label: "gh-users", handler: InMemoryLogHandler()),
            now: { now },
            makeGitHub: { request in AppEnvironment.gitHub(request, transport: transport, clock: clock) },
            makeCacheRepository: { _ in nil },
            readTokenFile: { path in
                guard let file = tokenFiles[path] else {
                    throw TokenFileError(message: "cannot read the token file '\(path)'")
                }
                return file
            }
        )
        // The second of a write's spacing passes on a clock that never sleeps, as a retry's backoff does above.
        env.writeClock = TickingClock(step: .zero).clock
        return (env, out, err)
    }
}

/// The pages of `GET /users` by id, each linking to the next (`since` the last id of the one before).
private func pages(_ http: StubTransport, ids: [[Int64]], since: Int64 = 0, perPage: Int) {
    var since = since
    for (index, pageIDs) in ids.enumerated() {
        let request = "GET /users?since=\(since)&per_page=\(perPage)"
        since = pageIDs.last ?? since
        let next = index + 1 < ids.count ? "/users?since=\(since)&per_page=\(perPage)" : nil
        http.answer(request, accounts: pageIDs, next: next)
    }
}

private func run(_ arguments: String, _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments.split(separator: " ").map(String.init))
}

struct ListUsersCoordinatorTests {
    @Test func pagesUntilTheLimitAndTrimsTheLastPage() async {
        let http = StubTransport()
        pages(http, ids: [[1, 2, 4], [5, 7, 8], [9]], perPage: 3)
        let (env, out, err) = AppEnvironment.test(http: http)
        let status = await run("list --limit 5 --per-page 3", env)
        #expect(status == 0)
        #expect(out.text.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["1", "2", "4", "5", "7"])
        #expect(err.text.isEmpty)
        #expect(http.calls.count == 2)
    }

    @Test func allGoesToTheEnd() async {
        let http = StubTransport()
        pages(http, ids: [[1, 2], [3, 4], [6]], perPage: 100)
        let (env, out, _) = AppEnvironment.test(http: http)
        #expect(await run("list --all", env) == 0)
        #expect(out.text.split(separator: "\n").count == 5)
        #expect(http.calls.count == 3)
    }

    @Test func neverWritesAnAccountTwice() async {
        let http = StubTransport()
        pages(http, ids: [[1, 2, 3], [3, 2, 4]], perPage: 100)
        let (env, out, _) = AppEnvironment.test(http: http)
        #expect(await run("list --all", env) == 0)
        #expect(out.text.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["1", "2", "3", "4"])
    }

    /// `GET /users` is in id order: a page that goes back below an id it gave, to ids not written before, would
    /// lose them without a word (before: 3, 1, 2 wrote 3 alone, exit 0). It is refused, and the run says where to
    /// go on from; repeats of what earlier pages wrote are still dropped (above).
    @Test func aPageOutOfIDOrderIsRefusedNotCut() async {
        let http = StubTransport()
        pages(http, ids: [[1, 2], [5, 3, 4]], perPage: 100)
        let (env, out, err) = AppEnvironment.test(http: http)
        #expect(await run("list --all", env) == 1)
        #expect(out.text.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["1", "2"])
        #expect(err.text.contains("the page lists id 3 after 5, out of GitHub's id order"), "\(err.text)")
        #expect(err.text.contains("gh-users list --since 2"))
    }

    @Test func aFailureHalfWayKeepsJSONValidAndNamesWhereToResume() async throws {
        let http = StubTransport()
        http.answer("GET /users?since=0&per_page=100", accounts: [1, 2], next: "/users?since=2&per_page=100")
        http.refuse(
            "GET /users?since=2&per_page=100", status: 502, message: "Bad Gateway",
            times: StubTransport.attemptsWithDefaultRetries)
        let (env, out, err) = AppEnvironment.test(http: http)
        let status = await run("list --all --json", env)
        #expect(status == 1)
        let parsed = try JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [[String: Any]]
        #expect(parsed?.compactMap { $0["id"] as? Int } == [1, 2])
        #expect(err.text.contains("HTTP 502"))
        #expect(err.text.contains("gh-users list --since 2"))
    }

    @Test func aFailureBeforeAnyDataLeavesStdoutEmpty() async {
        let http = StubTransport()
        http.refuseAsRateLimited("GET /users?since=0&per_page=30")
        let (env, out, err) = AppEnvironment.test(http: http)
        #expect(await run("list --json", env) == 5)
        #expect(out.text.isEmpty)
        #expect(err.text.contains("rate limit"))
        #expect(!err.text.contains("--since"))
    }

    @Test func aClosedStdoutStopsFetchingQuietly() async {
        let http = StubTransport()
        pages(http, ids: [[1, 2], [3, 4], [5, 6], [7, 8]], perPage: 100)
        let (env, out, err) = AppEnvironment.test(http: http)
        out.closeAfter(bytes: 1)
        #expect(await run("list --all", env) == 0)
        #expect(err.text.isEmpty)
        // The second page failed to write; the third may already have been prefetched, the fourth never.
        #expect(http.calls.count <= 3)
        #expect(!http.calls.contains("GET /users?since=6&per_page=100"))
    }

    @Test func onATerminalALimitStopSaysHowToGoOn() async {
        let http = StubTransport()
        pages(http, ids: [[1, 2], [3]], perPage: 2)
        let (env, _, err) = AppEnvironment.test(http: http, stdoutTTY: true)
        #expect(await run("list --limit 2", env) == 0)
        #expect(err.text.contains("Showing 2 accounts. To continue from here: gh-users list --since 2"))
    }

    @Test func whenPipedALimitStopSaysNothing() async {
        let http = StubTransport()
        pages(http, ids: [[1, 2], [3]], perPage: 2)
        let (env, _, err) = AppEnvironment.test(http: http)
        #expect(await run("list --limit 2", env) == 0)
        #expect(err.text.isEmpty)
    }

    @Test func anEmptyResultIsSuccess() async {
        let http = StubTransport()
        http.answer("GET /users?since=999&per_page=30", accounts: [])
        let (env, out, _) = AppEnvironment.test(http: http)
        #expect(await run("list --since 999 --json", env) == 0)
        #expect(out.text == "[]\n")
    }
}

struct ShowUsersCoordinatorTests {
    /// A token GitHub refused (4) stopped the lookups, as a spent limit (5) does: what is left can be asked with a
    /// token it takes, so a partial run says 4, not 1 (before: `[3, 4], 0` and `[4], 1` were 1).
    @Test(arguments: [
        ([Int32](), 2, Int32(0)), ([3], 0, 3), ([3, 3], 0, 3), ([3], 1, 1), ([3, 4], 0, 4), ([4], 0, 4),
        ([4], 1, 4), ([5, 5], 0, 5),
    ])
    func combinesExitStatuses(failures: [Int32], successes: Int, expected: Int32) {
        let errors = failures.map { code -> DomainError in
            switch code {
            case 3: return .notFound(resource: "x")
            case 4: return .unauthorized(status: 401, message: "x")
            default: return .rateLimited(resetAt: nil, message: "x")
            }
        }
        let outcome: CommandOutcome = errors.isEmpty ? .success : .partial(failures: errors, successes: successes)
        #expect(ExitStatus.code(for: outcome) == expected)
    }

    @Test func usageErrorsNeverReachTheRepository() async {
        let http = StubTransport()
        for arguments in ["show ../x", "list --limit 0", "nosuch", "list --api-url ftp://x"] {
            let (env, out, err) = AppEnvironment.test(http: http)
            #expect(await run(arguments, env) == 64, "\(arguments)")
            #expect(out.text.isEmpty)
            #expect(err.text.hasPrefix("Error: "))
        }
        #expect(http.calls.isEmpty)
    }
}

/// Records what the app asked its repository factory for, so option plumbing can be checked without a network.
private final class RequestRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [AppEnvironment.SessionRequest] = []
    var requests: [AppEnvironment.SessionRequest] { lock.withLock { stored } }
    func record(_ request: AppEnvironment.SessionRequest) { lock.withLock { stored.append(request) } }
}

struct SessionSetupTests {
    private func setUp(
        _ arguments: String,
        environment: [String: String] = [:],
        tokenFiles: [String: AppEnvironment.TokenFile] = [:]
    ) async -> (status: Int32, request: AppEnvironment.SessionRequest?, err: String) {
        let http = StubTransport()
        http.register(RequestMatcher("GET /users/octocat"), body: Bodies.named("users-get-by-username"))
        var (env, _, err) = AppEnvironment.test(http: http, environment: environment, tokenFiles: tokenFiles)
        let recorder = RequestRecorder()
        let makeGitHub = env.makeGitHub
        env.makeGitHub = { request in
            recorder.record(request)
            return makeGitHub(request)
        }
        let status = await run(arguments, env)
        return (status, recorder.requests.first, err.text)
    }

    @Test func networkOptionsReachTheRetryPolicy() async throws {
        let result = await setUp("show octocat --retries 5 --timeout 2.5 --wait-on-rate-limit")
        let request = try #require(result.request)
        #expect(request.retries == 5)
        #expect(request.attemptTimeout == 2.5)
        #expect(request.waitOnRateLimit)
        let defaults = try #require(await setUp("show octocat").request)
        #expect(defaults.retries == 3)
        #expect(defaults.attemptTimeout == 30)
        #expect(!defaults.waitOnRateLimit)
    }

    @Test func theTokenFileComesFirstAndIsTrimmed() async throws {
        let result = await setUp(
            "show octocat --token-file /secret",
            environment: ["GH_TOKEN": "from-env"],
            tokenFiles: ["/secret": .init(contents: "  from-file\n", readableByOthers: false)]
        )
        #expect(result.status == 0)
        #expect(try #require(result.request).connection.token == "from-file")
        #expect(result.err.isEmpty)
    }

    @Test func aTokenFileOthersCanReadIsStillUsedWithAWarning() async throws {
        let result = await setUp(
            "show octocat --token-file /secret",
            tokenFiles: ["/secret": .init(contents: "tok-1234", readableByOthers: true)]
        )
        #expect(result.status == 0)
        #expect(result.err.contains("can be read by others; run: chmod 600 /secret"))
        #expect(!result.err.contains("tok-1234"))
    }

    @Test(arguments: [
        ("/missing", "cannot read the token file '/missing'"), ("/empty", "the token file is empty"),
        ("/two", "the token file holds more than one word"),
    ])
    func badTokenFilesAreUsageErrors(path: String, message: String) async {
        let files: [String: AppEnvironment.TokenFile] = [
            "/empty": .init(contents: " \n", readableByOthers: false),
            "/two": .init(contents: "a b", readableByOthers: false),
        ]
        let result = await setUp("show octocat --token-file \(path)", tokenFiles: files)
        #expect(result.status == 64)
        #expect(result.request == nil)
        #expect(result.err.contains(message))
    }

    /// Every wait is bounded by --max-wait; with --wait-on-rate-limit its default takes any reset within the hour.
    @Test func waitOnRateLimitRaisesTheDefaultWaitCeilingToAnHourAndAMinute() async throws {
        #expect(try #require(await setUp("show octocat --wait-on-rate-limit").request).maxWait == 3660)
        #expect(try #require(await setUp("show octocat --wait-on-rate-limit --max-wait 5").request).maxWait == 5)
    }

    @Test func theWaitCeilingAndTheBodyCapReachTheSession() async throws {
        let request = try #require(
            await setUp("show octocat --max-wait 30", environment: ["GH_USERS_MAX_RESPONSE_BYTES": "2M"]).request)
        #expect(request.maxWait == 30)
        #expect(request.maximumBodyBytes == 2 << 20)
        let defaults = try #require(await setUp("show octocat").request)
        #expect(defaults.maxWait == 900)
        #expect(defaults.maximumBodyBytes == 64 << 20)
        let bad = await setUp("show octocat", environment: ["GH_USERS_MAX_RESPONSE_BYTES": "lots"])
        #expect(bad.status == 64)
        #expect(bad.request == nil)
        #expect(bad.err.contains("GH_USERS_MAX_RESPONSE_BYTES"))
        // Past the cap, the message says what the cap is (a review's find: it read as a typo's).
        let past = await setUp("show octocat", environment: ["GH_USERS_MAX_RESPONSE_BYTES": "2000G"])
        #expect(past.status == 64 && past.request == nil)
        #expect(past.err.contains("'2000G': give bytes, or a size such as 256M, 2G or 500MB no larger than 1024G"))
        let unit = await setUp("show octocat", environment: ["GH_USERS_MAX_RESPONSE_BYTES": "1T"])
        #expect(unit.err.contains("'1T': give bytes, or a size such as 256M, 2G or 500MB\n"), "\(unit.err)")
    }

    /// GH_USERS_LOG_LEVEL sets the level as --log-level does, which wins over it; a value that names no level is
    /// a usage error before anything is sent, as a bad GH_USERS_MAX_RESPONSE_BYTES or GH_USERS_CACHE_SIZE is.
    /// Before, it was ignored, and the run went on at the default level.
    @Test func theLogLevelVariableSetsTheLevelAndABadOneIsAUsageError() async throws {
        let set = try #require(await setUp("show octocat", environment: ["GH_USERS_LOG_LEVEL": "DEBUG"]).request)
        #expect(set.logger.level == .debug)
        let flag = await setUp("show octocat --log-level error", environment: ["GH_USERS_LOG_LEVEL": "debug"])
        #expect(try #require(flag.request).logger.level == .error)
        let bad = await setUp("show octocat", environment: ["GH_USERS_LOG_LEVEL": "bogus"])
        #expect(bad.status == 64)
        #expect(bad.request == nil)
        #expect(
            bad.err.contains(
                "invalid GH_USERS_LOG_LEVEL 'bogus': give trace, debug, info, notice, warning or error"),
            "\(bad.err)")
        // The help that explains the settings, not the commands' (which says nothing of them).
        #expect(bad.err.hasSuffix("\nSee 'gh-users help environment'.\n"), "\(bad.err)")
    }

    /// A setting's refusal echoes its value, which may be a token pasted in the wrong place: every token variable's
    /// value and the token file's are masked, sent or not, in the refusals made before the session and after
    /// (helper-353's P-1: the whole token was printed).
    @Test(arguments: [
        ("show octocat", "GH_USERS_LOG_LEVEL"), ("show octocat", "GH_USERS_MAX_RESPONSE_BYTES"),
        ("show octocat", "GH_USERS_CACHE_SIZE"), ("cache info", "GH_USERS_CACHE_SIZE"),
    ])
    func aTokenInASettingIsNotEchoed(arguments: String, setting: String) async throws {
        let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
        for variable in ["GH_TOKEN", "GH_ENTERPRISE_TOKEN"] {
            let result = await setUp(arguments, environment: [variable: token, setting: token])
            #expect(result.status == 64)
            #expect(result.err.contains("invalid \(setting) '***'"), "\(result.err)")
            #expect(!result.err.contains("abcdefghij"), "\(result.err)")
        }
        guard arguments.hasPrefix("show") else { return }
        let file = AppEnvironment.TokenFile(contents: token + "\n", readableByOthers: false, isStandardInput: false)
        let fromFile = await setUp(
            arguments + " --token-file t", environment: [setting: token], tokenFiles: ["t": file])
        #expect(fromFile.status == 64)
        #expect(!fromFile.err.contains("abcdefghij"), "\(fromFile.err)")
    }

    @Test(arguments: [
        "--timeout 0", "--timeout -1", "--timeout abc", "--timeout nan", "--retries 11", "--retries -1",
        "--max-wait -1",
        "--max-wait x",
        // Swift's Double reads these; whole-number options refuse them, and 0x1p-6 s timed out every request.
        "--timeout 0x1p-6", "--timeout 1e-2", "--timeout 0x10", "--timeout inf", "--timeout +1", "--timeout 1.",
        "--max-wait 1e2", "--max-wait 0x10", "--max-wait +1", "--retries +1", "--retries -0",
    ])
    func badNetworkOptionsAreUsageErrors(option: String) async {
        let result = await setUp("show octocat \(option)")
        #expect(result.status == 64)
        #expect(result.request == nil)
    }
}

struct ErrorPresenterTests {
    private let presenter = ErrorPresenter(now: Date(timeIntervalSince1970: 1_000), hasToken: false)

    @Test(arguments: [
        (DomainError.notFound(resource: "user 'x'"), Int32(3)),
        (.unauthorized(status: 401, message: "Bad credentials"), 4),
        (.unauthorized(status: 403, message: "no"), 4), (.rateLimited(resetAt: nil, message: "m"), 5),
        (.network("down"), 1),
        (.server(status: 500, message: "m"), 1), (.malformedResponse(endpoint: "GET /users", detail: "d"), 1),
        (.cancelled, 130),
        (.invalidInput("bad"), 64),
    ])
    func mapsEveryErrorToItsExitStatus(error: DomainError, code: Int32) {
        #expect(presenter.present(error).exitCode == code)
    }

    @Test func rateLimitSaysWhenItResets() {
        let message = presenter.present(
            .rateLimited(resetAt: Date(timeIntervalSince1970: 1_000 + 754), message: "API rate limit exceeded")
        ).message
        #expect(message.contains("in 12m 34s"))
        #expect(message.contains("GH_TOKEN"))
    }

    @Test func githubsMessagesCannotDriveTheTerminal() {
        let message = presenter.present(.server(status: 500, message: "\u{1B}[2J\u{1B}]0;pwned\u{07}")).message
        #expect(!message.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }
}
