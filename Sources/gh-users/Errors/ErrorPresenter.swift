import AtomicCore
import AtomicLogger
import Domain
import Foundation
import Networking

/// The one place where a failure becomes words on stderr (its status comes from `ExitStatus`). Text that came from GitHub is
/// sanitised before it is shown, with the token masked.
struct ErrorPresenter: Sendable {
    /// When the presenter was made; the time a failure is worded at when there is no `clock`.
    let now: Date
    let hasToken: Bool
    /// `--wait-on-rate-limit` and the `--max-wait` in force (seconds), so a hint never asks for a flag that was
    /// given, and says when the wait was longer than allowed.
    var waitOnRateLimit = false
    var maxWait = CommonOptions.defaultMaxWait(waitOnRateLimit: false)
    /// A `--split` search waits out the search limit itself: its hint asks for a long enough `--max-wait` alone.
    var waitsOutSearchLimit = false
    /// `--retries`: how often a secondary limit was waited out before the run gave up.
    var retries = 3
    /// GitHub CLI is on PATH: a missing token's message says how to lend gh-users the one gh is logged in with.
    var ghOnPath = false
    /// The session's, holding the token: a server that echoes it gets `***` here, in a write's records too.
    var redactor = Redactor()
    /// Where the token came from, and the variables one is looked for in: the messages name them.
    var tokenOrigin = TokenOrigin()
    /// The time a failure is worded at: a rate limit met an hour into a crawl says "in 5m" from then, and which
    /// option stopped a wait, by the wait left then, not by one counted from the start of the run.
    var clock: (any PresentationClock)?

    private var current: Date { clock?.time() ?? now }

    /// This presenter held at now: a failure every lookup of a report met reads the same, and is said once.
    func heldAtNow() -> ErrorPresenter {
        var held = self
        held.clock = HeldClock(date: current)
        return held
    }

    private struct HeldClock: PresentationClock {
        let date: Date
        func time() -> Date { date }
    }

    /// The way to the token `gh` holds; gh-users never runs gh itself.
    static let ghTokenHint = "Logged in with gh? Then: export GH_TOKEN=$(gh auth token)"

    struct Presentation: Equatable {
        let message: String
        let exitCode: Int32
        /// The message without its request-id line: the same failure met by several lookups is said once.
        let withoutRequestID: String

        init(message: String, for error: DomainError) {
            self.message = message
            self.exitCode = ExitStatus.code(for: error)
            self.withoutRequestID = message
        }

        /// GitHub Support asks for the answer's `x-github-request-id`: it ends every failure GitHub answered.
        fileprivate init(_ presentation: Presentation, requestIDLine: String) {
            message = presentation.message + requestIDLine
            exitCode = presentation.exitCode
            withoutRequestID = presentation.message
        }
    }

    func present(_ error: DomainError) -> Presentation {
        let presentation = describe(error)
        guard let requestID = error.requestID else { return presentation }
        return Presentation(presentation, requestIDLine: "request id: \(clean(requestID))\n")
    }

    private func describe(_ error: DomainError) -> Presentation {
        switch error {
        case .invalidInput(let message):
            return Presentation(message: "Error: \(message)\n", for: error)
        case .notFound(let resource, _, let graphQL):
            return Presentation(
                message: "gh-users: no \(clean(resource)) (\(graphQL ? "GraphQL: not found" : "HTTP 404"))\n",
                for: error)
        case .unauthorized(let status, let message, let problem, _):
            let hint: String
            switch (status, problem) {
            case (_, .expired(let date)) where hasToken:
                hint =
                    "The token expired at \(LocalTime.text(date, date: true)), GitHub says: make a new one"
                    + (tokenOrigin.source.map { " for \($0)" } ?? "") + "."
            case (401, _), (_, .expired):
                hint =
                    hasToken
                    ? "The token was refused: check \(tokenOrigin.source ?? "it"); it may be expired or revoked."
                    : "This needs a token: set \(tokenOrigin.variablesText)." + ghHint
            case (404, .scope(let accepted)):
                // GitHub names no scope with a 404 (it hides what the token may not see): the scope is the row's.
                hint =
                    "The token may lack a scope: GitHub answers 404 for what a token may not see"
                    + (accepted.map { " (this needs: \(clean($0)))" } ?? "") + "."
            case (_, .hidden):
                hint = "The token has a scope GitHub accepts here: its account lacks the role or access it needs."
            case (_, .scope(let accepted)):
                hint =
                    "The token may lack a scope or access to this resource"
                    + (accepted.map { " (GitHub accepts: \(clean($0)))" } ?? "") + "."
            case (_, .singleSignOn(let url)):
                hint =
                    "An organization's SAML single sign-on wants the token authorized"
                    + (url.map { ": \(clean($0))" } ?? " (GitHub settings, Personal access tokens, Configure SSO).")
            case (_, .unseenTeam(let team, let scope, let graphQL)):
                // Not a token problem only: a mistyped slug is this 404 too, and only its owners see every team.
                let answer = graphQL ? "GraphQL: not found" : "HTTP \(status)"
                return Presentation(
                    message: "gh-users: no team '\(clean(team.slug))' in \(clean(team.organization.value)) that the "
                        + "token can see (\(answer)): it does not exist, or it is secret and the token's account "
                        + "is not in it" + (scope.map { " (this needs: \(clean($0)))" } ?? "") + "\n",
                    for: error)
            case (_, .withheld(let repository, let list)):
                // GitHub's rule, not a failure: for stars, where a day's stars can be had instead (watchers have no
                // such count). gh-users's words, outside the status, as they are not GitHub's message.
                let instead = list == "stargazers" ? "; gh-users star-history \(repository) gives its stars a day" : ""
                return Presentation(
                    message: "gh-users: GitHub refused the request (HTTP \(status)): " + clean(message + instead)
                        + "\n",
                    for: error)
            case (_, .unstated):
                // GitHub's message says what it refused (no User-Agent, an abuse block): nothing about scopes.
                return Presentation(
                    message: "gh-users: GitHub refused the request (HTTP \(status): \(clean(message)))\n", for: error)
            }
            // 401 or an expired token failed authentication; any other refusal took the token (helper-341).
            let failed = status == 401 || problem.isExpiry
            return Presentation(
                message:
                    "gh-users: \(failed ? "authentication failed" : "GitHub refused the request") (HTTP \(status): "
                    + "\(clean(message)))\n\(hint)\n", for: error)
        case .tokenRequired(let command):
            return Presentation(
                message:
                    "gh-users: \(command) needs a token: set \(tokenOrigin.variablesText), or give --token-file PATH"
                    + ghHint + "\n",
                for: error)
        case .rateLimited(let resetAt, let message, let resource, _):
            var text = "gh-users: " + rateLimitHeadline(clean(message))
            let now = current
            // GitHub's advice when it names no time: "wait for at least one minute before retrying"; a reset
            // already past here (this clock ahead of GitHub's) is waited as that minute too.
            let wait = resetAt.map { $0.timeIntervalSince(now) }.flatMap { $0 > 0 ? $0 : nil } ?? 60
            // A secondary limit lifts after GitHub's Retry-After: it has no reset.
            let onceOnly = resource == DomainError.secondaryLimitOnceOnly
            let secondary = resource == DomainError.secondaryLimit || onceOnly
            if let resetAt, resetAt <= now {
                // A reset a moment past is waited out by a second (`primaryWait`), one long past by GitHub's minute.
                let moment = !secondary && Self.primaryWait(resetAt, now: now) < 60
                // No clock is blamed: a reset is moved onto this one by GitHub's `Date` (`onThisClock`), so one past
                // here is past by GitHub's clock too (helper-322: a clock behind was called ahead).
                text +=
                    "\nIts \(secondary ? "end" : "reset") at \(localTime(resetAt)) has passed, and GitHub still says "
                    + "it is spent: try again in " + (moment ? "a moment." : "about a minute.")
            } else if let resetAt {
                text +=
                    "\nIt \(secondary ? "lifts" : "resets") at \(localTime(resetAt)), in "
                    + "\(DurationText.describe(seconds: wait))."
            } else {
                text += "\nGitHub gave no reset time: try again in about a minute."
            }
            if onceOnly {
                text += "\nA write is never sent twice, so it was not retried: run it again then."
            } else if let hint = secondary
                // The client waits Retry-After (doubled on each retry, up to --max-wait), none where it has passed,
                // GitHub's minute where absent: one past --max-wait is the one it would not start.
                ? secondaryHint(resetAt.map { max(0, $0.timeIntervalSince(now)) } ?? 60)
                : waitHint(
                    Self.primaryWait(resetAt, now: now),
                    waiting: waitOnRateLimit || (waitsOutSearchLimit && resource == "search"))
            {
                text += "\n" + hint
            }
            if !hasToken, let tokenHint = tokenHint(resource: resource, message: message) { text += "\n" + tokenHint }
            return Presentation(message: text + "\n", for: error)
        case .network(let detail, let advice, _):
            // Data may add a line that says what to check (a CA bundle, a proxy); each line is cleaned alone.
            let lines = detail.split(separator: "\n", omittingEmptySubsequences: false).map { clean(String($0)) }
            let advised = advice.map { words($0) }
            return Presentation(
                message: "gh-users: network error: " + (lines + advised).joined(separator: "\n") + "\n", for: error)
        case .server(let status, let message, _):
            var text = "gh-users: GitHub answered HTTP \(status): \(clean(message))\n"
            if Self.refusesAPIVersion(status: status, message: message) {
                text +=
                    "This gh-users is too old for GitHub's API (it asks for version "
                    + "\(HTTPClientConfiguration.supportedAPIVersion)): upgrade gh-users.\n"
            } else if [500, 502, 503, 504].contains(status), !message.contains(DomainError.mayHaveLanded) {
                // A write that may have landed says to check first; github.com's status page is no other host's.
                let page = tokenOrigin.enterpriseHost == nil ? " (https://www.githubstatus.com shows outages)" : ""
                text += "GitHub failed on its side: try again later\(page).\n"
            }
            return Presentation(message: text, for: error)
        case .malformedResponse(let endpoint, let detail, _):
            return Presentation(
                message: "gh-users: malformed response from \(clean(endpoint)): \(clean(detail))\n", for: error)
        case .notCached(let resource, let everCached, let damaged):
            // A write, a GraphQL POST and `/rate_limit` could never have been answered offline.
            let absence =
                damaged
                ? "in the cache, but its copy is damaged (cut short, changed on disk, of another gh-users version, "
                    + "or over GH_USERS_MAX_RESPONSE_BYTES; a run without --offline fetches it again)"
                : everCached ? "not in the cache" : "never cached"
            return Presentation(
                message: "gh-users: \(clean(resource)) is \(absence), and --offline keeps off the network\n",
                for: error)
        case .cacheUnavailable(let detail, let remedy):
            let wayOut = remedy.map { words($0) } ?? ""
            return Presentation(message: "gh-users: cache: \(clean(detail))\(wayOut)\n", for: error)
        case .graphQLBatchesRefused(let batches, let count, let reason):
            let accounts = count == 1 ? "1 account" : "\(count) accounts"
            return Presentation(
                message: "gh-users: the GraphQL API refused \(batches) batches in a row, the last one of \(accounts) "
                    + "(\(clean(reason))); try again later, or leave out --via graphql to fetch profiles from REST\n",
                for: error)
        case .refused(let detail):
            // Mostly gh-users's own words, the way out last (a collapse's run to 400 columns), with GitHub's
            // reason in some: cut at 1,000, which keeps ours whole and still bounds theirs.
            return Presentation(message: "gh-users: \(clean(detail, width: 1_000))\n", for: error)
        case .cancelled:
            return Presentation(message: "gh-users: interrupted\n", for: error)
        case .boundReached(let detail):
            return Presentation(message: "gh-users: \(detail)\n", for: error)
        }
    }

    /// What to check after a failure with no answer, in the terms of gh-users's command line.
    func words(_ advice: NetworkAdvice) -> String {
        switch advice {
        case .checkAPIRoot(let root, let timedOut):
            let check =
                "Check the API URL, \(clean(ConnectionSettings.masked(root.absoluteString))) (--api-url, GH_USERS_API_URL or GH_HOST), "
                + "and the network"
            return check + (timedOut ? "; --timeout SECONDS gives each attempt longer." : ".")
        case .checkHostName:
            return "Check the host in --api-url or GH_HOST; a proxy that inspects TLS must issue certificates "
                + "for the host asked for."
        case .cachedCopy(let endpoint):
            return "A copy of \(clean(endpoint)) is in the cache: --offline answers from it."
        case .writeMayHaveArrived(let method, let check):
            // A follow or a block (PUT, DELETE) made twice is made once; a PATCH is sent again only when checked.
            let again =
                ["PUT", "DELETE"].contains(method)
                ? "sending it again is safe, as a second one changes nothing more." : "check before sending it again."
            return "The \(method) may have reached GitHub before its answer was lost: "
                + (check.map { "check with \($0) before sending it again." } ?? again)
        }
    }

    /// The way out of a cache that is not fit to use.
    func words(_ remedy: CacheRemedy) -> String {
        switch remedy {
        case .removeOrMove: "; remove it by hand, or give --cache-dir another folder"
        case .clearOrMove: "; 'gh-users cache clear' empties it and marks it again, or give --cache-dir another folder"
        }
    }

    /// GitHub no longer answers the API version this gh-users asks for: a 400 that names `X-GitHub-Api-Version`
    /// (docs: "API versions"). A 410 is no such answer: GitHub says `Gone` of a resource gone or disabled.
    static func refusesAPIVersion(status: Int, message: String) -> Bool {
        status == 400 && message.lowercased().contains("x-github-api-version")
    }

    /// The gh line after a missing token's first line, when gh is on PATH.
    private var ghHint: String {
        guard ghOnPath else { return "" }
        // A GitHub Enterprise host takes gh's token for that host, in the variable gh reads for it.
        guard let host = tokenOrigin.enterpriseHost else { return "\n" + Self.ghTokenHint }
        return "\nLogged in with gh? Then: export GH_ENTERPRISE_TOKEN=$(gh auth token --hostname "
            + ShellWord.quote(host) + ")"
    }

    /// The wait the client takes for a spent primary limit (`RetrySchedule.primaryLimitWait`), in seconds: a
    /// reset that passed a moment ago is a second's wait, not a minute's.
    static func primaryWait(_ resetAt: Date?, now: Date) -> Double {
        RetrySchedule.primaryLimitWait(resetAt: resetAt, now: now, minute: .seconds(60)).inSeconds
    }

    /// What would have waited (`wait` is the client's, `primaryWait`): `--wait-on-rate-limit`, within a long enough
    /// `--max-wait` (the default is, for a reset within the hour); never a flag already given, nor a `--max-wait`
    /// past the longest it may be (a Retry-After in the year 9999): then no wait allowed is long enough.
    private func waitHint(_ wait: Double, waiting: Bool) -> String? {
        let needed = wait.rounded(.up)
        let tooLong = !(needed <= CommonOptions.longestMaxWait)
        if waiting {
            // Within --max-wait, a wait was never refused: the limit was waited out as often as a request may
            // wait (a server that never resets), and was still spent.
            guard wait > maxWait else {
                return "gh-users waited for its reset \(Counted.text(HTTPClient.maximumPrimaryLimitWaits, "time")) "
                    + "and it stayed spent: run again later."
            }
            let allows = "That is longer than --max-wait allows (\(maxWaitText))"
            return tooLong
                ? allows + ", and longer than any it may allow (a week at most): run again then."
                : allows + ": run again then, or give --max-wait \(Int(needed)) or more."
        }
        let ceiling =
            maxWait == CommonOptions.defaultMaxWait(waitOnRateLimit: false)
            ? CommonOptions.defaultMaxWait(waitOnRateLimit: true) : maxWait
        if tooLong {
            return "That is longer than any --max-wait allows (a week at most): run again then."
        }
        if wait > ceiling {
            return "Add --wait-on-rate-limit --max-wait \(Int(needed)) to wait for the reset and carry on."
        }
        return "Add --wait-on-rate-limit to wait for the reset and carry on."
    }

    /// A secondary limit is waited out whatever the flags (`wait`: its `Retry-After`, or GitHub's minute), up to
    /// `--retries` times, and never for longer than `--max-wait`: the hint names whichever stopped it, never
    /// `--wait-on-rate-limit`, which waits for primary limits only.
    private func secondaryHint(_ wait: Double) -> String? {
        let needed = wait.rounded(.up)
        guard wait > maxWait else {
            return "It was retried \(Counted.text(retries, "time")) (--retries): run again then, or give --retries "
                + "\(retries + 1) or more."
        }
        guard needed <= CommonOptions.longestMaxWait else {
            return "That is longer than any --max-wait allows (a week at most): run again then."
        }
        return "That is longer than --max-wait allows (\(maxWaitText)): run again then, "
            + "or give --max-wait \(Int(needed)) or more."
    }

    /// `--max-wait` as given: a fraction of a second is not rounded to a wait it did not allow ("1.5s", not "2s",
    /// helper-313; "90.5s", not "1m 31s", and "0.00001s", not "1e-05s", helper-321).
    private var maxWaitText: String {
        guard maxWait != maxWait.rounded() else { return DurationText.describe(seconds: maxWait) }
        var digits = String(format: "%.6f", maxWait)
        while digits.hasSuffix("0") { digits.removeLast() }
        // Under half a microsecond, six places are all zeros ("0.s": helper-323): as Swift writes it, then.
        return (digits.hasSuffix(".") ? "\(maxWait)" : digits) + "s"
    }

    /// The numbers a token changes, for the spent bucket (search's are per minute); none lifts a secondary limit.
    private func tokenHint(resource: String?, message: String) -> String? {
        // GH_TOKEN, unless this host does not read it: GH_ENTERPRISE_TOKEN for a GitHub Enterprise host.
        let variable =
            tokenOrigin.variables.contains("GH_TOKEN") ? "GH_TOKEN" : tokenOrigin.variables.first ?? "GH_TOKEN"
        // An Enterprise Server's administrators set its limits ("Configuring rate limits"): not github.com's.
        func hint(_ without: String, _ with: String) -> String {
            tokenOrigin.enterpriseHost == nil
                ? "\(without): set \(variable) for \(with)."
                : "This server sets its own limits, usually higher with a token: set \(variable)."
        }
        switch resource {
        case "search": return hint("Searches without a token get 10 a minute", "30")
        case "core": return hint("Requests without a token get 60 an hour", "5,000")
        case DomainError.secondaryLimit?, DomainError.secondaryLimitOnceOnly?: return nil
        case nil where !message.lowercased().contains("secondary rate limit"):
            return hint("Requests without a token get 60 an hour", "5,000")
        default: return nil
        }
    }

    /// GitHub's own words when they say what happened ("API rate limit exceeded for 127.0.0.1. …", "You have
    /// exceeded a secondary rate limit. …"), once; ours around them when they do not (a proxy's "Forbidden").
    private func rateLimitHeadline(_ message: String) -> String {
        message.lowercased().contains("rate limit") ? message : "API rate limit exceeded (\(message))"
    }

    /// GitHub's messages are data, not trusted text: keep them to one printable line of sane length, the token
    /// masked before the cut, which could leave a first part of it that no later mask would find.
    /// Safe to print, and cut at `width` columns: GitHub's words can be any length.
    private func clean(_ text: String, width: Int = 300) -> String {
        DisplayWidth.truncate(TerminalSanitizer.sanitize(redactor.redact(text)), toWidth: width)
    }

    private func localTime(_ date: Date) -> String { Self.localTime(date, now: current) }

    /// The time alone when it is today; with the date when it is not, or "10:42:07" would mislead. The errors'
    /// words and the waits' (`WaitAnnouncer`). With its zone: a log read on another machine, or a cron job's
    /// mail, is not read in another one.
    static func localTime(_ date: Date, now: Date) -> String {
        LocalTime.text(date, date: !LocalTime.isSameDay(date, now))
    }
}

/// Where the error presenter reads the time, when it words a failure.
protocol PresentationClock: Sendable {
    func time() -> Date
}
