import AtomicCore
import AtomicLogger
import Domain
import Foundation

/// Routes argv, sets up what the command's kind needs, runs it, and turns its outcome into the exit status.
struct GhUsersApp: Sendable {
    let environment: AppEnvironment

    func run(_ arguments: [String]) async -> Int32 {
        var outcome: CommandOutcome
        // Once a session holds the token, its streams (stderr masking the token) carry every word after. Before,
        // stderr masks the token variables' values, which a usage error may echo (helper-353's P-1).
        var io = environment.io.maskingErrors(
            with: Redactor(secrets: ConnectionSettings.secrets(environment: environment.environment)))
        switch CommandRouter().route(arguments) {
        case .help(let request):
            outcome = write(HelpRenderer.render(request, width: helpWidth))
        case .version:
            outcome = write("gh-users \(AppEnvironment.version)\n")
        case .manual(let command):
            // SOURCE_DATE_EPOCH, as reproducible builds set it, dates the pages instead of today: whole seconds
            // since 1970, and a value that is not is refused, as the specification asks of a build.
            let text = environment.environment["SOURCE_DATE_EPOCH"] ?? ""
            let sourceDate = Self.sourceDate(text)
            if !text.isEmpty, sourceDate == nil {
                outcome = .usage(
                    .setting(
                        "invalid SOURCE_DATE_EPOCH '\(TerminalSanitizer.sanitize(String(text.prefix(40))))': give whole "
                            + "seconds since 1970, up to the year 9999"))
            } else {
                let date = sourceDate ?? environment.now()
                outcome = write(ManPageRenderer.render(command, version: AppEnvironment.version, date: date))
            }
        case .usageError(let error):
            outcome = .usage(error)
        case .run(let invocation):
            switch invocation.run {
            case .local(let command):
                let context = commandContext(
                    invocation.common, hasToken: false, tokenOrigin: TokenOrigin(), io: io, redactor: Redactor())
                outcome = await command.run(
                    LocalContext(command: context, common: invocation.common, environment: environment))
            case .github where !OutputLock.shareStdout():
                // A crawl appends to the file stdout goes to and counts what it holds: writing there as well would
                // cut into its pages and leave its state counting a length that falls inside a line.
                let shown = environment.stdoutFile.map(TerminalSanitizer.quotedPath) ?? "stdout's file"
                let message =
                    "another gh-users run is writing \(shown), the file stdout goes to: wait for it to end, or write to "
                    + "another file. Nothing was asked"
                // Not into that file with `2>&1`, among the other run's records: on the terminal, if any.
                if OutputLock.stderrSharesStdout() {
                    OutputLock.tellTerminal("gh-users: \(message)")
                } else {
                    io.writeErr("gh-users: \(message)\n")
                }
                // `follows` keeps 1 for "no": a question it could not ask is 2.
                outcome = invocation.name == FollowsCommand.spec.name ? .unanswered(.refused(message)) : .setupFailed
            case .github(let command):
                do {
                    let session = try GitHubSession.open(invocation.common, environment: environment)
                    io = session.io
                    outcome = await command.run(
                        commandContext(
                            invocation.common, hasToken: session.hasToken, tokenOrigin: session.tokenOrigin, io: io,
                            redactor: session.redactor),
                        session.reader)
                } catch {
                    outcome = .usage(error)
                }
            }
        }
        if case .usage(let error) = outcome {
            io.writeErr(error.rendered(echoing: arguments))
        }
        // A reader that left after a signal (the run blocked on a full pipe until it went) did not take what it
        // wanted: the signal stopped the run, which says so and ends 130, 143 or 129 (a review's find: it ended 0,
        // saying nothing, so `timeout` and scripts took a cut output for a whole one).
        if outcome == .outputClosed, Task.isCancelled {
            io.writeErr("gh-users: interrupted\n")
            outcome = .failed(.cancelled)
        }
        // stdout to a file is closed once a run that succeeded (a write command's too) or answered has written
        // all it will, and a failure there is said: the output is lost though every write went out
        // (`FileDescriptorSink.closeFile`). `follows` keeps 1 for "no".
        let answered = if case .answered = outcome { true } else { false }
        if answered || ExitStatus.code(for: outcome) == ExitCode.success,
            let failure = (environment.io.out as? FileDescriptorSink)?.closeFile()
        {
            io.writeErr("gh-users: \(failure.message)\n")
            outcome = answered ? .unanswered(.refused(failure.message)) : .setupFailed
        }
        return ExitStatus.code(for: outcome)
    }

    /// Help fills the terminal it is read on; anywhere else (a pager, a file) it is 80 columns, or `COLUMNS`.
    private var helpWidth: Int {
        max(40, environment.io.terminalWidth)
    }

    private func commandContext(
        _ common: CommonOptions, hasToken: Bool, tokenOrigin: TokenOrigin, io: IOStreams, redactor: Redactor
    ) -> CommandContext {
        let render = RenderContext.resolve(common, io: io, requested: common.format, now: environment.now())
        return CommandContext(
            io: io,
            render: render,
            presenter: ErrorPresenter(
                now: environment.now(), hasToken: hasToken, waitOnRateLimit: common.waitOnRateLimit,
                maxWait: common.maxWait, retries: common.retries,
                ghOnPath: !hasToken && ExecutableLookup.isOnPath("gh", path: environment.environment["PATH"]),
                redactor: redactor, tokenOrigin: tokenOrigin, clock: environment),
            common: common,
            programName: io.stderrIsTTY || environment.programNameIsChosen ? environment.programName : "gh-users",
            stdoutFile: environment.stdoutFile,
            stdoutContinues: environment.stdoutContinues,
            writeClock: environment.writeClock
        )
    }

    /// SOURCE_DATE_EPOCH's date: ASCII digits alone, at most 253402300799 (9999-12-31T23:59:59Z); nil otherwise.
    static func sourceDate(_ text: String) -> Date? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int64(text),
            seconds <= 253_402_300_799
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private func write(_ text: String) -> CommandOutcome {
        do {
            try environment.io.writeOut(text)
        } catch {
            return .writeFailed(error, io: environment.io)
        }
        return .success
    }
}

/// The presenter words a failure at the time it is met, by the environment's clock (a test's, or the system's).
extension AppEnvironment: PresentationClock {
    func time() -> Date { now() }
}
