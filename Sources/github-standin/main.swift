import Dispatch
import Foundation
import GitHubStandIn

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let usage = """
    usage: github-standin [--users N] [--latency-ms M] [--port P] [--rate-limit N] [--base-url URL] [--access-bench]

    Serves a loopback stand-in for GitHub's REST API on 127.0.0.1, answering
    \(StandInServer.servedRoutes.map { "  " + $0 }.joined(separator: "\n"))
    Prints "github-standin listening on http://127.0.0.1:PORT (N users)" once ready and runs until
    SIGINT or SIGTERM.

    Tokens: every token is accepted. A token with a login among its "_"-separated fields after
    the first signs in as that account (gho_octocat is octocat); any other token signs in as a
    User account picked by a hash of the token. Tokens containing "noscope" have no OAuth scopes
    (GET /user then shows only the public profile), tokens containing "readonly" or "hide404"
    have only "read:user"; all others have "repo, user". Following and unfollowing need
    "user:follow" (or "user"): other tokens get 403, or 404 if they contain "hide404".
    Follows and unfollows change the follow graph every later read sees, until the server stops.

    An account's repositories, public organizations and stars are the world's (World/world.json).
    Keys, gists, events, social accounts, the hovercard and e-mail addresses are GitHub's
    recorded or documented examples, the same for every account.
    \(StandInPopulation.manyFollowsLogin) has \(StandInPopulation.manyFollowsFollowerCount) followers and
    follows \(StandInPopulation.manyFollowsFollowingCount), \(StandInPopulation.manyFollowsOverlap) of them both ways (with --users \(StandInPopulation.manyFollowsMinimumUserCount) or more).

      --users N              accounts in the population (default 1000)
      --latency-ms M         delay before every response, in milliseconds (default 0)
      --port P               port to bind, 0 for any free port (default 0)
      --rate-limit N         requests per hour per token, and as many GraphQL points; anonymous
                             callers get 60 requests and no GraphQL (default 5000)
      --base-url URL         where Link URLs point, for clients that reach it through a proxy
                             (default: its own http://127.0.0.1:PORT)
      --access-bench         add bench-org, 1,000 repositories with about 150 people each, for
                             gh-users access (octocat owns it; give --users 2000 or more)
      -h, --help             show this help
    """

/// sysexits.h EX_USAGE, which wrapper scripts can tell apart from runtime failures.
let usageExitCode: Int32 = 64

func failUsage(_ message: String) -> Never {
    FileHandle.standardError.write(Data("github-standin: \(message)\n\n\(usage)\n".utf8))
    exit(usageExitCode)
}

func parseConfiguration(_ arguments: [String]) -> StandInConfiguration {
    var configuration = StandInConfiguration()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
        if argument == "-h" || argument == "--help" {
            print(usage)
            exit(0)
        }
        if argument == "--base-url" {
            guard let url = remaining.popFirst(), url.hasPrefix("http://") || url.hasPrefix("https://") else {
                failUsage("--base-url needs an http:// or https:// URL")
            }
            configuration.publicBaseURL = String(url.reversed().drop { $0 == "/" }.reversed())
            continue
        }
        if argument == "--access-bench" {
            configuration.accessBench = true
            continue
        }
        guard ["--users", "--latency-ms", "--port", "--rate-limit"].contains(argument) else {
            failUsage("unknown argument '\(argument)'")
        }
        guard let text = remaining.popFirst() else {
            failUsage("\(argument) needs a value")
        }
        guard let value = Int(text), value >= 0 else {
            failUsage("\(argument) needs a non-negative integer, got '\(text)'")
        }
        switch argument {
        case "--users":
            configuration.userCount = value
        case "--latency-ms":
            configuration.latencyMilliseconds = value
        case "--port":
            guard value <= 65_535 else {
                failUsage("--port must be at most 65535, got \(value)")
            }
            configuration.port = value
        default:
            configuration.rateLimit = value
            configuration.graphQLRateLimit = value
        }
    }
    return configuration
}

let configuration = parseConfiguration(Array(CommandLine.arguments.dropFirst()))
let server: StandInServer
do {
    server = try StandInServer(configuration: configuration)
    // Nobody reads the journal of a standalone server, and benchmarks would otherwise grow it without bound.
    server.isRecordingRequests = false
    try server.start()
} catch {
    FileHandle.standardError.write(Data("github-standin: \(error)\n".utf8))
    exit(1)
}

// A client that disconnects mid-write must not kill the server; sends already use MSG_NOSIGNAL, this is a backstop.
signal(SIGPIPE, SIG_IGN)
// Default dispositions would kill the process before the dispatch sources see the signals.
signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let signalSources = [SIGINT, SIGTERM].map { number in
    let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
    source.setEventHandler {
        server.stop()
        exit(0)
    }
    source.resume()
    return source
}

print("github-standin listening on \(server.baseURL) (\(configuration.userCount) users)")
// fflush(nil) flushes every stream; naming `stdout` is rejected as shared mutable state in Swift 6.
fflush(nil)
withExtendedLifetime(signalSources) {
    dispatchMain()
}
