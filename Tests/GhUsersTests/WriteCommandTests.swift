import AtomicCore
import Data
import Domain
import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

/// A clock that never sleeps: each reading is `step` after the one before (the time a write takes), and a
/// wait moves it on by the time asked for, which it records.
final class TickingClock: @unchecked Sendable {
    private let lock = NSLock()
    private let step: Duration
    private var instant = ContinuousClock.now
    private var requested: [Duration] = []

    init(step: Duration = .milliseconds(250)) {
        self.step = step
    }

    var waits: [Duration] { lock.withLock { requested } }

    var clock: WriteClock {
        WriteClock(
            now: {
                self.lock.withLock {
                    self.instant += self.step
                    return self.instant
                }
            },
            sleep: { duration in
                self.lock.withLock {
                    self.requested.append(duration)
                    self.instant += duration
                }
            })
    }
}

/// A clock that moves only as a write is answered (`pass`, the time the write took) or a wait asks it to, which
/// it records.
final class WriteTimeClock: @unchecked Sendable {
    private let lock = NSLock()
    private var instant = ContinuousClock.now
    private var requested: [Duration] = []

    var waits: [Duration] { lock.withLock { requested } }

    func pass(_ duration: Duration) { lock.withLock { instant += duration } }

    var clock: WriteClock {
        WriteClock(
            now: { self.lock.withLock { self.instant } },
            sleep: { duration in
                self.lock.withLock {
                    self.requested.append(duration)
                    self.instant += duration
                }
            })
    }
}

/// A write whose row is not follow's, so that what the kind says comes from the row and the declaration.
/// Standard output on a full disk: the first `after` writes land, every later one fails as ENOSPC does.
private final class FullDisk: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var left: Int
    private let landed: CapturedOutput

    init(after writes: Int, into landed: CapturedOutput) {
        left = writes
        self.landed = landed
    }

    func write(_ bytes: [UInt8]) throws {
        let fails: Bool = lock.withLock {
            left -= 1
            return left < 0
        }
        if fails { throw OutputWriteError(message: "cannot write to stdout: No space left on device") }
        try landed.write(bytes)
    }
}

private func declaration(_ confirmation: ConfirmationRule) -> WriteDeclaration {
    WriteDeclaration(
        endpoint: Endpoint(
            "test/star-account", .put, "/user/stars/{username}", shape: .status, scope: "admin:stars",
            docs: "https://example.com"),
        name: "star", past: "starred", progressive: "Starring", confirmation: confirmation, counterpart: "unstar",
        abstract: "Star accounts", example: "Star one account.")
}

private struct Run {
    let status: Int32
    let out: String
    let err: String
    /// What the app would print for a usage error, which the command leaves to it.
    var usage: String?
}

private func run(
    _ declaration: WriteDeclaration, _ logins: [String], yes: Bool = false, dryRun: Bool = false,
    github: StubTransport, clock: WriteClock = TickingClock().clock, hasToken: Bool = true,
    terminal answer: String? = nil, common: CommonOptions = CommonOptions(), stdoutFailsAfter: Int? = nil,
    stdoutClosesAfter bytes: Int? = nil, stderrTTY: Bool? = nil, dumb: Bool = false
) async -> Run {
    var (io, out, err) = IOStreams.test(stderrTTY: stderrTTY ?? (answer != nil), terminal: answer)
    io.terminalIsDumb = dumb
    if let bytes { out.closeAfter(bytes: bytes) }
    if let writes = stdoutFailsAfter {
        var failing = IOStreams(
            out: FullDisk(after: writes, into: out), err: err, stdoutIsTTY: false, stderrIsTTY: io.stderrIsTTY,
            terminalWidth: 80, colorPolicy: .auto)
        failing.canAsk = io.canAsk
        failing.readLine = io.readLine
        io = failing
    }
    var context = CommandContext(
        io: io,
        render: RenderContext.resolve(requested: .tsv, isTTY: false, colorEnabled: false, width: 80, now: .now),
        presenter: ErrorPresenter(now: .now, hasToken: hasToken))
    context.common = common
    context.writeClock = clock
    let options = WriteOptions(
        logins: .given(logins.map { try! Login(validating: $0) }), dryRun: dryRun, yes: yes)
    let outcome = await WriteCoordinator(
        declaration: declaration, options: options, context: context,
        github: github.repository(retries: common.retries)
    ).run()
    var result = Run(status: ExitStatus.code(for: outcome), out: out.text, err: err.text)
    if case .usage(let error) = outcome { result.usage = error.message }
    return result
}

struct WriteCommandTests {
    @Test func writesGoInOrderEachASecondAfterThePreviousOneEnded() async {
        let github = StubTransport.acceptingWrites()
        let ticking = TickingClock()
        let result = await run(declaration(.never), ["a", "b", "c"], github: github, clock: ticking.clock)
        #expect(result.status == 0)
        #expect(github.calls == ["PUT /user/stars/a", "PUT /user/stars/b", "PUT /user/stars/c"])
        // The clock read 250 ms on since each write ended, so 750 ms were left of the second.
        #expect(ticking.waits == [.milliseconds(750), .milliseconds(750)])
        #expect(result.out == "a\tstar\tstarred\nb\tstar\tstarred\nc\tstar\tstarred\n")
    }

    @Test func aWriteThatTookLongIsFollowedByTheWholeSpacingCountedFromItsEnd() async {
        let time = WriteTimeClock()
        let github = StubTransport()
        github.answerEvery { request, _ in
            time.pass(.seconds(3))
            return HTTPResponse(status: 204, headers: HTTPHeaders(), body: Data(), url: request.url)
        }
        let result = await run(declaration(.never), ["a", "b"], github: github, clock: time.clock)
        #expect(result.status == 0, "\(result.err)")
        #expect(github.calls == ["PUT /user/stars/a", "PUT /user/stars/b"])
        // The first write took 3 s: the second still waits the whole second after it ended, not after it began.
        #expect(time.waits == [.seconds(1)])
    }

    @Test func aWriteThatTookLongerThanTheSpacingIsNotWaitedFor() async {
        let github = StubTransport.acceptingWrites()
        let slow = TickingClock(step: .seconds(2))
        #expect(await run(declaration(.never), ["a", "b", "c"], github: github, clock: slow.clock).status == 0)
        #expect(github.calls.count == 3)
        #expect(slow.waits.isEmpty)
    }

    @Test(arguments: [
        (ConfirmationRule.never, 3, false),
        (.whenMoreThanOne, 1, false),
        (.whenMoreThanOne, 2, true),
        (.always, 1, true),
    ])
    func aRuleThatAsksNeedsYesWithoutATerminal(rule: ConfirmationRule, count: Int, asks: Bool) async {
        let logins = Array(["a", "b", "c"].prefix(count))
        let github = StubTransport.acceptingWrites()
        let result = await run(declaration(rule), logins, github: github)
        #expect(result.status == (asks ? 64 : 0), "\(result.err)")
        #expect(github.calls.count == (asks ? 0 : count))
        if asks {
            #expect(
                result.usage
                    == "starring \(Counted.text(count, "account")) needs --yes when there is no terminal to ask on; "
                    + "nothing was sent")
            let withYes = StubTransport.acceptingWrites()
            #expect(await run(declaration(rule), logins, yes: true, github: withYes).status == 0)
            #expect(withYes.calls.count == count)
        }
    }

    /// The refusal says which terminal is missing: with stderr sent to a log (`unfollow a b 2>> log` at a
    /// terminal), it named none, and a person at the terminal had no reason (helper-340's E5); `TERM=dumb`
    /// (Emacs's shell) is a terminal that counts as none.
    @Test func theRefusalToAskSaysWhichTerminalIsMissing() async {
        let logged = await run(
            declaration(.always), ["a"], github: .acceptingWrites(), terminal: "y\n", stderrTTY: false)
        #expect(logged.status == 64)
        #expect(
            logged.usage
                == "starring 1 account needs --yes when stderr, where the question goes, is not a terminal; nothing "
                + "was sent")
        let dumb = await run(declaration(.always), ["a"], github: .acceptingWrites(), dumb: true)
        #expect(
            dumb.usage
                == "starring 1 account needs --yes when TERM=dumb, which counts as no terminal to ask on; nothing was "
                + "sent")
    }

    @Test func theQuestionListsTheAccountsAndOnlyAYesSendsAnything() async {
        for (answer, sent) in [("yes", 1), ("", 0), ("n", 0)] {
            let github = StubTransport.acceptingWrites()
            let result = await run(declaration(.always), ["a"], github: github, terminal: answer + "\n")
            #expect(result.err.hasPrefix("To star: a\nStar 1 account? [y/N] "), "\(result.err)")
            #expect(github.calls.count == sent)
            #expect(result.status == (sent == 1 ? 0 : 1))
        }
    }

    /// Past twenty accounts the question names the first twenty and counts the rest.
    @Test func theQuestionNamesTwentyAccountsAndCountsTheRest() async {
        let github = StubTransport.acceptingWrites()
        let logins = (1...23).map { "a\($0)" }
        let result = await run(declaration(.always), logins, github: github, terminal: "n\n")
        let named = logins.prefix(20).joined(separator: ", ")
        #expect(result.err.hasPrefix("To star: \(named) and 3 more\nStar 23 accounts? [y/N] "), "\(result.err)")
        #expect(github.calls.isEmpty)
    }

    @Test func aDryRunSendsNothingAsksNothingAndNeedsNoToken() async {
        let github = StubTransport.acceptingWrites()
        let result = await run(declaration(.always), ["a", "b"], dryRun: true, github: github, hasToken: false)
        #expect(result.status == 0)
        #expect(result.out == "PUT https://api.github.com/user/stars/a\nPUT https://api.github.com/user/stars/b\n")
        #expect(result.err.isEmpty)
        #expect(github.calls.isEmpty)
    }

    @Test func withoutATokenNothingIsSent() async {
        let github = StubTransport.acceptingWrites()
        let result = await run(declaration(.never), ["a"], github: github, hasToken: false)
        #expect(result.status == 4)
        #expect(result.err.contains("star"))
        #expect(github.calls.isEmpty)
    }

    /// The missing token is what stops the run: it is said before a question that could only end in it, with or
    /// without a terminal to ask on.
    @Test(arguments: [nil, "y\n"])
    func withoutATokenNothingIsAsked(terminal: String?) async {
        let github = StubTransport.acceptingWrites()
        let result = await run(declaration(.always), ["a", "b"], github: github, hasToken: false, terminal: terminal)
        #expect(result.status == 4, "\(result.err)")
        #expect(!result.err.contains("[y/N]") && !result.err.contains("--yes"), "\(result.err)")
        #expect(github.calls.isEmpty)
    }

    @Test func aScopeRefusalStopsAtOnceNamingTheRowsScopeAndWhatIsLeft() async {
        let github = StubTransport.acceptingWrites()
        // GitHub names the scopes the endpoint accepts and those the token has, which share none.
        github.refuse(
            "PUT /user/stars/b", status: 403, message: "Forbidden",
            headers: [("X-OAuth-Scopes", "read:user"), ("X-Accepted-OAuth-Scopes", "admin:stars")])
        let result = await run(declaration(.never), ["a", "b", "c"], github: github)
        #expect(result.status == 4)
        #expect(github.calls == ["PUT /user/stars/a", "PUT /user/stars/b"])
        #expect(
            result.out
                == "a\tstar\tstarred\nb\tstar\trefused: the token lacks the admin:stars scope\nc\tstar\tnot sent\n")
        #expect(result.err.contains("the token needs the admin:stars scope to star"), "\(result.err)")
        #expect(!result.err.contains("user:follow"))
        // The refused account was not starred either: the command that finishes the job names it.
        #expect(result.err.contains("1 done, 1 not sent, b refused"), "\(result.err)")
        #expect(
            result.err.hasSuffix("To finish, with a token with the admin:stars scope: gh-users star --yes b c\n"),
            "\(result.err)")
    }

    /// A token GitHub no longer takes (401) refuses the rest alike: the command to finish needs another, and says
    /// so (before, "To finish: …" alone, the same token's rerun refused again; helper-341's M6).
    @Test func aRefusedTokensCommandToFinishAsksForAnother() async {
        let github = StubTransport.acceptingWrites()
        github.refuse("PUT /user/stars/b", status: 401, message: "Bad credentials")
        let result = await run(declaration(.never), ["a", "b", "c"], github: github)
        #expect(result.status == 4)
        #expect(
            result.err.hasSuffix("To finish, with a token GitHub takes: gh-users star --yes b c\n"), "\(result.err)")
    }

    /// A `--token-file` that a rerun cannot read (`<(cmd)`) is left out of the command to finish, and stderr says
    /// so, as `list`'s resume hint does; one that can be read again goes in it, with no note.
    @Test(arguments: [("/dev/fd/63", false), ("/run/secrets/gh", true)])
    func aTokenFileThatCannotBeReadAgainIsNamedUnderTheCommandToFinish(path: String, readable: Bool) async {
        let github = StubTransport.acceptingWrites()
        github.refuse("PUT /user/stars/b", status: 403, message: "Forbidden")
        var common = CommonOptions()
        common.tokenFile = path
        let result = await run(declaration(.never), ["a", "b"], github: github, common: common)
        #expect(result.status == 4)
        let note =
            "The token came from \(path), which cannot be read again: give it again, with --token-file or GH_TOKEN "
            + "(GH_ENTERPRISE_TOKEN for a GitHub Enterprise host).\n"
        if readable {
            #expect(result.err.hasSuffix("To finish: gh-users star --yes --token-file \(path) b\n"), "\(result.err)")
        } else {
            #expect(result.err.hasSuffix("To finish: gh-users star --yes b\n" + note), "\(result.err)")
        }
    }

    @Test func aFourOhFourForAnAccountThatExistsIsTheRowsScopeMissing() async {
        let github = StubTransport.acceptingWrites()
        github.refuse(
            "PUT /user/stars/a", status: 404, message: "Not Found", headers: [("X-GitHub-Request-Id", "C0DE:4:0:4")])
        github.answer("GET /users/a", json: account(1, "a"))
        let result = await run(declaration(.never), ["a"], github: github)
        #expect(result.status == 4)
        #expect(github.calls == ["PUT /user/stars/a", "GET /users/a"])
        // GitHub's own words first, and the scope said as the row's: a 404 names none.
        #expect(
            result.err.hasPrefix(
                "gh-users: GitHub refused the request (HTTP 404: Not Found; the token needs the admin:stars scope to star)\n"
                    + "The token may lack a scope: GitHub answers 404 for what a token may not see (this needs: "
                    + "admin:stars).\n"), "\(result.err)")
        // The write's request id, which GitHub Support asks for (before: dropped with the 404).
        #expect(result.err.contains("request id: C0DE:4:0:4\n"), "\(result.err)")
    }

    @Test func everyAccountUnknownIsThreeAMixIsOneAndAFailureDoesNotStopTheRun() async {
        let github = StubTransport.acceptingWrites()
        for ghost in ["x", "y", "x"] {
            github.refuse("PUT /user/stars/\(ghost)", status: 404, message: "Not Found")
            github.refuse("GET /users/\(ghost)", status: 404, message: "Not Found")
        }
        github.refuse(
            "PUT /user/stars/down", status: 502, message: "Bad Gateway", times: StubTransport.attemptsWithDefaultRetries
        )
        #expect(await run(declaration(.never), ["x", "y"], github: github).status == 3)
        let mixed = await run(declaration(.never), ["x", "a"], github: github)
        #expect(mixed.status == 1)
        #expect(mixed.out == "x\tstar\tno such account\na\tstar\tstarred\n")
        let failed = await run(declaration(.never), ["down", "b"], github: github)
        #expect(failed.status == 1)
        #expect(failed.out.hasPrefix("down\tstar\tfailed: "), "\(failed.out)")
        #expect(failed.out.hasSuffix("b\tstar\tstarred\n"))
    }

    /// An unknown account's message names it already: stderr does not name it a second time as the write's.
    @Test func anUnknownAccountIsNamedOnceOnStderr() async {
        let github = StubTransport.acceptingWrites()
        github.refuse("PUT /user/stars/x", status: 404, message: "Not Found")
        github.refuse("GET /users/x", status: 404, message: "Not Found")
        let result = await run(declaration(.never), ["x", "a"], github: github)
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("gh-users: no user 'x'"), "\(result.err)")
        #expect(!result.err.contains("star x:"), "\(result.err)")
    }

    /// A network failure that outlasts the retries stops the run: every later write would meet it, each after its
    /// own retries. The command to finish names the account it stopped at, since a follow sent twice is made once.
    /// Before: the run went on, four attempts an account, and printed no command.
    @Test func aNetworkFailureThroughTheRetriesStopsTheRunWithTheCommandToFinish() async throws {
        let github = StubTransport.acceptingWrites()
        for _ in 0..<StubTransport.attemptsWithDefaultRetries {
            github.fail("https://api.github.com/user/stars/b", with: .connectionLost)
        }
        let result = await run(declaration(.never), ["a", "b", "c"], github: github)
        #expect(result.status == 1, "\(result.err)")
        #expect(github.calls == ["PUT /user/stars/a"] + Array(repeating: "PUT /user/stars/b", count: 4))
        #expect(result.out.hasPrefix("a\tstar\tstarred\nb\tstar\tfailed: "), "\(result.out)")
        #expect(result.err.contains("sending it again is safe"), "\(result.err)")
        let line = try #require(result.err.split(separator: "\n").last)
        #expect(line.hasSuffix("To finish: gh-users star --yes b c"), "\(result.err)")
    }

    /// `--offline` keeps off the network, so a write cannot be sent: exit 64 before anything is, and a dry run
    /// still shows the requests.
    @Test func offlineSendsNoWrite() async {
        let github = StubTransport.acceptingWrites()
        var common = CommonOptions()
        common.cacheMode = .offline
        let refused = await run(declaration(.never), ["a", "b"], github: github, common: common)
        #expect(refused.status == 64)
        #expect(refused.usage?.contains("--offline") == true)
        #expect(github.calls.isEmpty)
        let dry = await run(declaration(.never), ["a"], dryRun: true, github: github, common: common)
        #expect(dry.status == 0)
        #expect(github.calls.isEmpty)
    }

    /// Logins are case-insensitive: an account given twice is written once.
    @Test func anAccountGivenTwiceIsWrittenOnce() async {
        let github = StubTransport.acceptingWrites()
        let result = await run(declaration(.never), ["a", "b", "A", "a"], github: github)
        #expect(result.status == 0)
        #expect(github.calls == ["PUT /user/stars/a", "PUT /user/stars/b"])
        #expect(result.out == "a\tstar\tstarred\nb\tstar\tstarred\n")
    }

    /// A failure that does not stop the run is one line in its record, and said in full on stderr, naming the
    /// write and the account: a script whose stdout went to a file could not tell whose line was whose.
    @Test func aFailedAccountIsOneLineInItsRecordAndSaidOnStderr() async {
        let github = StubTransport.acceptingWrites()
        github.refuse(
            "PUT /user/stars/me", status: 422, message: "Validation Failed",
            headers: [("X-GitHub-Request-Id", "C0DE:1:2:3:4")])
        let result = await run(declaration(.never), ["me", "b"], github: github)
        #expect(result.status == 1)
        #expect(result.out == "me\tstar\tfailed: GitHub answered HTTP 422: Validation Failed\nb\tstar\tstarred\n")
        #expect(
            result.err.contains("gh-users: star me: GitHub answered HTTP 422: Validation Failed\n"), "\(result.err)")
        #expect(result.err.contains("request id: C0DE:1:2:3:4"), "\(result.err)")
    }

    /// Standard output failing mid-run stops the writes; what was sent stays sent, and stderr says what is left.
    @Test func aFailedStdoutSaysWhatIsLeftToWrite() async {
        let github = StubTransport.acceptingWrites()
        let result = await run(declaration(.never), ["a", "b", "c"], github: github, stdoutFailsAfter: 1)
        #expect(result.status == 1)
        #expect(github.calls == ["PUT /user/stars/a", "PUT /user/stars/b"])
        #expect(result.err.contains("No space left on device"), "\(result.err)")
        #expect(result.err.hasSuffix("1 not sent; output stopped. To finish: gh-users star --yes c\n"), "\(result.err)")
    }

    /// With nothing left to send, stdout failing on the last record (`block x > /dev/full`) still says the write
    /// was made: exit 1 alone read as "not blocked" (an exit-code review's find).
    @Test(arguments: [["a"], ["a", "b"]])
    func aFailedStdoutAfterTheLastWriteSaysItWasDone(logins: [String]) async {
        let github = StubTransport.acceptingWrites()
        let result = await run(declaration(.never), logins, github: github, stdoutFailsAfter: logins.count - 1)
        #expect(result.status == 1)
        #expect(github.calls == logins.map { "PUT /user/stars/\($0)" })
        #expect(result.err.contains("No space left on device"), "\(result.err)")
        #expect(result.err.hasSuffix("gh-users: \(logins.count) done all the same; output stopped\n"), "\(result.err)")
    }

    /// A reader that leaves after the first record (`| head -1`) is noticed before the second write is sent,
    /// not when its record is written: nothing is sent that has nowhere to be reported. The accounts left are
    /// work not done: exit 1 (before: 0, so `| grep -q` or `| true` read as every write made).
    @Test func aReaderThatLeftIsNoticedBeforeTheNextWrite() async {
        let github = StubTransport.acceptingWrites()
        let result = await run(declaration(.never), ["a", "b", "c"], github: github, stdoutClosesAfter: 1)
        #expect(result.status == 1)
        #expect(github.calls == ["PUT /user/stars/a"])
        #expect(result.out == "a\tstar\tstarred\n")
        #expect(
            result.err.hasSuffix("2 not sent; output stopped. To finish: gh-users star --yes b c\n"), "\(result.err)")
    }

    /// The command that finishes the job talks to the same host in the same way: on GitHub Enterprise a rerun
    /// without `--api-url` would go to github.com.
    @Test func theCommandToFinishKeepsTheHostAndHowHardToTry() async throws {
        let github = StubTransport.acceptingWrites()
        github.fail("https://api.github.com/user/following/bob", with: .cancelled)
        var common = CommonOptions()
        common.apiURL = "https://ghe.example.com/api/v3"
        common.retries = 5
        let result = await run(
            WriteDeclaration(
                endpoint: .follow, name: "follow", past: "followed", progressive: "Following", confirmation: .never,
                counterpart: "unfollow", abstract: "Follow", example: "Follow one."),
            ["alice", "bob"], github: github, common: common)
        #expect(result.status == 130)
        let line = try #require(result.err.split(separator: "\n").last)
        let command = try #require(line.split(separator: "To finish: ").last.map(String.init))
        #expect(command == "gh-users follow --yes --api-url https://ghe.example.com/api/v3 --retries 5 bob")
        guard case .run(let invocation) = CommandRouter().route(Array(ShellWords.split(command).dropFirst())) else {
            Issue.record("the command to finish does not parse: \(command)")
            return
        }
        #expect(
            invocation
                == Command(FollowCommand.self).invocation(
                    FollowCommand(write: WriteOptions(logins: .given([try Login(validating: "bob")]), yes: true)),
                    common))
    }

    /// The command that finishes an interrupted run is one the router reads back as the rest of the job.
    @Test func theCommandToFinishIsTheSameWriteOfWhatIsLeft() async throws {
        let github = StubTransport.acceptingWrites()
        github.fail("https://api.github.com/user/following/bob", with: .cancelled)
        let result = await run(
            WriteDeclaration(
                endpoint: .follow, name: "follow", past: "followed", progressive: "Following", confirmation: .never,
                counterpart: "unfollow", abstract: "Follow", example: "Follow one."),
            ["alice", "bob", "carol"], github: github)
        #expect(result.status == 130)
        let line = try #require(result.err.split(separator: "\n").last)
        let command = try #require(line.split(separator: "To finish: ").last.map(String.init))
        let words = ShellWords.split(command)
        #expect(words.first == "gh-users")
        guard case .run(let invocation) = CommandRouter().route(Array(words.dropFirst())) else {
            Issue.record("the command to finish does not parse: \(command)")
            return
        }
        #expect(
            invocation
                == Command(FollowCommand.self).invocation(
                    FollowCommand(
                        write: WriteOptions(
                            logins: .given([try Login(validating: "bob"), try Login(validating: "carol")]), yes: true))
                ))
    }

    /// A write is to one account, or (`PATCH /user`) to the token's own, and names the scope it needs.
    @Test func everyWriteRowNamesItsScopeAndAtMostOneAccount() throws {
        let login = try Login(validating: "octo-cat")
        for row in Endpoint.all where row.method.isWrite {
            #expect(row.scope != nil, "\(row)")
            guard !row.parameters.isEmpty else {
                #expect(row.path == "/user", "\(row)")
                continue
            }
            #expect(row.parameters == ["username"], "\(row)")
            let action = GitHubEndpoints.action(row, on: login)
            #expect(action.method.rawValue == row.method.rawValue)
            #expect(action.path == row.path("octo-cat"))
        }
    }
}

/// Ctrl-C while a write run waits out its spacing: it must stop at once, every time, with the records of what
/// was done and not done, status 130, and the command that finishes the job.
struct WriteCancellationStressTests {
    @Test func aRunCancelledWhileItWaitsStopsCleanlyEveryTime() async throws {
        for attempt in 0..<Stress.rounds(50) {
            // Cancelled during the first wait, or the second.
            let doneBefore = 1 + attempt % 2
            let github = StubTransport.acceptingWrites()
            let (entered, signal) = AsyncStream<Void>.makeStream()
            let waits = WaitCount()
            let clock = WriteClock(
                now: { .now },
                sleep: { duration in
                    guard await waits.next() == doneBefore else { return }
                    signal.yield()
                    try await Task.sleep(for: .seconds(60))
                })
            let logins = ["a", "b", "c", "d"]
            let task = Task {
                await run(declaration(.never), logins, github: github, clock: clock)
            }
            var iterator = entered.makeAsyncIterator()
            _ = await iterator.next()
            task.cancel()
            let result = await task.value
            // An uncancelled wait would end after 60 s and send the next write: more calls, and no status 130.
            #expect(result.status == 130)
            #expect(github.calls.count == doneBefore)
            let left = logins.dropFirst(doneBefore)
            #expect(
                result.out
                    == logins.prefix(doneBefore).map { "\($0)\tstar\tstarred\n" }.joined()
                    + left.map { "\($0)\tstar\tnot sent\n" }.joined())
            #expect(
                result.err.hasSuffix("To finish: gh-users star --yes \(left.joined(separator: " "))\n"), "\(result.err)"
            )
            if result.status != 130 { return }
        }
    }
}

/// How many waits a run has asked for.
private actor WaitCount {
    private var count = 0

    func next() -> Int {
        count += 1
        return count
    }
}

/// An answer of GitHub's that a write command met where no test looked (mutation round 11).
struct WriteAnswerEdgeTests {
    /// A spent rate limit stops the run at the account it refused: every later write would be refused too, and
    /// the command to finish names what is left (M11-100).
    @Test func aSpentRateLimitStopsTheRun() async {
        let github = StubTransport.acceptingWrites()
        github.refuseAsRateLimited("PUT /user/stars/b")
        let result = await run(declaration(.never), ["a", "b", "c"], github: github)
        #expect(result.status != 0)
        #expect(github.calls == ["PUT /user/stars/a", "PUT /user/stars/b"])
        #expect(result.out.hasPrefix("a\tstar\tstarred\n"), "\(result.out)")
        #expect(result.out.hasSuffix("c\tstar\tnot sent\n"), "\(result.out)")
        #expect(result.err.hasSuffix("gh-users star --yes b c\n"), "\(result.err)")
    }
}
