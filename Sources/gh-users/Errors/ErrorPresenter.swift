import AtomicCore
import Domain
import Foundation

/// The one place where a failure becomes words on stderr (its status comes from `ExitStatus`). Text that came from GitHub is
/// sanitised before it is shown.
struct ErrorPresenter: Sendable {
    let now: Date
    let hasToken: Bool

    struct Presentation: Equatable {
        let message: String
        let exitCode: Int32

        init(message: String, for error: DomainError) {
            self.message = message
            self.exitCode = ExitStatus.code(for: error)
        }
    }

    func present(_ error: DomainError) -> Presentation {
        switch error {
        case .invalidInput(let message):
            return Presentation(message: "Error: \(message)\n", for: error)
        case .notFound(let resource):
            return Presentation(
                message: "gh-users: no \(clean(resource)) (HTTP 404)\n", for: error)
        case .unauthorized(let status, let message):
            let hint =
                status == 401
                ? (hasToken
                    ? "The token was refused: check GH_TOKEN or GITHUB_TOKEN; it may be expired or revoked."
                    : "This needs a token: set GH_TOKEN or GITHUB_TOKEN.")
                : "The token may lack a scope or access to this resource."
            return Presentation(
                message: "gh-users: authentication failed (HTTP \(status): \(clean(message)))\n\(hint)\n", for: error)
        case .tokenRequired(let command):
            return Presentation(
                message:
                    "gh-users: \(command) needs a token: set GH_TOKEN or GITHUB_TOKEN, or give --token-file PATH\n",
                for: error)
        case .rateLimited(let resetAt, let message):
            var text = "gh-users: " + rateLimitHeadline(clean(message))
            if let resetAt {
                let wait = DurationText.describe(seconds: resetAt.timeIntervalSince(now))
                text += "\nIt resets at \(localTime(resetAt)), in \(wait)."
            }
            text += "\nAdd --wait-on-rate-limit to wait for the reset and carry on."
            if !hasToken { text += "\nRequests without a token get 60 an hour: set GH_TOKEN for 5,000." }
            return Presentation(message: text + "\n", for: error)
        case .network(let detail):
            // Data may add a line that says what to check (a CA bundle, a proxy); each line is cleaned alone.
            let lines = detail.split(separator: "\n", omittingEmptySubsequences: false).map { clean(String($0)) }
            return Presentation(message: "gh-users: network error: " + lines.joined(separator: "\n") + "\n", for: error)
        case .server(let status, let message):
            return Presentation(
                message: "gh-users: GitHub answered HTTP \(status): \(clean(message))\n", for: error)
        case .malformedResponse(let endpoint, let detail):
            return Presentation(
                message: "gh-users: malformed response from \(clean(endpoint)): \(clean(detail))\n", for: error)
        case .notCached(let resource):
            return Presentation(
                message: "gh-users: \(clean(resource)) is not in the cache, and --offline keeps off the network\n",
                for: error)
        case .cacheUnavailable(let detail):
            return Presentation(message: "gh-users: cache: \(clean(detail))\n", for: error)
        case .cancelled:
            return Presentation(message: "gh-users: interrupted\n", for: error)
        case .boundReached(let detail):
            return Presentation(message: "gh-users: \(detail)\n", for: error)
        }
    }

    /// GitHub's own words when they say what happened ("API rate limit exceeded for 127.0.0.1. …", "You have
    /// exceeded a secondary rate limit. …"), once; ours around them when they do not (a proxy's "Forbidden").
    private func rateLimitHeadline(_ message: String) -> String {
        message.lowercased().contains("rate limit") ? message : "API rate limit exceeded (\(message))"
    }

    /// GitHub's messages are data, not trusted text: keep them to one printable line of sane length.
    private func clean(_ text: String) -> String {
        DisplayWidth.truncate(TerminalSanitizer.sanitize(text), toWidth: 300)
    }

    /// The time alone when it is today; with the date when it is not, or "10:42:07" would mislead.
    private func localTime(_ date: Date) -> String {
        let sameDay = Calendar.current.isDate(date, inSameDayAs: now)
        return date.formatted(date: sameDay ? .omitted : .abbreviated, time: .standard)
    }
}
