import Domain

/// The documented exit statuses (README, `gh-users help exit-codes`).
enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    /// A question command (`follows`) that failed for a reason other than its own answer.
    static let unanswered: Int32 = 2
    static let notFound: Int32 = 3
    static let authentication: Int32 = 4
    static let rateLimited: Int32 = 5
    static let usage: Int32 = 64
    static let interrupted: Int32 = 130
}

/// The one place that decides an exit status, for every command and every kind of failure.
enum ExitStatus {
    static func code(for outcome: CommandOutcome) -> Int32 {
        switch outcome {
        case .success, .outputClosed:
            return ExitCode.success
        case .usage:
            return ExitCode.usage
        case .setupFailed:
            return ExitCode.failure
        case .answered(let yes):
            return yes ? ExitCode.success : ExitCode.failure
        case .unanswered(let error):
            let status = code(for: error)
            return status == ExitCode.failure ? ExitCode.unanswered : status
        case .failed(let error):
            return code(for: error)
        case .partial(let failures, let successes):
            // One failure kind for every lookup keeps its own status; a mix, or a partial success, is a plain
            // failure, unless the run was interrupted, or stopped by a spent rate limit (5, as a list that meets
            // it half-way: what is left can be asked after the reset) or a token GitHub refused (4, as a list that
            // meets it: what is left can be asked with a token it takes).
            let codes = failures.map(code(for:))
            guard let first = codes.first else { return ExitCode.success }
            if successes == 0, codes.allSatisfy({ $0 == first }) { return first }
            if codes.contains(ExitCode.interrupted) { return ExitCode.interrupted }
            if codes.contains(ExitCode.rateLimited) { return ExitCode.rateLimited }
            if failures.contains(where: \.refusesToken) { return ExitCode.authentication }
            return ExitCode.failure
        }
    }

    static func code(for error: DomainError) -> Int32 {
        switch error {
        case .invalidInput: return ExitCode.usage
        case .notFound: return ExitCode.notFound
        case .unauthorized, .tokenRequired: return ExitCode.authentication
        case .rateLimited: return ExitCode.rateLimited
        case .network, .server, .malformedResponse, .notCached, .cacheUnavailable, .refused, .graphQLBatchesRefused:
            return ExitCode.failure
        case .cancelled: return ExitCode.interrupted
        case .boundReached: return ExitCode.failure
        }
    }
}
