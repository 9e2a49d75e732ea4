import AtomicCore
import Domain

/// `show`'s output as the lookups come in, in the order asked: each profile is written as soon as it and those
/// before it are in, so the run holds a window of profiles rather than all of them, and a reader sees the first
/// at once. What failed is said after the output, and the run summed up, as `ResourceLoad.write` does for a
/// command that writes its resources at once.
///
/// A table of `--fields` is the exception: its columns are as wide as its widest cell, so its rows are held and
/// written at the end, as before.
struct ProfileStream {
    private let context: CommandContext
    private let asArray: Bool
    /// A document even when no profile is found (`[]`, csv's header).
    private let standsForNone: Bool
    private var writer: RecordStreamWriter<User>
    /// The rows of a `--fields` table, held for its widths.
    private var held: [User] = []
    /// Each failure, with the account it was for as the user named it.
    private var failed: [(error: DomainError, account: String)] = []
    private var failures: [DomainError] { failed.map(\.error) }
    /// The results taken, found or not.
    private(set) var taken = 0
    private(set) var shown = 0
    /// What stopped the lookups: a spent rate limit, or a token GitHub refused (`Result.stopsLookups`); and how
    /// many accounts it left unshown, the one it stopped at among them.
    private(set) var lookupsStopped: DomainError?
    private(set) var unshownByStop = 0
    /// Why the output stopped early: its `--fields` refused, or its reader gone.
    private var stopped: CommandOutcome?

    init(_ context: CommandContext, asArray: Bool, standsForNone: Bool) {
        self.context = context
        self.asArray = asArray
        self.standsForNone = standsForNone
        writer = RecordStreamWriter(context: context.render, columns: ShowUsersRenderer.columns)
    }

    private var holdsRows: Bool { context.render.format == .table && context.render.fields != nil }

    /// The next result in the order asked, for `account` (a login, or `#` and an id): a profile written, a failure
    /// kept to be said at the end. False once nothing more is wanted: the first profile showed every `--fields`
    /// path wrong, or the output is gone.
    mutating func take(_ result: Result<User, DomainError>, for account: String) -> Bool {
        taken += 1
        let user: User
        switch result {
        case .failure(let error):
            failed.append((error, account))
            if let stop = result.stopsLookups {
                lookupsStopped = lookupsStopped ?? stop
                unshownByStop += 1
            }
            return true
        case .success(let found):
            user = found
        }
        if shown == 0, let refusal = ResourceReport.checkFields(of: user, refusing: true, context) {
            stopped = .failed(refusal)
            return false
        }
        shown += 1
        let output: [UInt8]
        switch context.render.format {
        case .json where !asArray:
            output = ShowUsersRenderer.render([user], asArray: false, context: context.render)
        case .table where context.render.fields == nil:
            output = Array(((shown > 1 ? "\n" : "") + ShowUsersRenderer.profile(user, context: context.render)).utf8)
        case _ where holdsRows:
            held.append(user)
            return true
        default:
            output = writer.render([user])
        }
        return write(output)
    }

    /// Closes the document (a JSON array's end, csv's header when nothing was found, a held table), says each
    /// failure and, on a terminal, `closingLine`, and sums the run up.
    mutating func finish(closingLine: String? = nil) -> CommandOutcome {
        let failures = failures
        if stopped == nil, shown > 0 || failures.isEmpty || standsForNone {
            let rest = holdsRows ? writer.render(held) : []
            held = []
            let closing = context.render.format == .json && !asArray ? [] : writer.finish(completed: true)
            _ = write(rest + closing)
        }
        sayFailures()
        switch stopped {
        case .failed?:
            return stopped ?? .success
        case let outcome?:
            // A reader that left (`| head`) does not make the lookups that failed a success.
            guard outcome == .outputClosed, !failures.isEmpty else { return outcome }
            return .partial(failures: failures, successes: shown)
        case nil:
            if context.io.stderrIsTTY, let line = closingLine { context.io.writeErr(line) }
            return failures.isEmpty ? .success : .partial(failures: failures, successes: shown)
        }
    }

    /// Each failure on stderr. With more than one account asked, a failure whose words name no account (a
    /// network failure, a 500, a 403 for one organization's single sign-on) is said once for all alike, naming
    /// up to five of the accounts it met (a review's two hung logins gave two identical lines that named neither;
    /// helper-317's 403 and 500 named none). "no user 'nf1'" and a malformed answer's path name their own, and
    /// what stopped the lookups is summed up by `ShowUsersCommand` instead.
    private func sayFailures() {
        guard taken > 1 else { return ResourceReport.say(failures, to: context) }
        let presenter = context.presenter.heldAtNow()
        var order: [(presentation: ErrorPresenter.Presentation, names: Bool)] = []
        var accounts: [String: [String]] = [:]
        for (error, account) in failed {
            let presentation = presenter.present(error)
            let key = presentation.withoutRequestID
            if accounts[key] == nil { order.append((presentation, !Self.namesItsAccount(error))) }
            accounts[key, default: []].append(account)
        }
        for (presentation, names) in order {
            var message = presentation.message
            if names, let end = message.firstIndex(of: "\n") {
                let met = accounts[presentation.withoutRequestID] ?? []
                let shown =
                    met.prefix(5).map { "'\(TerminalSanitizer.sanitize($0))'" }.joined(separator: ", ")
                    + (met.count > 5 ? " and \(met.count - 5) more" : "")
                message.insert(contentsOf: " (looking up \(shown))", at: end)
            }
            context.io.writeErr(message)
        }
    }

    private static func namesItsAccount(_ error: DomainError) -> Bool {
        switch error {
        case .notFound, .notCached, .invalidInput, .cancelled: return true
        // A REST answer's path names its account; a GraphQL batch's `POST /graphql` does not (helper-321).
        case .malformedResponse(let endpoint, _, _): return !endpoint.hasPrefix("POST ")
        default: return Result<User, DomainError>.failure(error).stopsLookups != nil
        }
    }

    private mutating func write(_ output: [UInt8]) -> Bool {
        guard !output.isEmpty else { return true }
        do {
            try context.io.out.write(output)
            return true
        } catch {
            stopped = CommandOutcome.writeFailed(error, io: context.io)
            return false
        }
    }
}
