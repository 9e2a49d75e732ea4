import Foundation
import GitHubStandIn
import Testing

/// The messages of the hardening issue's item 22, through the built binary: a network error says what was
/// tried and what to do next, and `--verbose` prints words and never Swift values. GitHub's rate-limit message
/// said once is `CommandErrorTests`'.
struct MessagesEndToEndTests {
    private func withServer<T>(_ body: (StandInServer) async throws -> T) async throws -> T {
        let server = try StandInServer(configuration: StandInConfiguration(userCount: 100))
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    /// "after 4 attempts over 1.3 s": a number of seconds to a tenth, whose value depends on the random backoff.
    private func seconds(in line: Substring, attempts: Int) -> Bool {
        guard let range = line.range(of: ", after \(attempts) attempts over "), line.hasSuffix(" s") else {
            return false
        }
        let number = line[range.upperBound...].dropLast(2).split(separator: ".", omittingEmptySubsequences: false)
        return number.count == 2 && number[1].count == 1
            && number.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }

    /// An argument that is not UTF-8 is refused before anything is asked: Swift's arguments carry U+FFFD for its
    /// bytes, and `me edit --location` wrote that to the profile. (The request would have been the PATCH.)
    @Test func anArgumentThatIsNotUTF8IsRefusedBeforeAnything() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.shell(
                #""$GH_USERS" me edit --location "$(printf 'Z\377rich')" --api-url "$API""#,
                environment: ["API": server.baseURL, "GH_TOKEN": "gho_octocat"])
            #expect(result.status == 64)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "Error: argument 4 is not valid UTF-8, which gh-users would have to change to take it; nothing "
                    + "was done\n")
            #expect(server.requests.isEmpty)
        }
    }

    @Test func aRefusedConnectionSaysWhatWasTriedAndWhatToCheck() async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        let api = "http://127.0.0.1:\(port)"
        let result = try await BinaryRunner.run(["show", "octocat", "--api-url", api, "--retries", "3"])
        withExtendedLifetime(refusing) {}
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(
            lines.first?.hasPrefix(
                "gh-users: network error: cannot connect to 127.0.0.1:\(port) (refused or unreachable), after 4 "
                    + "attempts over ") == true, "\(result.stderr)")
        // The time the attempts took, in seconds to a tenth; what it adds up to is `TransportWordsTests`', on a
        // clock that moves only when the retries wait.
        #expect(lines.first.map { seconds(in: $0, attempts: 4) } == true, "\(result.stderr)")
        #expect(
            lines.dropFirst().first
                == "Check the API URL, \(api) (--api-url, GH_USERS_API_URL or GH_HOST), and the network.")
    }

    @Test func aNetworkErrorWithACachedCopyOffersOffline() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-e2e-msg-\(UUID())")
        defer { try? FileManager.default.removeItem(at: cache) }
        let api = try await withServer { server in
            let online = try await BinaryRunner.run(
                ["show", "octocat", "--api-url", server.baseURL, "--cache-dir", cache.path])
            #expect(online.status == 0)
            return server.baseURL
        }
        // The server is gone; --no-cache keeps the copy from answering, so the failure is shown.
        let result = try await BinaryRunner.run(
            ["show", "octocat", "--api-url", api, "--cache-dir", cache.path, "--no-cache", "--retries", "0"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 3, "\(result.stderr)")
        let port = URL(string: api)!.port!
        #expect(
            lines.first?.hasPrefix(
                "gh-users: network error: cannot connect to 127.0.0.1:\(port) (refused or unreachable), after 1 "
                    + "attempt over ") == true, "\(result.stderr)")
        #expect(lines.last == "A copy of GET /users/octocat is in the cache: --offline answers from it.")
        let offline = try await BinaryRunner.run(
            ["show", "octocat", "--api-url", api, "--cache-dir", cache.path, "--offline"])
        #expect(offline.status == 0)
        #expect(offline.stdout.contains("octocat"))
    }

    /// Every retry and every failed attempt, as `--verbose` and `--debug` print them, in words.
    @Test(arguments: [["--verbose"], ["--debug"]])
    func verboseNeverPrintsSwiftValues(flags: [String]) async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        let refused = try await BinaryRunner.run(
            ["show", "octocat", "--api-url", "http://127.0.0.1:\(port)", "--retries", "2"] + flags)
        withExtendedLifetime(refusing) {}
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "gh-users: info: GET http://127.0.0.1:\(port)/users/octocat: cannot connect to 127.0.0.1:\(port) "
                    + "(refused or unreachable); retry 1 of 2 in "), "\(refused.stderr)")
        #expect(!Self.looksLikeASwiftValue(refused.stderr), "\(refused.stderr)")

        // Whether the next attempt then succeeds is the resilience tests' business; here only the words count.
        for (fault, words) in [
            (StandInFault.truncatedBody, "the response was cut short"),
            (.closeWithoutResponse, "the connection was lost"),
        ] {
            try await withServer { server in
                server.injectFaults([fault], forPath: "/users/octocat")
                let result = try await BinaryRunner.run(
                    ["show", "octocat", "--api-url", server.baseURL, "--no-cache"] + flags)
                #expect(result.stderr.contains("/users/octocat: \(words); retry 1 of 3 in "), "\(result.stderr)")
                #expect(!Self.looksLikeASwiftValue(result.stderr), "\(result.stderr)")
            }
        }
    }

    /// What Swift prints for an enum value: `cannotConnect("…")`, `truncatedBody`, `transport(…)`.
    private static func looksLikeASwiftValue(_ text: String) -> Bool {
        let names = [
            "cannotConnect", "proxyUnreachable", "proxyRefused", "timedOut", "connectionLost", "truncatedBody",
            "untrustedCertificate", "nameMismatch", "responseTooLarge", "redirectRefused", "transport(", "other(",
            "redirectToAnotherOrigin", "malformedHeaders",
        ]
        return names.contains { text.contains($0) } || text.contains("(\"")
    }
}
