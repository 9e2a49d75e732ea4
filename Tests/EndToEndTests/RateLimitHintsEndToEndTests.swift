import Foundation
import GitHubStandIn
import TestSupport
import Testing

/// Issue 19 items 6, 8 and 9 and two of 20.19, through the built binary: stdout, stderr and the exit status
/// each checked on their own. No test here waits a real minute: a wait `--max-wait` forbids is never started.
/// The help texts of the two flags are `ListCommandTests`'; the 403s, the token message and a spent search
/// bucket without a token `CommandErrorTests`'.
struct RateLimitHintsEndToEndTests {
    private func withServer<T>(_ body: (StandInServer) async throws -> T) async throws -> T {
        try await withStandIn(users: 100, body)
    }

    private func withCacheDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-e2e-rl-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory.path)
    }

    /// A server that answers every request 403 with the limit spent and no reset header, as real answers have.
    private func withSpentLimitWithoutReset<T>(_ body: (RawTestServer) async throws -> T) async throws -> T {
        let server = try RawTestServer { connection in
            let json =
                #"{"message":"API rate limit exceeded for 127.0.0.1.","documentation_url":"https://docs.github.com/rest"}"#
            connection.write(
                "HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nx-ratelimit-limit: 60\r\n"
                    + "x-ratelimit-remaining: 0\r\nx-ratelimit-used: 60\r\nx-ratelimit-resource: core\r\n"
                    + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)")
        }
        defer { server.stop() }
        return try await body(server)
    }

    // 19.6; `me` asks `GET /user` without validators, since a 304 carries no scopes: a 200 each run.
    @Test func meOnItsSecondRunShowsTheScopesTheTokenHasNow() async throws {
        try await withServer { server in
            try await withCacheDirectory { cache in
                let arguments = ["me", "--format", "table", "--cache-dir", cache, "--api-url", server.baseURL]
                let environment = ["GH_TOKEN": StandInTokens.token(for: "octocat")]
                let first = try await BinaryRunner.run(arguments, environment: environment)
                #expect(first.status == 0, "\(first.stderr)")
                #expect(first.stdout.contains("repo, user"))
                let second = try await BinaryRunner.run(arguments + ["--verbose"], environment: environment)
                #expect(second.status == 0, "\(second.stderr)")
                #expect(second.stderr.contains("GET /user: 200"), "\(second.stderr)")
                #expect(!second.stderr.contains("GET /user: 304"), "\(second.stderr)")
                #expect(second.stdout.contains("repo, user"), "\(second.stdout)")
                #expect(!second.stdout.contains("not reported"))
                #expect(second.stdout == first.stdout)
            }
        }
    }

    // 19.8
    @Test func aSpentLimitWithoutAResetIsExitFiveInAboutAMinute() async throws {
        try await withSpentLimitWithoutReset { server in
            let result = try await BinaryRunner.run(["show", "octocat", "--api-url", server.baseURL, "--no-cache"])
            #expect(result.status == 5)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "gh-users: API rate limit exceeded for 127.0.0.1.\n"
                    + "GitHub gave no reset time: try again in about a minute.\n"
                    + "Add --wait-on-rate-limit to wait for the reset and carry on.\n"
                    + "Requests without a token get 60 an hour: set GH_TOKEN for 5,000.\n")
            #expect(server.requests.count == 1)
        }
    }

    /// The reset's time is the machine's as the C library reads `TZ` (as `date` does, POSIX rules too), in ASCII
    /// under every locale: Foundation's style wrote "5:46:40<U+202F>PM GMT-5" for `TZ=UTC+5`, which is five hours
    /// behind UTC, put JST and `<+05>-5` in UTC, and wrote U+202F under `LC_ALL=C` (helper-284's finds).
    @Test(arguments: [
        ("UTC+5", "2030-03-17 12:46:40 UTC-5"), ("JST-9", "2030-03-18 02:46:40 JST"),
        ("CET-1CEST,M3.5.0,M10.5.0/3", "2030-03-17 18:46:40 CET"), ("<+0530>-5:30", "2030-03-17 23:16:40 +0530"),
        ("UTC0", "2030-03-17 17:46:40 UTC"),
    ])
    func aResetIsSaidOnTheLocalClockInASCII(zone: String, said: String) async throws {
        let server = try RawTestServer { connection in
            let json = #"{"message":"API rate limit exceeded for 127.0.0.1."}"#
            connection.write(
                "HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nx-ratelimit-limit: 60\r\n"
                    + "x-ratelimit-remaining: 0\r\nx-ratelimit-reset: 1900000000\r\nx-ratelimit-resource: core\r\n"
                    + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)")
        }
        defer { server.stop() }
        let result = try await BinaryRunner.run(
            ["show", "octocat", "--api-url", server.baseURL, "--no-cache"], environment: ["TZ": zone, "LC_ALL": "C"])
        #expect(result.status == 5)
        #expect(result.stderr.contains("resets at \(said), in "), "\(result.stderr)")
        #expect(result.stderr.unicodeScalars.allSatisfy { $0.isASCII }, "\(result.stderr)")
    }

    // 19.8 and 19.9 (b): the minute is a wait like any other, so --max-wait 5 does not start it.
    @Test func withWaitOnRateLimitTheMinuteIsBoundedByMaxWaitAndNeverAskedFor() async throws {
        try await withSpentLimitWithoutReset { server in
            let result = try await BinaryRunner.run(
                [
                    "show", "octocat", "--api-url", server.baseURL, "--no-cache", "--wait-on-rate-limit", "--max-wait",
                    "5",
                ],
                // A run that waited the minute is killed first (status 137), never 5.
                timeout: 45)
            #expect(result.status == 5)
            #expect(result.stdout.isEmpty)
            #expect(!result.stderr.contains("Add --wait-on-rate-limit"), "\(result.stderr)")
            #expect(result.stderr.contains("try again in about a minute"))
            #expect(result.stderr.contains("That is longer than --max-wait allows (5s)"))
            #expect(server.requests.count == 1)
        }
    }

    // 19.9 (b)
    @Test func maxWaitBoundsASecondaryLimitsRetryAfterWithWaitOnRateLimit() async throws {
        try await withServer { server in
            server.injectFaults([.secondaryRateLimit(retryAfterSeconds: 60)], forPath: "/users/octocat")
            let result = try await BinaryRunner.run(
                ["show", "octocat", "--api-url", server.baseURL, "--wait-on-rate-limit", "--max-wait", "5"],
                // Before: the 60 s were waited in full; such a run is killed first (status 137), never 5.
                timeout: 45)
            #expect(result.status == 5, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("gh-users: You have exceeded a secondary rate limit."))
            #expect(result.stderr.contains("It lifts at "))
            #expect(result.stderr.contains("That is longer than --max-wait allows (5s)"))
            #expect(!result.stderr.contains("waiting"))
            #expect(server.requests.count == 1)
        }
    }

    // 20.19
    @Test func verboseSaysEachRequestOnANormalRun() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.run(["show", "octocat", "--api-url", server.baseURL, "--verbose"])
            #expect(result.status == 0)
            #expect(result.stderr == "gh-users: info: GET /users/octocat: 200\n")
            // stdout is the record alone, as without --verbose: no log line goes there (helper-293: the check
            // was `hasPrefix("octocat") || !isEmpty`, which any output passed).
            let quiet = try await BinaryRunner.run(["show", "octocat", "--api-url", server.baseURL])
            #expect(quiet.status == 0)
            #expect(result.stdout == quiet.stdout)
            #expect(result.stdout.hasPrefix("octocat\t"))
        }
    }
}
