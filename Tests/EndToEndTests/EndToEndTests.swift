import Foundation
import GitHubStandIn
import Testing

/// The built binary against the GitHub stand-in on 127.0.0.1. Each test starts its own server on port 0. What
/// `list` and `show` print and their exit statuses are `ListCommandTests`' and `ShowCommandTests`'.
struct EndToEndTests {
    private func withServer<T>(
        users: Int = 1000,
        _ body: (StandInServer) async throws -> T
    ) async throws -> T {
        let server = try StandInServer(configuration: StandInConfiguration(userCount: users))
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    private func api(_ server: StandInServer) -> [String] { ["--api-url", server.baseURL] }

    private func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func listReturnsExactlyTheRightIdsAcrossPages() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.run(["list", "--limit", "250"] + api(server))
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty)
            let ids = result.stdout.split(separator: "\n").map { Int($0.split(separator: "\t")[0]) }
            #expect(ids == server.population.users.prefix(250).map(\.id))
            let requests = server.requests
            #expect(requests.count == 3)
            #expect(requests.allSatisfy { $0.query["per_page"] == "100" })
            // The second and third requests follow the Link header, whose cursor is the last id of the page before.
            #expect(requests[1].query["since"] == String(server.population.users[99].id))
        }
    }

    @Test func listOfAThousandTakesTenRequests() async throws {
        try await withServer(users: 1500) { server in
            let result = try await BinaryRunner.run(["list", "--limit", "1000", "--format", "ndjson"] + api(server))
            #expect(result.status == 0)
            #expect(result.stdout.split(separator: "\n").count == 1000)
            #expect(server.requests.count == 10)
        }
    }

    @Test func listSinceResumesAfterTheGivenId() async throws {
        try await withServer { server in
            let after = server.population.users[41].id
            let result = try await BinaryRunner.run(["list", "--since", String(after), "--limit", "3"] + api(server))
            let ids = result.stdout.split(separator: "\n").map { Int($0.split(separator: "\t")[0]) }
            #expect(ids == server.population.users[42..<45].map(\.id))
            #expect(server.requests.first?.query["per_page"] == "3")
        }
    }

    @Test func listAllReachesTheEnd() async throws {
        try await withServer(users: 345) { server in
            let result = try await BinaryRunner.run(["list", "--all", "--json"] + api(server))
            #expect(result.status == 0)
            let array = try #require(try json(result.stdout) as? [[String: Any]])
            #expect(array.compactMap { $0["id"] as? Int } == server.population.users.map(\.id))
            #expect(server.requests.count == 4)
        }
    }

    @Test func everyRequestCarriesGitHubsHeaders() async throws {
        try await withServer { server in
            let token = "ghp_e2eTokenValue0123456789"
            let result = try await BinaryRunner.run(
                ["list", "--limit", "150", "--debug"] + api(server),
                environment: ["GH_TOKEN": token]
            )
            #expect(result.status == 0)
            let requests = server.requests
            #expect(requests.count == 2)
            for request in requests {
                #expect(request.header("user-agent") == "gh-users/0.1.0")
                #expect(request.header("accept") == "application/vnd.github+json")
                #expect(request.header("x-github-api-version") == "2022-11-28")
                #expect(request.header("authorization") == "Bearer \(token)")
            }
            // The debug trace shows the requests but never the token.
            #expect(result.stderr.contains("GET \(server.baseURL)/users"))
            #expect(!result.stderr.contains(token))
            #expect(!result.stdout.contains(token))
        }
    }

    @Test func tsvIsThePipedDefaultAndNeverCarriesControlCharacters() async throws {
        try await withServer { server in
            let logins = [
                "ansi-red", "bell-ringer", "c1-csi", "bidi-override", "osc8-link", "tabby-newline", "nul-byte",
                "del-char",
            ]
            let result = try await BinaryRunner.run(["show"] + logins + api(server))
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == logins.count)
            #expect(lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 15 })
            let forbidden = result.stdout.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E
            }
            #expect(forbidden.isEmpty, "control characters reached stdout: \(forbidden.map(\.value))")
        }
    }

    /// csv to a terminal whose `TERM` is dumb (Emacs's shell, which acts on colour and OSC 8 links) still shows
    /// GitHub's escapes as text. Before, `TERM=dumb` counted as no terminal for this too, and csv sent them raw as
    /// data (a review's find).
    @Test func csvToADumbTerminalShowsEscapesAsText() async throws {
        try await withServer { server in
            let show = #""$GH_USERS" show osc8-link ansi-red --format csv --fields login,bio --api-url "$API""#
            let result = try await BinaryRunner.shell(
                "TERM=dumb script -qec '\(show)' /dev/null", environment: ["API": server.baseURL])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(#"\e]8;;https://evil.example\aclick"#), "\(result.stdout)")
            #expect(!result.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(result.stdout)")
        }
    }

    /// A write that asks first, at a terminal whose `TERM` is dumb, is refused saying so, not that there is no
    /// terminal (helper-340's E4: Emacs's shell is one), and nothing is sent.
    @Test func aQuestionAtADumbTerminalIsRefusedSayingWhy() async throws {
        try await withServer { server in
            let block = #""$GH_USERS" block octocat --api-url "$API""#
            let result = try await BinaryRunner.shell(
                "TERM=dumb GH_TOKEN=gho_octocat script -qec '\(block)' /dev/null", environment: ["API": server.baseURL])
            #expect(result.status == 64, "\(result.stdout) \(result.stderr)")
            #expect(
                (result.stdout + result.stderr).contains("needs --yes when TERM=dumb, which counts as no terminal"),
                "\(result.stdout) \(result.stderr)")
            #expect(!server.requests.contains { $0.method == "PUT" }, "\(server.requests.map(\.path))")
        }
    }

    @Test func serverErrorMidCrawlKeepsJSONValidAndNamesTheResumePoint() async throws {
        try await withServer { server in
            // The first page is served; the second gets a 500, and with no retries that ends the crawl.
            server.injectFaults([.passThrough, .status(500, body: #"{"message":"Server Error"}"#)], forPath: "/users")
            let result = try await BinaryRunner.run(
                ["list", "--limit", "300", "--json", "--retries", "0"] + api(server)
            )
            #expect(result.status == 1)
            let array = try #require(try json(result.stdout) as? [[String: Any]])
            #expect(array.compactMap { $0["id"] as? Int } == server.population.users.prefix(100).map(\.id))
            #expect(result.stderr.contains("HTTP 500"))
            #expect(result.stderr.contains("gh-users list --since \(server.population.users[99].id)"))
        }
    }

    @Test func aClosedStdoutEndsQuietlyAndStopsFetching() async throws {
        try await withServer(users: 30000) { server in
            let result = try await BinaryRunner.shell(
                #""$GH_USERS" list --all --api-url "$API" 2>stderr.txt | head -n 1; echo "status=${PIPESTATUS[0]}"; cat stderr.txt"#,
                environment: ["API": server.baseURL]
            )
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 2, "\(result.stdout)")
            #expect(lines.first?.hasPrefix(String(server.population.users[0].id)) == true)
            #expect(lines.last == "status=0" || lines.last == "status=141")
            #expect(server.requests.count < 300)
        }
    }

    @Test func helpAndVersionNeedNoServer() async throws {
        let help = try await BinaryRunner.run(["help", "list"])
        let flag = try await BinaryRunner.run(["list", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout == flag.stdout)
        #expect(help.stdout.contains("USAGE"))
        let version = try await BinaryRunner.run(["--version"])
        #expect(version.stdout == "gh-users 0.1.0\n")
    }

    @Test func aRefusedConnectionIsANetworkError() async throws {
        let result = try await BinaryRunner.run(["show", "octocat", "--api-url", "http://127.0.0.1:1"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("gh-users: network error"))
    }
}
