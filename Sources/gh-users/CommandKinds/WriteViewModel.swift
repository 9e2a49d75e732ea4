import Data
import Domain

/// The clock writes are spaced by. Injected, so that tests never sleep and see every wait that was asked for.
struct WriteClock: Sendable {
    var now: @Sendable () -> ContinuousClock.Instant
    /// Waits this long; throws when the run is cancelled.
    var sleep: @Sendable (Duration) async throws -> Void

    static let live = WriteClock(now: { .now }, sleep: { try await Task.sleep(for: $0) })
}

/// Sends a write command's requests, one account at a time and at least `spacing` apart, and keeps what became
/// of each: the counts, the failures, and what stopped the run.
///
/// Each write is `GitHubEndpoints.action(row, on: login)` sent by `GitHubRepository.perform`, past the cache.
/// The spacing counts from the end of the previous write and waits on the injected `WriteClock`. A 404 for an
/// account that exists (unless the answer showed the token holding the scope), or a 403, means the token lacks
/// the row's scope: that, a spent rate limit, a network failure or an interrupt stops the run, and the
/// coordinator prints the command that finishes the job.
final class WriteViewModel {
    /// GitHub asks integrators to leave at least a second between writes.
    static let spacing: Duration = .seconds(1)

    enum Outcome: Equatable {
        case done
        case failed(DomainError)
    }

    private let declaration: WriteDeclaration
    private let logins: [Login]
    private let github: GitHubReader
    private let clock: WriteClock
    /// How many accounts a write was sent for, or stopped at.
    private(set) var position = 0
    private(set) var successes = 0
    /// Accounts that failed while the run went on (an unknown account, a server error).
    private(set) var failures: [DomainError] = []
    /// What stopped the run: nothing more could succeed (the token, the rate limit, an interrupt).
    private(set) var stop: DomainError?
    /// The account whose write stopped the run: refused, or under way when interrupted, so not known to be done.
    private(set) var stoppedAt: Login?
    // Counted from the end of the previous write, so the gap GitHub sees is a second however the network jitters.
    private var lastEnd: ContinuousClock.Instant?

    init(declaration: WriteDeclaration, logins: [Login], github: GitHubReader, clock: WriteClock) {
        self.declaration = declaration
        self.logins = logins
        self.github = github
        self.clock = clock
    }

    /// The account to write next; nil once every one was sent, or the run stopped.
    var next: Login? { stop == nil && position < logins.count ? logins[position] : nil }
    /// The accounts no write was sent for.
    var unsent: ArraySlice<Login> { logins[position...] }

    /// Waits until `spacing` has passed since the previous write ended. False when the run was interrupted
    /// meanwhile, which stops it.
    func waitForTurn() async -> Bool {
        do {
            if let lastEnd {
                let wait = lastEnd + Self.spacing - clock.now()
                if wait > .zero { try await clock.sleep(wait) }
            }
            try Task.checkCancellation()
            return true
        } catch {
            stop = .cancelled
            return false
        }
    }

    /// Sends the write for `next`.
    func send() async -> Outcome {
        let login = logins[position]
        defer {
            lastEnd = clock.now()
            position += 1
        }
        do throws(DomainError) {
            let answer = try await github.perform(GitHubEndpoints.action(declaration.endpoint, on: login))
            // GitHub documents 304 Not modified beside 204 for these writes: there was nothing to change.
            if answer.status != 304 {
                try GitHubEndpoints.statusOnly(answer, documented: "only 204 (or 304, not modified) says it was done")
            }
            successes += 1
            return .done
        } catch {
            switch await classify(error, login) {
            case .skip(let reported):
                failures.append(reported)
                return .failed(reported)
            case .stop(let reported):
                stop = reported
                stoppedAt = login
                return .failed(reported)
            }
        }
    }

    private enum Verdict {
        /// This account failed; go on with the next.
        case skip(DomainError)
        /// Nothing more can succeed: stop here.
        case stop(DomainError)
    }

    /// A 404 is an unknown account, or (for some tokens) a missing scope: a look at the account tells them apart.
    /// Where the answer showed the token holding the scope (`.server(404…)`, from Data), an account that exists
    /// failed alone (unblocking one not blocked, say), and the run goes on.
    private func classify(_ error: DomainError, _ login: Login) async -> Verdict {
        switch error {
        case .server(404, _, _), .notFound:
            do throws(DomainError) {
                _ = try await github.user(login: login)
            } catch {
                if case .notFound = error { return .skip(error) }
                return .stop(error)
            }
            guard case .notFound(_, let requestID, _) = error else { return .skip(error) }
            return .stop(
                .unauthorized(
                    status: 404, message: "Not Found; " + scopeHint, problem: .scope(accepted: declaration.scope),
                    requestID: requestID))
        case .unauthorized(let status, let message, let problem, let requestID):
            // The scope is named only when the refusal is about scopes: a 403 for another reason (a
            // fine-grained token's missing permission, an abuse block) is GitHub's words alone.
            guard status != 401, case .scope = problem else { return .stop(error) }
            return .stop(
                .unauthorized(
                    status: status, message: message + "; " + scopeHint, problem: problem, requestID: requestID))
        case .rateLimited, .cancelled, .tokenRequired, .invalidInput, .boundReached, .graphQLBatchesRefused:
            return .stop(error)
        case .malformedResponse where error.isWebPage, .network:
            // The API URL is a web server's, or the network failed through every retry: every other write would
            // meet it too (a dead network would cost each account its retries and timeouts).
            return .stop(error)
        case .server, .malformedResponse, .notCached, .cacheUnavailable, .refused:
            return .skip(error)
        }
    }

    private var scopeHint: String { "the token needs the \(declaration.scope) scope to \(declaration.name)" }
}
