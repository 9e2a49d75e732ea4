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
        case .completion(let options):
            return write(CompletionScripts.script(for: options.shell, commands: CommandCatalog.commands))
        case .usageError(let error):
            io.writeErr(error.rendered)
            return ExitCode.usage
        case .listUsers(let options, let global):
            return await withSession(global) { repositories, command in
                await ListUsersCommand.coordinator(
                    options: options,
                    useCase: ListUsersUseCase(repository: repositories.users),
                    command: command
                ).run()
            }
        case .showUsers(let options, let global):
            return await withSession(global, concurrency: options.concurrency) { repositories, command in
                await ShowUsersCoordinator(
                    options: options,
                    useCase: GetUsersUseCase(repository: repositories.users),
                    command: command
                ).run()
            }
        case .relations(let options, let global):
            return await withSession(global) { repositories, command in
                await RelationsCommand.coordinator(
                    options: options,
                    useCase: ListUsersUseCase(repository: repositories.users),
                    command: command
                ).run()
            }
        case .listRepos(let options, let global):
            return await withSession(global) { repositories, command in
                await ListReposCommand.coordinator(
                    options: options,
                    useCase: ListReposUseCase(repository: repositories.repos),
                    command: command
                ).run()
            }
        case .searchUsers(let options, let global):
            return await withSession(global) { repositories, command in
                await SearchUsersCommand.coordinator(
                    options: options,
                    useCase: SearchUsersUseCase(repository: repositories.search),
                    command: command
                ).run()
            }
        case .rateLimit(let global):
            return await withSession(global) { repositories, command in
                await RateLimitCoordinator(
                    useCase: GetRateLimitUseCase(repository: repositories.rateLimit),
                    command: command
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
            command: CommandContext(io: io, render: renderContext(global), presenter: presenter)
        ).run()
    }

    private func renderContext(_ global: GlobalOptions) -> RenderContext {
        let io = environment.io
        return RenderContext.resolve(
            requested: global.format,
            isTTY: io.stdoutIsTTY,
            colorEnabled: global.color.isEnabled(policy: io.colorPolicy, isTTY: io.stdoutIsTTY),
            width: io.terminalWidth,
            now: environment.now(),
            fields: global.fields
        )
    }

    /// Resolves host, token, logging and output for a command that talks to GitHub, then runs it.
    private func withSession(
        _ global: GlobalOptions,
        concurrency: Int = 1,
        _ body: (AppEnvironment.Repositories, CommandContext) async -> Int32
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
        let repositories = environment.makeRepositories(
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
        return await body(repositories, CommandContext(io: io, render: context, presenter: presenter))
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
