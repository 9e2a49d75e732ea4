import Foundation
import GitHubStandIn
import Testing

/// follow and unfollow keep their promises: one write at a time at least a second apart (retries included),
/// never re-sent to a redirect's Location, and unfollowing several asks on the terminal, as `gh` does.
struct WriteCommandEndToEndTests {
    private func withServer<T>(_ body: (StandInServer) async throws -> T) async throws -> T {
        try await withStandIn(users: 1000, body)
    }

    private let token = ["GH_TOKEN": StandInTokens.token(for: "octocat")]

    /// `| head -1` leaves after the first record: the next write is not sent (before, one more was), and stderr
    /// says what is left. The spacing between writes gives the reader a second to leave.
    @Test func aReaderThatLeftStopsTheWritesBeforeTheNextOne() async throws {
        try await withServer { server in
            let targets = server.population.users.map(\.login).filter {
                $0 != "octocat" && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
            }.prefix(3)
            let result = try await BinaryRunner.shell(
                #""$GH_USERS" follow --yes --format tsv --api-url "$API" "#
                    + targets.joined(separator: " ") + " | head -1",
                environment: token.merging(["API": server.baseURL]) { $1 })
            #expect(result.stdout == "\(targets[targets.startIndex])\tfollow\tfollowed\n", "\(result.stderr)")
            #expect(server.requests.filter { $0.method == "PUT" }.count == 1)
            #expect(
                result.stderr.hasSuffix(
                    "1 done, 2 not sent; output stopped. To finish: gh-users follow --yes --format tsv --api-url "
                        + "\(server.baseURL) "
                        + targets.dropFirst().joined(separator: " ") + "\n"), "\(result.stderr)")
        }
    }

    /// `>&-`: a closed stdout is exit 1 before anything is sent, where the first write used to go out and only
    /// its record failed, with "bad file descriptor".
    @Test func aClosedStdoutSendsNothing() async throws {
        try await withServer { server in
            let target = try #require(
                server.population.users.map(\.login).first {
                    $0 != "octocat" && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
                })
            let result = try await BinaryRunner.shell(
                #""$GH_USERS" follow --yes --api-url "$API" "# + target + " >&-",
                environment: token.merging(["API": server.baseURL]) { $1 })
            #expect(result.status == 1)
            #expect(
                result.stderr
                    == "gh-users: stdout is closed, so the record of each account would have nowhere to go; nothing "
                    + "was sent\n")
            #expect(!server.requests.contains { $0.method == "PUT" })
        }
    }

    /// A one-shot `--token-file <(…)` is left out of the command to finish, and stderr says to give it again:
    /// before, the note was missing and the command as printed failed with exit 4.
    @Test func aOneShotTokenFileIsNamedUnderTheCommandToFinish() async throws {
        try await withServer { server in
            let targets = server.population.users.map(\.login).filter {
                $0 != "octocat" && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
            }.prefix(2)
            server.injectFaults(
                [.primaryRateLimitExhausted(resetAfterSeconds: 600)], forPath: "/user/following/\(targets.last!)")
            let result = try await BinaryRunner.shell(
                #""$GH_USERS" follow --yes --retries 0 --api-url "$API" --token-file <(printf '%s\n' "$TOKEN") "#
                    + targets.joined(separator: " "),
                environment: ["API": server.baseURL, "TOKEN": StandInTokens.token(for: "octocat")])
            #expect(result.status == 5, "\(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            let finish = try #require(lines.first { $0.contains("To finish: ") })
            #expect(
                finish.hasSuffix(
                    "To finish: gh-users follow --yes --api-url \(server.baseURL) --retries 0 \(targets.last!)"),
                "\(finish)")
            #expect(
                lines.last?.hasPrefix("The token came from /dev/fd/") == true
                    && lines.last?.hasSuffix(
                        "which cannot be read again: give it again, with --token-file or GH_TOKEN (GH_ENTERPRISE_TOKEN for a "
                            + "GitHub Enterprise host).")
                        == true,
                "\(result.stderr)")
        }
    }

    /// `--token-file /dev/stdin` reads stdin to its end, so `-` would find no logins and the run do nothing with
    /// exit 0: it is a usage error, and nothing is sent (the README shows `--token-file /dev/stdin`).
    @Test func aTokenFromStdinLeavesNoLoginsForDash() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.shell(
                #"printf '%s\n' "$TOKEN" | "$GH_USERS" follow - --api-url "$API" --token-file /dev/stdin"#,
                environment: ["API": server.baseURL, "TOKEN": StandInTokens.token(for: "octocat")])
            #expect(result.status == 64, "\(result.stderr)")
            #expect(
                result.stderr.contains("--token-file /dev/stdin read stdin for the token, so - has no logins left"),
                "\(result.stderr)")
            #expect(!server.requests.contains { $0.method == "PUT" })
        }
    }

    @Test func aWriteAnswered500IsRetriedASecondApart() async throws {
        try await withServer { server in
            let error = StandInFault.status(500, body: #"{"message":"Server Error"}"#)
            server.injectFaults([error, error], forPath: "/user/following/Yamada-Taro")
            let result = try await BinaryRunner.run(
                ["follow", "Yamada-Taro", "--format", "tsv", "--api-url", server.baseURL], environment: token)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "Yamada-Taro\tfollow\tfollowed\n")
            let writes = server.requests.filter { $0.method == "PUT" }
            #expect(writes.count == 3)
            for (earlier, later) in zip(writes, writes.dropFirst()) {
                #expect(later.receivedAt - earlier.receivedAt >= .seconds(1))
            }
        }
    }

    /// A 302 to another account's path on the same host, or a 307 to another host: the write fails for that
    /// account, nothing is sent to the Location, and the token stays home.
    @Test(arguments: [302, 307])
    func aWriteNeverFollowsARedirect(status: Int) async throws {
        try await withServer { origin in
            try await withServer { elsewhere in
                let target = (status == 302 ? origin : elsewhere).baseURL + "/user/following/octocat"
                origin.injectFaults([.redirect(to: target, status: status)], forPath: "/user/following/Yamada-Taro")
                let result = try await BinaryRunner.run(
                    ["follow", "Yamada-Taro", "--format", "tsv", "--api-url", origin.baseURL], environment: token)
                #expect(result.status == 1, "\(result.stderr)")
                #expect(result.stdout.hasPrefix("Yamada-Taro\tfollow\tfailed: "), "\(result.stdout)")
                #expect(result.stdout.contains("redirected to \(target)"), "\(result.stdout)")
                #expect(!result.stdout.contains("\tfollowed"))
                #expect(origin.requests.map { "\($0.method) \($0.path)" } == ["PUT /user/following/Yamada-Taro"])
                #expect(elsewhere.requests.isEmpty)
            }
        }
    }

    /// `unfollow -` with the logins piped in and a terminal present: the accounts are listed and the question
    /// is asked on the terminal (a pty from `script`, whose own stdin types the answer).
    @Test(arguments: [("y", 2), ("n", 0)])
    func unfollowFromStdinAsksOnTheTerminal(answer: String, deletes: Int) async throws {
        try await withServer { server in
            let command =
                #"printf 'octocat\nYamada-Taro\n' | "$GH_USERS" unfollow - --format tsv --api-url "#
                + server.baseURL
            let result = try await BinaryRunner.shell(
                "cat > unfollow.sh <<'END'\n\(command)\nEND\nprintf '\(answer)\\n' | script -qec 'bash unfollow.sh' /dev/null",
                environment: token, timeout: 30)
            #expect(result.stdout.contains("To unfollow: octocat, Yamada-Taro"), "\(result.stdout)")
            #expect(result.stdout.contains("Unfollow 2 accounts? [y/N]"))
            #expect(result.status == (deletes > 0 ? 0 : 1), "\(result.stdout)")
            #expect(server.requests.filter { $0.method == "DELETE" }.count == deletes)
        }
    }
}
