import AtomicCore
import AtomicLogger
import Data
import Domain
import Foundation
import Networking

/// Everything a command may touch, in one plain struct (after `gh`'s Factory). Tests build their own and
/// override only what they use.
struct AppEnvironment: Sendable {
    /// What the GitHub factory needs to know about the run, as plain settings; the composition root turns
    /// them into Networking's values.
    struct SessionRequest: Sendable {
        let connection: ConnectionSettings
        let retries: Int
        /// Seconds for one attempt of a request.
        let attemptTimeout: Double
        let waitOnRateLimit: Bool
        /// Seconds a secondary limit's wait may last.
        let maxWait: Double
        /// The most body bytes one response may bring (`GH_USERS_MAX_RESPONSE_BYTES`).
        let maximumBodyBytes: Int
        let cache: CacheLocation
        let cacheMode: CacheMode
        let copiesAnswer: Bool
        /// Whether GraphQL profile queries ask `email` (`CommonOptions.asksProfileEmail`).
        var asksProfileEmail = true
        let logger: Logger
        /// The run's streams, whose stderr masks the token: a rate-limit wait is announced there.
        let io: IOStreams
    }

    /// A token file's text, and whether anyone but its owner may read it.
    struct TokenFile: Sendable, Equatable {
        let contents: String
        let readableByOthers: Bool
        /// Whether the file was stdin itself (`--token-file /dev/stdin`): stdin is then spent, and `-` has
        /// nothing left to give.
        var isStandardInput = false
    }

    var io: IOStreams
    var environment: [String: String]
    var logger: Logger
    var now: @Sendable () -> Date
    /// How the user invoked the program (`argv[0]`), for hints they can paste back.
    var programName = "gh-users"
    /// `programName` is a name a wrapper chose (`exec -a Scripts/try`), not a path to this binary: hints use it
    /// wherever they go, where a path to the binary is used only on a terminal.
    var programNameIsChosen = false
    /// The regular file stdout writes to, when it is one, for hints that must append to it again.
    var stdoutFile: String?
    /// stdout writes after what that file held when the run began (`FileDescriptorIO.writesAfterContents`).
    var stdoutContinues = false
    /// Everything GitHub serves, over one connection, cache and retry policy.
    var makeGitHub: @Sendable (SessionRequest) -> GitHubReader
    /// nil when there is no cache directory to look after.
    var makeCacheRepository: @Sendable (CacheLocation) -> (any CacheRepository)?
    /// Throws an error whose description is fit for the user.
    var readTokenFile: @Sendable (String) throws -> TokenFile
    /// The clock a write command spaces its writes by: the real one, or a test's that never sleeps.
    var writeClock = WriteClock.live

    static let version = "0.1.0"
    static var userAgent: String { "gh-users/\(version)" }

    /// The real process: its streams, its environment, and GitHub over URLSession.
    static func live() -> AppEnvironment {
        // Foundation reads a value that is not UTF-8 with U+FFFD in place of its bytes: a cache under such a HOME
        // went to a new folder beside it, one the user never named (helper-284). Such a folder is no folder here.
        let environment = ProcessInfo.processInfo.environment.filter { name, _ in
            guard ["HOME", "XDG_CACHE_HOME"].contains(name), let value = getenv(name) else { return true }
            return String(validatingCString: value) != nil
        }
        // Merely creating a URLSessionConfiguration makes swift-corelibs-foundation create
        // ~/.cache/org.swift.foundation.URLCache/<exe> and ~/.local/share/<dir>, even with urlCache = nil.
        // Pointing its XDG folders at a path that can never exist stops that; gh-users reads its own cache
        // location from the snapshot above, so nothing of ours moves.
        setenv("XDG_CACHE_HOME", "/dev/null/gh-users", 1)
        setenv("XDG_DATA_HOME", "/dev/null/gh-users", 1)
        let io = interruptibleInput(IOStreams.system(environment: environment))
        let logger = Logger(label: "gh-users", handler: StreamLogHandler(write: { io.writeErr($0) }))
        return AppEnvironment(
            io: io,
            environment: environment,
            logger: logger,
            now: { Date() },
            programName: CommandLine.arguments.first ?? "gh-users",
            programNameIsChosen: CommandLine.arguments.first.map { !FileDescriptorIO.namesThisExecutable($0) } ?? false,
            stdoutFile: FileDescriptorIO.regularFilePath(of: STDOUT_FILENO),
            stdoutContinues: FileDescriptorIO.writesAfterContents(of: STDOUT_FILENO),
            makeGitHub: { request in
                // URLSession's own timeout is only a backstop: the client cancels an attempt at its deadline.
                // Paging is serial, so the connection pool only matters for `show`'s concurrency, at most 10.
                let memory = HTTPVersionMemory(cache: request.cache, apiRoot: request.connection.apiRoot)
                let transport = URLSessionTransport(
                    maximumConnectionsPerHost: ShowUsersOptions.maximumConcurrency,
                    requestTimeout: request.attemptTimeout.rounded(.up) + 5,
                    maximumBodyBytes: request.maximumBodyBytes,
                    proxyHosts: URLSessionTransport.proxyHosts(in: environment),
                    directHost: OriginPolicy.mustBypassProxy(
                        apiRoot: request.connection.apiRoot, sendsToken: request.connection.token != nil),
                    remembersHTTP1: memory?.speaksHTTP1 ?? false,
                    learnedHTTPVersion: memory?.recorder()
                )
                let announcer = WaitAnnouncer(io: request.io, times: .live)
                let clock = RetryClock(
                    now: { Date() },
                    random: { Double.random(in: 0..<1) },
                    sleep: { duration, reason in try await announcer.sleep(duration, reason: reason) },
                    elapsed: WaitTimes.live.elapsed
                )
                return gitHub(request, transport: transport.transport, clock: clock)
            },
            makeCacheRepository: { location in
                location.directory.map {
                    DiskResponseCache(directory: $0, limitBytes: location.limitBytes, logger: logger)
                }
            },
            readTokenFile: { path in try TokenFileReader.read(path) }
        )
    }
}

extension AppEnvironment {
    /// GitHub for one run over `transport`: the run's retry policy, HTTP client, cache and repository. The
    /// live factory passes URLSession; the command tests pass a stub transport, so they run this same wiring.
    static func gitHub(_ request: SessionRequest, transport: @escaping HTTPTransport, clock: RetryClock)
        -> GitHubReader
    {
        let retryPolicy = RetryPolicy(
            maxRetries: request.retries,
            waitOnPrimaryLimit: request.waitOnRateLimit,
            attemptTimeout: .milliseconds(Int64(request.attemptTimeout * 1000)),
            maximumWait: .milliseconds(Int64(request.maxWait * 1000))
        )
        let client = HTTPClient(
            configuration: HTTPClientConfiguration(
                baseURL: request.connection.apiRoot,
                userAgent: userAgent,
                token: request.connection.token
            ),
            transport: transport,
            logger: request.logger,
            retryPolicy: retryPolicy,
            clock: clock
        )
        let store = request.cache.directory.map {
            DiskResponseCache(
                directory: $0, limitBytes: request.cache.limitBytes, maximumBodyBytes: request.maximumBodyBytes,
                logger: request.logger)
        }
        let cache = CacheSettings(store: store, mode: request.cacheMode, copiesAnswer: request.copiesAnswer)
        return GitHubRepository(
            client: client, cache: cache, logger: request.logger, asksProfileEmail: request.asksProfileEmail)
    }
}

/// stdin and the terminal may block for as long as their writer pleases; a signal must still stop them.
private func interruptibleInput(_ system: IOStreams) -> IOStreams {
    var io = system
    let readInput = system.readInput
    let readLine = system.readLine
    io.readInput = { () throws(InputReadError) in try InterruptState.process.blocking(readInput) }
    io.readLine = { InterruptState.process.blocking(readLine) }
    return io
}

struct TokenFileError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
