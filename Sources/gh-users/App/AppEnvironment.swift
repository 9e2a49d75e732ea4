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
        let logger: Logger
    }

    var io: IOStreams
    var environment: [String: String]
    var logger: Logger
    var now: @Sendable () -> Date
    var makeUsersRepository: @Sendable (RepositoryRequest) -> any UsersRepository

    static let version = "0.1.0"
    static var userAgent: String { "gh-users/\(version)" }

    /// The real process: its streams, its environment, and GitHub over URLSession.
    static func live() -> AppEnvironment {
        let environment = ProcessInfo.processInfo.environment
        let io = IOStreams.system(environment: environment)
        let logger = Logger(label: "gh-users", handler: StreamLogHandler(write: { io.writeErr($0) }))
        return AppEnvironment(
            io: io,
            environment: environment,
            logger: logger,
            now: { Date() },
            makeUsersRepository: { request in
                let transport = URLSessionTransport(maximumConnectionsPerHost: max(6, request.concurrency))
                let client = HTTPClient(
                    configuration: HTTPClientConfiguration(
                        baseURL: request.connection.apiRoot,
                        userAgent: userAgent,
                        token: request.connection.token
                    ),
                    transport: transport.transport,
                    logger: request.logger
                )
                return GitHubUsersRepository(client: client)
            }
        )
    }
}
