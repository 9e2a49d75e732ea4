import Foundation
import GitHubStandIn
import Testing

/// Writes one line per scenario to the file named by `GH_USERS_FAULT_REPORT`, when it is set, so that a
/// person can read the fault → outcome → requests → time table of a real run. Tests never depend on it.
private func report(_ fault: String, _ result: RunResult, requests: Int) {
    guard let path = ProcessInfo.processInfo.environment["GH_USERS_FAULT_REPORT"] else { return }
    let line = String(format: "| %@ | exit %d | %d | %.2f s |\n", fault, result.status, requests, result.seconds)
    if let handle = FileHandle(forWritingAtPath: path) {
        handle.seekToEndOfFile()
        handle.write(Data(line.utf8))
        try? handle.close()
    } else {
        _ = FileManager.default.createFile(atPath: path, contents: Data(line.utf8))
    }
}

/// Every fault GitHub shows in ordinary life, injected by the stand-in, against the built binary.
struct ResilienceEndToEndTests {
    private func withServer<T>(
        users: Int = 1000,
        latency: Int = 0,
        _ body: (StandInServer) async throws -> T
    ) async throws -> T {
        let server = try StandInServer(
            configuration: StandInConfiguration(
                userCount: users, latencyMilliseconds: latency)
        )
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    private func api(_ server: StandInServer) -> [String] { ["--api-url", server.baseURL] }

    private func ids(_ tsv: String) -> [Int] {
        tsv.split(separator: "\n").compactMap { Int($0.split(separator: "\t")[0]) }
    }

    /// A fault on the first request that a retry rides through: the output is whole and one request extra.
    @Test(arguments: [
        ("500", StandInFault.status(500, body: #"{"message":"Server Error"}"#)),
        ("502 with an HTML body", .status(502, body: "<html><body><h1>502 Bad Gateway</h1></body></html>")),
        ("503", .status(503, body: #"{"message":"Service Unavailable"}"#)),
        ("truncated body", .truncatedBody),
        ("connection closed with no answer", .closeWithoutResponse),
    ])
    func transientFaultsAreRetried(name: String, fault: StandInFault) async throws {
        try await withServer { server in
            server.injectFaults([fault], forPath: "/users")
            let result = try await BinaryRunner.run(["list", "--limit", "50"] + api(server))
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(ids(result.stdout) == server.population.users.prefix(50).map(\.id))
            #expect(result.stderr.isEmpty)
            #expect(server.requests.count == 2)
            report(name + " once", result, requests: server.requests.count)
        }
    }

    @Test func aPersistentFailureGivesUpInBoundedTime() async throws {
        try await withServer { server in
            server.injectFaults(
                Array(repeating: .status(502, body: "<html>Bad Gateway</html>"), count: 10), forPath: "/users")
            let result = try await BinaryRunner.run(["list", "--limit", "50", "--json"] + api(server))
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            // It says it asked 4 times, as a failure with no answer does.
            #expect(
                result.stderr.contains(
                    #/^gh-users: GitHub answered HTTP 502: Bad Gateway, after 4 attempts over [0-9]+\.[0-9] s\nGitHub failed on its side: try again later \(https:\/\/www.githubstatus.com shows outages\).\nrequest id: /#
                ), "\(result.stderr)")
            #expect(server.requests.count == 4)
            report("502 on every request (--retries 3)", result, requests: server.requests.count)
        }
    }

    @Test func aHangIsCutAtTheTimeoutAndRetried() async throws {
        try await withServer { server in
            server.injectFaults([.hang(seconds: 10)], forPath: "/users/octocat")
            let result = try await BinaryRunner.run(["show", "octocat", "--timeout", "1"] + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("octocat\t1\t"))
            #expect(server.requests.count == 2)
            report("hang, --timeout 1", result, requests: server.requests.count)
        }
        // Cut at the timeout, not sooner: an answer a quarter of it late is waited for, on the first attempt.
        try await withServer(latency: 250) { server in
            let result = try await BinaryRunner.run(["show", "octocat", "--timeout", "1"] + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(server.requests.count == 1)
        }
    }

    @Test func aHangThatNeverEndsFailsWithATimeout() async throws {
        try await withServer { server in
            server.injectFaults(Array(repeating: .hang(seconds: 10), count: 3), forPath: "/users/octocat")
            let result = try await BinaryRunner.run(
                ["show", "octocat", "--timeout", "0.5", "--retries", "1"] + api(server))
            #expect(result.status == 1)
            // What was tried and what to check (MessagesEndToEndTests has the whole text of a refusal).
            #expect(result.stderr.hasPrefix("gh-users: network error: the request timed out, after 2 attempts over "))
            #expect(result.stderr.hasSuffix("and the network; --timeout SECONDS gives each attempt longer.\n"))
            // Each attempt was cut at its timeout, not sooner: `aHangIsCutAtTheTimeoutAndRetried`'s late answer.
            #expect(server.requests.count == 2)
            report("hang on every request, --timeout 0.5 --retries 1", result, requests: server.requests.count)
        }
    }

    @Test func malformedJSONFailsAtOnceNamingTheEndpoint() async throws {
        try await withServer { server in
            server.injectFaults([.malformedBody], forPath: "/users")
            let result = try await BinaryRunner.run(["list", "--json"] + api(server))
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("gh-users: malformed response from GET /users?since=0&per_page=30: "))
            #expect(server.requests.count == 1)
            report("malformed JSON", result, requests: server.requests.count)
        }
    }

    @Test(arguments: [
        ("secondary limit: 403 with Retry-After: 1", StandInFault.secondaryRateLimit(retryAfterSeconds: 1)),
        (
            "429 with Retry-After: 1",
            .status(429, body: #"{"message":"Too Many Requests"}"#, headers: ["Retry-After": "1"])
        ),
    ])
    func secondaryLimitsWaitRetryAfterAndSaySo(name: String, fault: StandInFault) async throws {
        try await withServer { server in
            server.injectFaults([fault], forPath: "/users")
            let result = try await BinaryRunner.run(["list", "--limit", "10"] + api(server))
            #expect(result.status == 0)
            #expect(ids(result.stdout).count == 10)
            #expect(result.stderr == "gh-users: GitHub's secondary rate limit: waiting 1s before retrying\n")
            #expect(server.requests.count == 2)
            // The retry came once the second had passed: the stand-in counts any that came sooner.
            #expect(server.requestsTooEarly == 0)
            report(name, result, requests: server.requests.count)
        }
    }

    @Test func aSpentPrimaryLimitExitsFiveAtOnceWithTheResetTime() async throws {
        try await withServer { server in
            server.injectFaults([.primaryRateLimitExhausted(resetAfterSeconds: 754)], forPath: "/users")
            let result = try await BinaryRunner.run(["list", "--json"] + api(server))
            #expect(result.status == 5)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("gh-users: API rate limit exceeded"))
            #expect(result.stderr.contains("It resets at "))
            #expect(result.stderr.contains(", in 12m"))
            #expect(result.stderr.contains("--wait-on-rate-limit"))
            #expect(server.requests.count == 1)
            report("primary limit spent", result, requests: server.requests.count)
        }
    }

    @Test func waitingOnTheRateLimitCarriesOnAndLosesNothing() async throws {
        try await withServer(users: 450) { server in
            server.injectFaults(
                [.passThrough, .passThrough, .primaryRateLimitExhausted(resetAfterSeconds: 1)], forPath: "/users")
            let result = try await BinaryRunner.run(["list", "--all", "--wait-on-rate-limit"] + api(server))
            #expect(result.status == 0)
            #expect(ids(result.stdout) == server.population.users.map(\.id))
            // One wait for the reset GitHub named, announced. A reset a second away can pass while the answer is
            // read on a loaded machine: within two seconds it is still "spent; waiting … for its reset", past them
            // a limit "still spent after its reset". Never GitHub's minute, as for no reset at all.
            #expect(result.stderr.hasPrefix("gh-users: the rate limit is "), "\(result.stderr)")
            #expect(result.stderr.contains("; waiting ") && result.stderr.contains("reset at "), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(server.requests.count == 6)
            // Nothing was asked again before the reset the spent limit named.
            #expect(server.requestsTooEarly == 0)
            report("primary limit spent, --wait-on-rate-limit", result, requests: server.requests.count)
        }
    }

    @Test func aListThroughAStreamOfFaultsWritesEveryAccountOnceInOrder() async throws {
        try await withServer(users: 1200) { server in
            server.injectFaults(
                [
                    .passThrough, .status(502, body: "<html>Bad Gateway</html>"), .passThrough, .truncatedBody,
                    .closeWithoutResponse, .passThrough, .status(503, body: "{}"), .passThrough,
                    .secondaryRateLimit(retryAfterSeconds: 1), .passThrough, .status(500, body: "{}"), .truncatedBody,
                    .status(504, body: "{}"),
                ],
                forPath: "/users"
            )
            let result = try await BinaryRunner.run(["list", "--all", "--format", "ndjson"] + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            let written = try result.stdout.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["id"] as? Int
            }
            #expect(written == server.population.users.map(\.id))
            // 12 pages, plus one request more for each of the 8 faults.
            #expect(server.requests.count == 12 + 8)
            report("8 mixed faults across a 12-page list --all", result, requests: server.requests.count)
        }
    }

    @Test func badCredentialsAreExitFourWithAHint() async throws {
        try await withServer { server in
            // The stand-in accepts every token: GitHub's answer to one it does not know is queued, as the stand-in
            // used to send it.
            let badCredentials =
                #"{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}"#
            server.injectFaults([.status(401, body: badCredentials)], forPath: "/users/octocat")
            let result = try await BinaryRunner.run(
                ["show", "octocat"] + api(server), environment: ["GH_TOKEN": "bad-token-5678"])
            #expect(result.status == 4)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("gh-users: authentication failed (HTTP 401: Bad credentials)"))
            // The variable the token came from, not another one to check.
            #expect(result.stderr.contains("The token was refused: check GH_TOKEN; it may be expired or revoked."))
            #expect(!result.stderr.contains("bad-token-5678"))
            #expect(server.requests.count == 1)
            report("401 bad credentials", result, requests: server.requests.count)
        }
    }

    @Test func aForbiddenThatIsNotARateLimitIsExitFour() async throws {
        try await withServer { server in
            server.injectFaults(
                [.status(403, body: #"{"message":"Resource not accessible by integration"}"#)],
                forPath: "/users/octocat")
            let result = try await BinaryRunner.run(["show", "octocat"] + api(server))
            #expect(result.status == 4)
            #expect(result.stderr.contains("HTTP 403: Resource not accessible by integration"))
            #expect(server.requests.count == 1)
            report("403 that is not a rate limit", result, requests: server.requests.count)
        }
    }

    /// Neither the token nor the request goes there: another origin's answer would pass for GitHub's.
    @Test func theTokenNeverFollowsARedirectToAnotherHost() async throws {
        try await withServer { origin in
            try await withServer { elsewhere in
                origin.injectFaults([.redirect(to: elsewhere.baseURL + "/users/octocat")], forPath: "/users/octocat")
                let token = "ghp_redirectSecret42"
                let result = try await BinaryRunner.run(
                    ["show", "octocat", "--json"] + api(origin), environment: ["GH_TOKEN": token])
                #expect(result.status == 1, "\(result.stderr)")
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.contains("the server redirected to another server, "))
                #expect(origin.requests.first?.header("authorization") == "Bearer \(token)")
                #expect(elsewhere.requests.isEmpty)
                report(
                    "redirect to another host (refused)", result,
                    requests: origin.requests.count + elsewhere.requests.count)
            }
        }
    }

    @Test func theTokenFollowsARedirectOnTheSameOrigin() async throws {
        try await withServer { server in
            server.injectFaults([.redirect(to: server.baseURL + "/users/Octocat")], forPath: "/users/octocat")
            let result = try await BinaryRunner.run(
                ["show", "octocat"] + api(server), environment: ["GH_TOKEN": "same-origin-token"])
            #expect(result.status == 0)
            #expect(server.requests.count == 2)
            #expect(server.requests.allSatisfy { $0.header("authorization") == "Bearer same-origin-token" })
        }
    }

    @Test func anInterruptStopsPromptlyAndLeavesValidJSONAndAResumePoint() async throws {
        // 30,000 accounts at 150 ms a page take 45 s to crawl: stopping well inside 20 s is the interrupt working.
        try await withServer(users: 30000, latency: 150) { server in
            let result = try await BinaryRunner.run(["list", "--all", "--json"] + api(server), interruptAfter: 0.5)
            // Ended by SIGINT itself once the output is closed, as a shell's loop needs to stop.
            #expect(result.status == 130 && result.signal == SIGINT)
            let array = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            let written = array.compactMap { $0["id"] as? Int }
            #expect(!written.isEmpty)
            #expect(written == Array(server.population.users.map(\.id).prefix(written.count)))
            #expect(result.stderr.contains("gh-users: interrupted"))
            #expect(result.stderr.contains("gh-users list --since \(try #require(written.last))"))
            report("SIGINT during list --all (150 ms latency)", result, requests: server.requests.count)
        }
    }

    @Test func anInterruptDuringARateLimitWaitStopsAtOnce() async throws {
        try await withServer { server in
            server.injectFaults([.secondaryRateLimit(retryAfterSeconds: 30)], forPath: "/users")
            // The announcement of the wait is the first output; the interrupt comes while it waits.
            // A run that waited the 30 s out is killed at 25 s (status 137), never 130.
            let result = try await BinaryRunner.run(["list"] + api(server), timeout: 25, interruptAfter: 0.3)
            #expect(result.status == 130)
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func theTokenFileIsUsedAndAReadableOneIsWarnedAbout() async throws {
        try await withServer { server in
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "gh-users-token-\(UUID().uuidString)"
            ).path
            _ = FileManager.default.createFile(
                atPath: path, contents: Data("file-token-9876\n".utf8), attributes: [.posixPermissions: 0o644])
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = try await BinaryRunner.run(
                ["show", "octocat", "--token-file", path] + api(server), environment: ["GH_TOKEN": "env-token"])
            #expect(result.status == 0)
            #expect(server.requests.first?.header("authorization") == "Bearer file-token-9876")
            #expect(result.stderr.contains("can be read by others"))
            #expect(!result.stderr.contains("file-token-9876"))
        }
    }

    @Test func theDebugTraceShowsHeadersButNeverTheToken() async throws {
        try await withServer { server in
            let token = "ghp_debugTraceSecret77"
            let result = try await BinaryRunner.run(
                ["show", "octocat", "--debug"] + api(server), environment: ["GH_TOKEN": token])
            #expect(result.status == 0)
            #expect(result.stderr.contains("Authorization: Bearer ***"))
            #expect(result.stderr.contains("X-GitHub-Api-Version: 2022-11-28"))
            #expect(result.stderr.contains("← 200 GET \(server.baseURL)/users/octocat"))
            #expect(result.stderr.contains("x-ratelimit-remaining="))
            #expect(!result.stderr.contains(token))
        }
    }
}
