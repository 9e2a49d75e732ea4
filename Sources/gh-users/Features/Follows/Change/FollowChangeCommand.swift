import AtomicCore
import Data
import Domain
import JSONBytes

/// `gh-users follow LOGIN...` and `gh-users unfollow LOGIN...`.
struct FollowChangeOptions: Sendable, Equatable {
    var logins: LoginInput
    var dryRun = false
    var yes = false
}

/// Follows or unfollows accounts one at a time, at least a second apart as GitHub asks of writes, and reports
/// one record per account (login, action, outcome). A dry run prints each request it would send and sends none.
enum FollowChangeCommand {
    enum Verb: String, Sendable {
        case follow
        case unfollow

        var past: String { self == .follow ? "followed" : "unfollowed" }
        var progressive: String { self == .follow ? "Following" : "Unfollowing" }
    }

    /// GitHub asks integrators to leave at least a second between writes.
    static let spacing: Duration = .seconds(1)

    static let dryRun = OptionSpec(
        "dry-run", help: "Print each request that would be sent (method and URL) and send none.")
    /// `gh` asks only before what cannot simply be undone, so follow never asks; it takes --yes all the same,
    /// so one command line serves both (the "To finish" hints carry it).
    static func yes(_ verb: Verb) -> OptionSpec {
        OptionSpec(
            "yes", short: "y",
            help: verb == .unfollow
                ? "Do not ask before unfollowing several accounts (needed when there is no terminal to ask on)."
                : "Accepted for symmetry with unfollow; follow never asks.")
    }

    static let follow = declaration(.follow)
    static let unfollow = declaration(.unfollow)

    private static func declaration(_ verb: Verb) -> Command<FollowChangeOptions> {
        let name = verb.rawValue
        let endpoint = verb == .follow ? "PUT" : "DELETE"
        return Command(
            spec: CommandSpec(
                name: name,
                abstract: verb == .follow
                    ? "Follow accounts as the token's user (PUT /user/following/{username})."
                    : "Stop following accounts as the token's user (DELETE /user/following/{username}).",
                usage: "gh-users \(name) LOGIN... | - [--dry-run] [--yes] [options]",
                discussion: """
                    - reads the logins from stdin, one a line (blank lines and # comments are skipped), so one
                    gh-users can feed another. Writes go one at a time, at least a second apart, as GitHub asks;
                    a secondary rate limit is waited out. Each account gets one record: its login, the action and
                    the outcome. The exit status is 0 when every one succeeded, 3 when every account was unknown,
                    and 1 for a mix. A token without the user:follow scope stops at the first refusal with status 4.
                    Ctrl-C stops between writes with status 130 and says what is left to do.\(verb == .unfollow ? """


                        Unfollowing more than one account lists them and asks for confirmation on the terminal
                        (even when the logins come from stdin); without a terminal it needs --yes, and without
                        --yes nothing is sent.
                        """ : " follow never asks for confirmation.")
                    """,
                arguments: [("LOGIN", "An account to \(name); - reads them from stdin.")],
                options: [dryRun, yes(verb)],
                examples: [
                    ("gh-users \(name) octocat", verb == .follow ? "Follow one account." : "Stop following one."),
                    ("gh-users \(name) --dry-run alice bob", "Print the \(endpoint) requests that would be sent."),
                    verb == .follow
                        ? ("gh-users follow - < logins.txt", "Follow every login in a file.")
                        : (
                            "gh-users following --all --not-following-back --format tsv --fields login | gh-users unfollow --yes -",
                            "Stop following everyone who does not follow you back."
                        ),
                ],
                fields: ["login", "action", "outcome"]
            ),
            parse: { parsed, spec throws(UsageError) in
                FollowChangeOptions(
                    logins: try LoginInput.parse(parsed.positionals, spec: spec),
                    dryRun: parsed.has(dryRun),
                    yes: parsed.has(yes(verb))
                )
            },
            action: .github { options, context, github in
                await FollowChange(verb: verb, options: options, context: context, github: github).run()
            }
        )
    }
}

/// One run of `follow` or `unfollow`.
private struct FollowChange {
    let verb: FollowChangeCommand.Verb
    let options: FollowChangeOptions
    let context: CommandContext
    let github: any GitHubReader

    private var io: IOStreams { context.io }

    func run() async -> CommandOutcome {
        let logins: [Login]
        do throws(DomainError) {
            logins = try options.logins.resolve(io)
        } catch {
            io.writeErr(context.presenter.present(error).message)
            return .failed(error)
        }
        let actions = logins.map { verb == .follow ? GitHubEndpoints.follow($0) : GitHubEndpoints.unfollow($0) }
        if options.dryRun {
            do {
                try io.writeOut(actions.map { github.describe($0) + "\n" }.joined())
            } catch {
                return .writeFailed(error, io: io)
            }
            return .success
        }
        if let refusal = confirmation(logins) { return refusal }
        guard context.presenter.hasToken else {
            let error = DomainError.tokenRequired(command: verb.rawValue)
            io.writeErr(context.presenter.present(error).message)
            return .failed(error)
        }
        return await send(actions, logins)
    }

    /// nil to go on; an outcome when the user said no, or could not be asked. As `gh` does, the question goes to
    /// the terminal even when stdin carries the logins.
    private func confirmation(_ logins: [Login]) -> CommandOutcome? {
        let count = logins.count
        guard verb == .unfollow, count > 1, !options.yes else { return nil }
        guard io.canAsk, io.stderrIsTTY else {
            return .usage(
                UsageError(
                    message: "unfollowing \(count) accounts needs --yes when there is no terminal to ask on; "
                        + "nothing was sent",
                    command: FollowChangeCommand.unfollow.spec))
        }
        let shown = logins.prefix(20).map(\.value).joined(separator: ", ")
        io.writeErr("To unfollow: \(shown)\(count > 20 ? " and \(count - 20) more" : "")\n")
        io.writeErr("Unfollow \(count) accounts? [y/N] ")
        let answer = io.readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else {
            io.writeErr("gh-users: not confirmed; nothing was sent\n")
            return .setupFailed
        }
        return nil
    }

    private func send(_ actions: [Action], _ logins: [Login]) async -> CommandOutcome {
        var writer = RecordStreamWriter(context: context.render, columns: columns, raw: { $0 })
        let progress = ProgressLine(io: io, noun: "accounts")
        var failures: [DomainError] = []
        var successes = 0
        var stop: DomainError?
        // The write under way when the run was interrupted: whether GitHub got it is unknown, so it is to finish.
        var inFlight: Login?
        // Counted from the end of the previous write, so the gap GitHub sees is a second however the network jitters.
        var lastEnd: ContinuousClock.Instant?
        var index = 0
        while index < actions.count, stop == nil {
            let login = logins[index]
            if let lastEnd {
                do {
                    try await Task.sleep(until: lastEnd + FollowChangeCommand.spacing, clock: .continuous)
                } catch {
                    stop = .cancelled
                    break
                }
            }
            progress.show("\(verb.progressive) \(index + 1) of \(actions.count): \(login.value)")
            let outcome: String
            do throws(DomainError) {
                try await github.perform(actions[index])
                successes += 1
                outcome = verb.past
            } catch {
                if case .cancelled = error { inFlight = login }
                switch await classify(error, login) {
                case .skip(let reported):
                    failures.append(reported)
                    outcome = describe(reported)
                case .stop(let reported):
                    stop = reported
                    outcome = describe(reported)
                }
            }
            lastEnd = .now
            progress.clear()
            if let failed = write(&writer, login, outcome) { return failed }
            index += 1
        }
        progress.clear()
        let unsent = logins[index...]
        for login in unsent {
            if let failed = write(&writer, login, "not sent") { return failed }
        }
        do {
            try io.out.write(writer.finish(completed: true))
        } catch let failure as OutputWriteError {
            return .writeFailed(failure, io: io)
        } catch {}
        guard let stop else { return .partial(failures: failures, successes: successes) }
        io.writeErr(context.presenter.present(stop).message)
        let toFinish = (inFlight.map { [$0] } ?? []) + unsent
        if !toFinish.isEmpty {
            let interrupted = inFlight.map { ", \($0.value) interrupted in flight" } ?? ""
            io.writeErr(
                "gh-users: \(successes) done, \(unsent.count) not sent\(interrupted). To finish: "
                    + ShellWord.line([context.programName, verb.rawValue, "--yes"] + toFinish.map(\.value)) + "\n")
        }
        return .failed(stop)
    }

    private enum Verdict {
        /// This account failed; go on with the next.
        case skip(DomainError)
        /// Nothing more can succeed (the token, the rate limit, an interrupt): stop here.
        case stop(DomainError)
    }

    /// A 404 is an unknown account, or (for some tokens) a missing scope: a look at the account tells them apart.
    private func classify(_ error: DomainError, _ login: Login) async -> Verdict {
        switch error {
        case .notFound:
            do throws(DomainError) {
                _ = try await github.user(login: login)
            } catch {
                if case .notFound = error { return .skip(error) }
                return .stop(error)
            }
            return .stop(.unauthorized(status: 404, message: scopeHint, problem: .scope(accepted: "user:follow")))
        case .unauthorized(let status, let message, let problem, let requestID):
            return .stop(
                status == 401
                    ? error
                    : .unauthorized(
                        status: status, message: message + "; " + scopeHint, problem: problem, requestID: requestID))
        case .rateLimited, .cancelled, .tokenRequired, .invalidInput:
            return .stop(error)
        case .network, .server, .malformedResponse, .notCached, .cacheUnavailable, .refused:
            return .skip(error)
        case .boundReached:
            return .stop(error)
        }
    }

    private var scopeHint: String { "the token needs the user:follow scope to \(verb.rawValue)" }

    private func describe(_ error: DomainError) -> String {
        switch error {
        case .notFound: return "no such account"
        case .unauthorized(let status, _, _, _):
            return status == 401
                ? "refused: the token was not accepted" : "refused: the token lacks the user:follow scope"
        case .rateLimited: return "rate limited"
        case .cancelled: return "interrupted"
        default:
            return "failed: " + context.presenter.present(error).message.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    private var columns: [Column<RawJSON>] {
        ["login", "action", "outcome"].map { key in
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
            .init("login", .string(login.value)), .init("action", .string(verb.rawValue)),
            .init("outcome", .string(outcome)),
        ])
        do {
            try io.out.write(writer.render([RawJSON(bytes: record.bytes)]))
            return nil
        } catch {
            return .writeFailed(error, io: io)
        }
    }
}
