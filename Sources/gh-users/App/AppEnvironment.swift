import AtomicCore
import AtomicLogger
import Data
import Domain
import Foundation
import Networking

/// Everything a command may touch, in one plain struct (after `gh`'s Factory). Tests build their own and
/// override only what they use.
struct AppEnvironment: Sendable {
    /// What a repository factory needs to know about the run.
    struct RepositoryRequest: Sendable {
        let connection: ConnectionSettings
        let concurrency: Int
        let retryPolicy: RetryPolicy
        let cache: CacheLocation
        let cacheMode: CacheMode
        let logger: Logger
    }

    /// A token file's text, and whether anyone but its owner may read it.
    struct TokenFile: Sendable, Equatable {
        let contents: String
        let readableByOthers: Bool
    }

    var io: IOStreams
    var environment: [String: String]
    var logger: Logger
    var now: @Sendable () -> Date
    /// One repository per kind of GitHub data, sharing a connection, cache and retry policy.
    struct Repositories: Sendable {
        var users: any UsersRepository
        var repos: any ReposRepository
        var search: any SearchRepository
        var rateLimit: any RateLimitRepository
    }

    var makeRepositories: @Sendable (RepositoryRequest) -> Repositories
    /// nil when there is no cache directory to look after.
    var makeCacheRepository: @Sendable (CacheLocation) -> (any CacheRepository)?
    /// Throws an error whose description is fit for the user.
    var readTokenFile: @Sendable (String) throws -> TokenFile

    static let version = "0.1.0"
    static var userAgent: String { "gh-users/\(version)" }

    /// The real process: its streams, its environment, and GitHub over URLSession.
    static func live() -> AppEnvironment {
        let environment = ProcessInfo.processInfo.environment
        // Merely creating a URLSessionConfiguration makes swift-corelibs-foundation create
        // ~/.cache/org.swift.foundation.URLCache/<exe> and ~/.local/share/<dir>, even with urlCache = nil.
        // Pointing its XDG folders at a path that can never exist stops that; gh-users reads its own cache
        // location from the snapshot above, so nothing of ours moves.
        setenv("XDG_CACHE_HOME", "/dev/null/gh-users", 1)
        setenv("XDG_DATA_HOME", "/dev/null/gh-users", 1)
        let io = IOStreams.system(environment: environment)
        let logger = Logger(label: "gh-users", handler: StreamLogHandler(write: { io.writeErr($0) }))
        return AppEnvironment(
            io: io,
            environment: environment,
            logger: logger,
            now: { Date() },
            makeRepositories: { request in
                // URLSession's own timeout is only a backstop: the client cancels an attempt at its deadline.
                let backstop = WaitAnnouncer.seconds(request.retryPolicy.attemptTimeout).rounded(.up) + 5
                let transport = URLSessionTransport(
                    maximumConnectionsPerHost: max(6, request.concurrency),
                    requestTimeout: backstop
                )
                let announcer = WaitAnnouncer(io: io, now: { Date() })
                let client = HTTPClient(
                    configuration: HTTPClientConfiguration(
                        baseURL: request.connection.apiRoot,
                        userAgent: userAgent,
                        token: request.connection.token
                    ),
                    transport: transport.transport,
                    logger: request.logger,
                    retryPolicy: request.retryPolicy,
                    clock: RetryClock(
                        now: { Date() },
                        random: { Double.random(in: 0..<1) },
                        sleep: { duration, reason in try await announcer.sleep(duration, reason: reason) }
                    )
                )
                let store = request.cache.directory.map {
                    DiskResponseCache(directory: $0, limitBytes: request.cache.limitBytes)
                }
                let cache = CacheSettings(store: store, mode: request.cacheMode)
                return Repositories(
                    users: GitHubUsersRepository(client: client, cache: cache, logger: request.logger),
                    repos: GitHubReposRepository(client: client, cache: cache, logger: request.logger),
                    search: GitHubSearchRepository(client: client, cache: cache, logger: request.logger),
                    rateLimit: GitHubRateLimitRepository(client: client, logger: request.logger)
                )
            },
            makeCacheRepository: { location in
                location.directory.map { DiskResponseCache(directory: $0, limitBytes: location.limitBytes) }
            },
            readTokenFile: { path in try TokenFileReader.read(path) }
        )
    }
}

struct TokenFileError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
