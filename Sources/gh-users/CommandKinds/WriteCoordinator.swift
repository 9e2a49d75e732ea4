import AtomicCore
import Data
import Domain
import JSONBytes

/// One run of a write command: reads the logins, prints a dry run or asks as the declaration's rule says,
/// then has the view model send the writes and writes one record per account (login, action, outcome). When
/// the run stops early, it says what is left and the command that finishes the job.
///
/// Before anything is sent it drops a login given twice, refuses `--offline` (exit 64), a run without a token
/// (exit 4) and a stdout closed from the start (exit 1), and asks on the terminal even when stdin carries the
/// logins (without a terminal, a question needs `--yes`: exit 64). Before each write it asks stdout whether its
/// reader has left (`OutputSink.readerHasLeft`), so `| head -1` stops the run before a write whose record
/// would have nowhere to go.
struct WriteCoordinator {
    let declaration: WriteDeclaration
    let options: WriteOptions
    let context: CommandContext
    let github: GitHubReader

    private var io: IOStreams { context.io }

    func run() async -> CommandOutcome {
        var logins: [Login]
        do throws(DomainError) {
            logins = try options.logins.resolve(io)
        } catch {
            io.writeErr(context.presenter.present(error).message)
            return .failed(error)
        }
        // Logins are case-insensitive: an account given twice is written once.
        var seen: Set<String> = []
        logins = logins.filter { seen.insert($0.value.lowercased()).inserted }
        if options.dryRun {
            if logins.isEmpty { io.writeErr(LoginInput.noLoginsNote) }
            let actions = logins.map { ($0, GitHubEndpoints.action(declaration.endpoint, on: $0)) }
            do {
                // The request lines, or in the format asked for (or with --fields chosen), a record each.
                guard context.common.format != nil || context.render.fields != nil else {
                    try io.writeOut(actions.map { $0.1.dryRun(github) }.joined())
                    return .success
                }
                var writer = RecordStreamWriter(context: context.render, columns: Action.dryRunColumns(after: columns))
                let records = actions.map { $1.dryRunRecord(github, account: ($0, declaration.name)) }
                try io.out.write(writer.render(records) + writer.finish(completed: true))
            } catch {
                return .writeFailed(error, io: io)
            }
            return .success
        }
        if context.common.cacheMode == .offline {
            return .usage(.offlineWrite(declaration.name, shows: "the requests", spec: declaration.spec))
        }
        // A closed stdout (`>&-`) is found before the first write, not from its record.
        guard io.out.isOpen else {
            io.writeErr(
                "gh-users: stdout is closed, so the record of each account would have nowhere to go; nothing was "
                    + "sent\n")
            return .setupFailed
        }
        // `-` with nothing on stdin (everyone already follows back, say), once the checks every write makes have
        // passed, so the status does not depend on the data: nothing to do, the output keeps its shape (`[]`).
        if logins.isEmpty {
            guard context.presenter.hasToken else { return TokenRequirement(command: declaration.name).refuse(context) }
            io.writeErr(LoginInput.noLoginsNote)
            let writer = RecordStreamWriter(context: context.render, columns: columns)
            do {
                try io.out.write(writer.finish(completed: true))
            } catch {
                return .writeFailed(error, io: io)
            }
            return .success
        }
        // Without a token nothing can be sent: say so before asking to confirm what could not happen.
        guard context.presenter.hasToken else {
            return TokenRequirement(command: declaration.name).refuse(context)
        }
        if let refusal = confirmation(logins) { return refusal }
        return await send(
            WriteViewModel(declaration: declaration, logins: logins, github: github, clock: context.writeClock))
    }

    /// nil to go on; an outcome when the user said no, or could not be asked. As `gh` does, the question goes to
    /// the terminal even when stdin carries the logins.
    private func confirmation(_ logins: [Login]) -> CommandOutcome? {
        let count = logins.count
        guard declaration.confirmation.asks(about: count), !options.yes else { return nil }
        let accounts = Counted.text(count, "account")
        guard io.canAsk, io.stderrIsTTY else {
            // Said as it is: with stderr sent to a log (`2>> log`), a person at the terminal saw a refusal that
            // named no terminal missing, and only in the log.
            let when =
                io.terminalIsDumb
                ? "TERM=dumb, which counts as no terminal to ask on"
                : io.canAsk ? "stderr, where the question goes, is not a terminal" : "there is no terminal to ask on"
            return .usage(
                UsageError(
                    message: "\(declaration.progressive.lowercased()) \(accounts) needs --yes when \(when); nothing "
                        + "was sent",
                    command: declaration.spec))
        }
        let shown = logins.prefix(20).map(\.value).joined(separator: ", ")
        io.writeErr("To \(declaration.name): \(shown)\(count > 20 ? " and \(count - 20) more" : "")\n")
        io.writeErr("\(declaration.name.prefix(1).uppercased() + declaration.name.dropFirst()) \(accounts)? [y/N] ")
        let typed = io.readLine()
        // Ctrl-D ends the input with no newline: the refusal went on the question's line (helper-360).
        if typed == nil { io.writeErr("\n") }
        let answer = typed?.trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else {
            io.writeErr("gh-users: not confirmed; nothing was sent\n")
            return .setupFailed
        }
        return nil
    }

    private func send(_ viewModel: WriteViewModel) async -> CommandOutcome {
        var writer = RecordStreamWriter(context: context.render, columns: columns)
        let progress = ProgressLine(io: io, noun: "accounts")
        let count = viewModel.unsent.count
        while let login = viewModel.next, await viewModel.waitForTurn() {
            // A reader that left (`| head -1`) is seen before the next write is sent, not after: a write to GitHub
            // cannot be taken back, and its record would have nowhere to go.
            if io.out.readerHasLeft { return stopped(.outputClosed, viewModel) }
            progress.show("\(declaration.progressive) \(viewModel.position + 1) of \(count): \(login.value)")
            let outcome = await viewModel.send()
            progress.clear()
            if case .failed(let error) = outcome, viewModel.stop == nil {
                io.writeErr(said(error, of: login))
            }
            if let failed = write(&writer, login, describe(outcome)) { return stopped(failed, viewModel) }
        }
        let unsent = viewModel.unsent
        for login in unsent {
            if let failed = write(&writer, login, "not sent") { return stopped(failed, viewModel) }
        }
        do {
            try io.out.write(writer.finish(completed: true))
        } catch let failure as OutputWriteError {
            return stopped(.writeFailed(failure, io: io), viewModel)
        } catch {}
        guard let stop = viewModel.stop else {
            return .partial(failures: viewModel.failures, successes: viewModel.successes)
        }
        io.writeErr(context.presenter.present(stop).message)
        let toFinish = (viewModel.stoppedAt.map { [$0] } ?? []) + unsent
        if !toFinish.isEmpty {
            let stoppedAt = viewModel.stoppedAt.map { login in
                ", \(login.value) " + (stop == .cancelled ? "interrupted in flight" : describe(.failed(stop)))
            }
            // A refused token refuses the rest alike: the command that finishes needs another (helper-341's M6).
            let needs =
                switch stop {
                case .unauthorized(401, _, _, _), .unauthorized(_, _, .expired, _): "a token GitHub takes"
                case .unauthorized(_, _, .scope, _): "a token with the \(declaration.scope) scope"
                default: ""
                }
            sayWhatIsLeft(viewModel, toFinish, after: stoppedAt ?? "", needs: needs)
        }
        return .failed(stop)
    }

    /// The run ends because stdout failed or closed: what was sent stays sent, so say what is left, on stderr,
    /// or with nothing left that the writes were made all the same (exit 1 alone read as "not blocked"). Accounts
    /// left unsent are work not done, whoever stopped it: a reader that left (`| grep -q`, `| true`) is exit 1
    /// then, not a quiet success.
    private func stopped(_ outcome: CommandOutcome, _ viewModel: WriteViewModel) -> CommandOutcome {
        let left = viewModel.unsent
        if !left.isEmpty {
            sayWhatIsLeft(viewModel, Array(left), after: "; output stopped")
            return outcome == .outputClosed ? .setupFailed : outcome
        } else if viewModel.successes > 0 {
            io.writeErr("gh-users: \(viewModel.successes) done all the same; output stopped\n")
        }
        return outcome
    }

    /// An account's failure for stderr, naming the account and the write (`gh-users: follow bob: GitHub answered
    /// HTTP 500…`), so that a script whose stdout went to a file can tell which line is whose. An unknown
    /// account's message names it already.
    private func said(_ error: DomainError, of login: Login) -> String {
        let message = context.presenter.present(error).message
        guard !error.isNotFound, message.hasPrefix("gh-users: ") else { return message }
        return "gh-users: \(declaration.name) \(login.value): " + message.dropFirst("gh-users: ".count)
    }

    private func sayWhatIsLeft(
        _ viewModel: WriteViewModel, _ toFinish: [Login], after detail: String, needs: String = ""
    ) {
        io.writeErr(
            "gh-users: \(viewModel.successes) done, \(viewModel.unsent.count) not sent\(detail). "
                + (needs.isEmpty ? "To finish: " : "To finish, with \(needs): ")
                + ShellWord.line(
                    [context.programName, declaration.name] + declaration.options.arguments(WriteOptions(yes: true))
                        + CommonOptions.arguments(context.common)
                        + toFinish.map(\.value))
                + "\n" + (CommonOptions.tokenFileNote(context.common).map { $0 + "\n" } ?? ""))
    }

    /// A record's outcome: the declaration's past tense, or what went wrong, in a few words.
    private func describe(_ outcome: WriteViewModel.Outcome) -> String {
        guard case .failed(let error) = outcome else { return declaration.past }
        switch error {
        case .notFound: return "no such account"
        case .unauthorized(401, _, _, _): return "refused: the token was not accepted"
        case .unauthorized(_, _, .scope, _): return "refused: the token lacks the \(declaration.scope) scope"
        case .rateLimited: return "rate limited"
        case .cancelled: return "interrupted"
        default:
            // One line for a record: the message without the program's name, its request id (said on stderr) or
            // anything after a line break.
            var line = context.presenter.present(error).withoutRequestID
            if line.hasPrefix("gh-users: ") { line.removeFirst("gh-users: ".count) }
            return "failed: " + (line.split(separator: "\n").first.map(String.init) ?? "")
        }
    }

    private var columns: [Column<RawJSON>] {
        WriteDeclaration.fields.map { key in
            Column(key.uppercased(), key: key, shrink: key == "outcome" ? .first : nil) {
                JSONText.text(of: key, in: $0.bytes)
            }
        }
    }

    /// Writes one record; nil once written, else how the run ends.
    private func write(_ writer: inout RecordStreamWriter<RawJSON>, _ login: Login, _ outcome: String)
        -> CommandOutcome?
    {
        let record = JSONValue.object([
            .init("login", .string(login.value)), .init("action", .string(declaration.name)),
            .init("outcome", .string(outcome)),
        ])
        do {
            try io.out.write(writer.render([RawJSON(bytes: record.bytes)], moreToCome: true))
            return nil
        } catch {
            return .writeFailed(error, io: io)
        }
    }
}

extension UsageError {
    /// A write run with `--offline`, which keeps off the network it must reach: nothing is sent (exit 64), and
    /// `--dry-run` shows `what` would be.
    static func offlineWrite(_ command: String, shows what: String, spec: CommandSpec) -> UsageError {
        UsageError(
            message: "--offline keeps off the network, and \(command) must reach GitHub; nothing was sent (--dry-run "
                + "shows \(what))",
            command: spec)
    }
}
