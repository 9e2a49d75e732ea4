import AtomicCore
import AtomicLogger
import Domain
import Networking

/// What a command that talks to GitHub runs with: host and token resolved from flags, files and the
/// environment, the cache located, and logging set, all before the first request. Every problem here is a
/// usage error (exit 64), so nothing is sent when the setup is wrong.
struct GitHubSession: Sendable {
    let reader: GitHubReader
    let hasToken: Bool
    /// Where the token came from and where one is looked for, so a message names the right variables.
    let tokenOrigin: TokenOrigin
    /// The one Redactor, made here from the token: the log, stderr and the error presenter mask with it.
    let redactor: Redactor
    /// The streams the command writes through: stderr masks the token.
    let io: IOStreams

    static func open(_ common: CommonOptions, environment: AppEnvironment) throws(UsageError) -> GitHubSession {
        var io = environment.io
        var tokenFileContents: String?
        if let path = common.tokenFile {
            do {
                let file = try environment.readTokenFile(path)
                if file.readableByOthers {
                    io.writeErr(
                        "gh-users: warning: the token file \(TerminalSanitizer.quotedPath(path)) can be read by others; "
                            + "run: chmod 600 \(ShellWord.quote(path))\n")
                }
                tokenFileContents = file.contents
                if file.isStandardInput { io.stdinSpentOn = "--token-file " + path }
            } catch {
                throw UsageError(message: String(describing: error), command: nil)
            }
        }
        // Every token it could hold, sent or not, masked from here on: a setting's refusal may echo one pasted in
        // the wrong place (helper-353's P-1).
        let redactor = Redactor(
            secrets: ConnectionSettings.secrets(
                environment: environment.environment, tokenFileContents: tokenFileContents))
        do {
            return try open(
                common, environment: environment, io: io.maskingErrors(with: redactor), redactor: redactor,
                tokenFileContents: tokenFileContents)
        } catch {
            throw error.masking(with: redactor)
        }
    }

    private static func open(
        _ common: CommonOptions, environment: AppEnvironment, io: IOStreams, redactor: Redactor,
        tokenFileContents: String?
    ) throws(UsageError) -> GitHubSession {
        let connection = try ConnectionSettings.resolve(
            apiURL: common.apiURL,
            tokenFileContents: tokenFileContents,
            environment: environment.environment
        )
        if let unsent = connection.unsentTokenVariable {
            let host = TerminalSanitizer.sanitize(connection.apiRoot.host ?? "")
            io.writeErr(
                "gh-users: warning: \(unsent) is "
                    + (unsent.contains("ENTERPRISE")
                        ? "a GitHub Enterprise token, and is not sent to \(host); "
                            + (OriginPolicy.isTenancy(connection.apiRoot.host ?? "")
                                ? "that host takes GH_TOKEN or GITHUB_TOKEN, as gh reads them\n"
                                : "set GH_HOST to its host, as gh reads it\n")
                        : "a github.com token, and is not sent to \(host) (a GitHub Enterprise host); set "
                            + "GH_ENTERPRISE_TOKEN for it, as gh reads it\n"))
        }
        let cache = try CacheLocation.resolve(cacheDir: common.cacheDirectory, environment: environment.environment)
        var maximumBodyBytes = URLSessionTransport.defaultMaximumBodyBytes
        if let text = environment.environment["GH_USERS_MAX_RESPONSE_BYTES"], !text.isEmpty {
            guard let bytes = URLSessionTransport.maximumBodyBytes(fromSetting: text) else {
                // A size past the cap says the cap; anything else what a size is (K, M, G; no T).
                let past = ByteSize.parse(text) != nil ? " no larger than 1024G (1 TiB)" : ""
                throw UsageError.setting(
                    "invalid GH_USERS_MAX_RESPONSE_BYTES '\(text)': give bytes, or a size such as 256M, 2G or 500MB"
                        + past)
            }
            maximumBodyBytes = bytes
        }
        var logger = environment.logger
        logger.redactor = redactor
        var level = common.logLevel
        if let text = environment.environment["GH_USERS_LOG_LEVEL"], !text.isEmpty {
            // Checked even under --log-level, as the other settings are: a typo is said, never passed over.
            guard let named = LogLevel(name: text) else {
                let names = LogLevel.allCases.map(\.name)
                throw UsageError.setting(
                    "invalid GH_USERS_LOG_LEVEL '\(text)': give " + names.dropLast().joined(separator: ", ") + " or "
                        + (names.last ?? ""))
            }
            level = level ?? named
        }
        if let level { logger.level = level }
        let request = AppEnvironment.SessionRequest(
            connection: connection,
            retries: common.retries,
            attemptTimeout: common.timeout,
            waitOnRateLimit: common.waitOnRateLimit,
            maxWait: common.maxWait,
            maximumBodyBytes: maximumBodyBytes,
            cache: cache,
            cacheMode: common.cacheMode,
            copiesAnswer: common.copiesAnswer,
            asksProfileEmail: common.asksProfileEmail,
            logger: logger,
            io: io
        )
        return GitHubSession(
            reader: environment.makeGitHub(request), hasToken: connection.token != nil,
            tokenOrigin: TokenOrigin(
                source: connection.tokenSource, variables: connection.tokenVariables,
                enterpriseHost: connection.tokenVariables.contains("GH_TOKEN") ? nil : connection.apiRoot.host),
            redactor: redactor, io: io)
    }
}
