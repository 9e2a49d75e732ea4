import AtomicCore
import AtomicLogger
import Domain
import Networking

/// Routes argv, builds the coordinator for the route, and returns the exit status.
struct GhUsersApp: Sendable {
    let environment: AppEnvironment

    func run(_ arguments: [String]) async -> Int32 {
        let io = environment.io
        switch CommandRouter().route(arguments) {
        case .help(let text):
            return write(text)
        case .version:
            return write("gh-users \(AppEnvironment.version)\n")
        case .usageError(let error):
            io.writeErr(error.rendered)
            return ExitCode.usage
        case .listUsers(let options, let global):
            return await withSession(global) { repository, context, presenter in
                await ListUsersCoordinator(
                    options: options,
                    useCase: ListUsersUseCase(repository: repository),
                    io: io,
                    context: context,
                    presenter: presenter
                ).run()
            }
        case .showUsers(let options, let global):
            return await withSession(global, concurrency: options.concurrency) { repository, context, presenter in
                await ShowUsersCoordinator(
                    options: options,
                    useCase: GetUsersUseCase(repository: repository),
                    io: io,
                    context: context,
                    presenter: presenter
                ).run()
            }
        case .cache(let options, let global):
            return await runCache(options, global)
        }
    }

    private func runCache(_ options: CacheOptions, _ global: GlobalOptions) async -> Int32 {
        let io = environment.io
        let location: CacheLocation
        do {
            location = try CacheLocation.resolve(cacheDir: global.cacheDirectory, environment: environment.environment)
        } catch {
            io.writeErr(error.rendered)
            return ExitCode.usage
        }
        guard let repository = environment.makeCacheRepository(location) else {
            io.writeErr("gh-users: there is no cache directory: set HOME or XDG_CACHE_HOME, or give --cache-dir\n")
            return ExitCode.failure
        }
        let presenter = ErrorPresenter(now: environment.now(), hasToken: false)
        return await CacheCoordinator(
            options: options,
            repository: repository,
            io: io,
            context: renderContext(global),
            presenter: presenter
        ).run()
    }

    private func renderContext(_ global: GlobalOptions) -> RenderContext {
        let io = environment.io
        return RenderContext.resolve(
            requested: global.format,
            isTTY: io.stdoutIsTTY,
            colorEnabled: global.color.isEnabled(policy: io.colorPolicy, isTTY: io.stdoutIsTTY),
            width: io.terminalWidth,
            now: environment.now()
        )
    }

    /// Resolves host, token, logging and output for a command that talks to GitHub, then runs it.
    private func withSession(
        _ global: GlobalOptions,
        concurrency: Int = 1,
        _ body: (any UsersRepository, RenderContext, ErrorPresenter) async -> Int32
    ) async -> Int32 {
        let io = environment.io
        var tokenFileContents: String?
        if let path = global.tokenFile {
            do {
                let file = try environment.readTokenFile(path)
                if file.readableByOthers {
                    io.writeErr(
                        "gh-users: warning: the token file '\(path)' can be read by others; run: chmod 600 '\(path)'\n")
                }
                tokenFileContents = file.contents
            } catch {
                io.writeErr(UsageError(message: String(describing: error), command: nil).rendered)
                return ExitCode.usage
            }
        }
        let connection: ConnectionSettings
        let cache: CacheLocation
        do {
            connection = try ConnectionSettings.resolve(
                apiURL: global.apiURL,
                tokenFileContents: tokenFileContents,
                environment: environment.environment
            )
            cache = try CacheLocation.resolve(cacheDir: global.cacheDirectory, environment: environment.environment)
        } catch {
            io.writeErr(error.rendered)
            return ExitCode.usage
        }
        var logger = environment.logger
        logger.redactor = Redactor(secrets: connection.token.map { [$0] } ?? [])
        if let level = global.logLevel ?? environment.environment["GH_USERS_LOG_LEVEL"].flatMap(LogLevel.init(name:)) {
            logger.level = level
        }
        let repository = environment.makeUsersRepository(
            AppEnvironment.RepositoryRequest(
                connection: connection,
                concurrency: concurrency,
                retryPolicy: RetryPolicy(
                    maxRetries: global.retries,
                    waitOnPrimaryLimit: global.waitOnRateLimit,
                    attemptTimeout: .milliseconds(Int64(global.timeout * 1000))
                ),
                cache: cache,
                cacheMode: global.cacheMode,
                logger: logger
            )
        )
        let context = renderContext(global)
        let presenter = ErrorPresenter(now: environment.now(), hasToken: connection.token != nil)
        return await body(repository, context, presenter)
    }

    private func write(_ text: String) -> Int32 {
        do {
            try environment.io.writeOut(text)
        } catch {
            return ExitCode.success
        }
        return ExitCode.success
    }
}
