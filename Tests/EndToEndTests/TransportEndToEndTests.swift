import Foundation
import GitHubStandIn
import TestSupport
import Testing

/// The built binary on what GitHub's answers carry and where they come from: the request id GitHub Support
/// asks for, redirects that leave the API's origin, and response heads no server should send. stdout, stderr
/// and the exit status are checked separately. A 422's reasons are `CommandErrorTests`'.
struct TransportEndToEndTests {
    private static let requestID = "CB8A:3A5F:1D2E3F4:1E3C5D6:65A1B2C3"

    private func withServer<T>(_ body: (StandInServer) async throws -> T) async throws -> T {
        try await withStandIn(users: 100, body)
    }

    private func api(_ server: StandInServer) -> [String] { ["--api-url", server.baseURL] }

    /// A loopback server that answers every request with `head` and then `body`.
    private func raw(_ head: String, body: String = "") throws -> RawTestServer {
        try RawTestServer { connection in
            _ = connection.write(head + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        }
    }

    // MARK: 19.11 The request id

    /// A malformed answer still names its request id; a failure with no answer has none. (A 404's and a 500's
    /// are `CommandErrorTests.everyFailureGitHubAnsweredNamesItsRequestID`.)
    @Test func aMalformedAnswerNamesItsRequestIDAndNoAnswerHasNone() async throws {
        try await withServer { server in
            server.injectFaults([.malformedBody], forPath: "/users/octocat")
            let malformed = try await BinaryRunner.run(["show", "octocat"] + api(server))
            #expect(malformed.status == 1)
            #expect(malformed.stderr.hasPrefix("gh-users: malformed response from GET /users/octocat: "))
            #expect(malformed.stderr.contains("\nrequest id: "))

            // A failure with no answer has no request id.
            let down = try await BinaryRunner.run([
                "show", "octocat", "--api-url", "http://127.0.0.1:9", "--retries", "0",
            ])
            #expect(down.status == 1)
            #expect(!down.stderr.contains("request id"))
        }
    }

    @Test func theDebugTracesResponseLineCarriesIt() async throws {
        try await withServer { server in
            server.injectFaults(
                [
                    .status(
                        200, body: #"{"login":"octocat","id":1}"#, headers: ["X-GitHub-Request-Id": Self.requestID])
                ], forPath: "/users/octocat")
            let result = try await BinaryRunner.run(["show", "octocat", "--debug"] + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            let line = try #require(result.stderr.split(separator: "\n").first { $0.contains("← 200 GET") })
            #expect(line.contains("x-github-request-id=\(Self.requestID)"), "\(line)")
        }
    }

    // MARK: 20.10 A read never lands on another origin

    /// Before: the other server's accounts were written as GitHub's, exit 0. The refusal names the redirect's
    /// request id, as every refusal of an answer does (before issue 38, it named none).
    @Test func aListRedirectedToAnotherServerWritesNothingOfIt() async throws {
        try await withServer { origin in
            try await withServer { elsewhere in
                origin.injectFaults(
                    [.redirect(to: elsewhere.baseURL + "/users?since=0", status: 302)], forPath: "/users")
                let result = try await BinaryRunner.run(
                    ["list", "--limit", "5"] + api(origin), environment: ["GH_TOKEN": "ghp_notForElsewhere2"])
                #expect(result.status == 1)
                #expect(result.stdout.isEmpty)
                let lines = result.stderr.components(separatedBy: "\n")
                let refusal: String =
                    "gh-users: network error: the server redirected to another server, "
                    + "http://127.0.0.1:\(URL(string: elsewhere.baseURL)!.port!), so it was not followed"
                #expect(lines.first == refusal, "\(result.stderr)")
                // The stand-in's ids are five hex groups, as GitHub's.
                #expect(lines.count == 3 && lines[1].wholeMatch(of: /request id: [0-9A-F]+(:[0-9A-F]+){4}/) != nil)
                #expect(elsewhere.requests.isEmpty)
                #expect(origin.requests.count == 1)
            }
        }
    }

    /// Before: `true` (exit 0) from the other server's 204.
    @Test func followsDoesNotAnswerFromAnotherServer() async throws {
        let elsewhere = try raw("HTTP/1.1 204 No Content\r\n")
        defer { elsewhere.stop() }
        let origin = try raw(
            "HTTP/1.1 302 Found\r\nLocation: \(elsewhere.baseURL)/users/a/following/b\r\n"
                + "X-GitHub-Request-Id: \(Self.requestID)\r\n")
        defer { origin.stop() }
        let result = try await BinaryRunner.run(["follows", "a", "b", "--api-url", origin.baseURL])
        // 2: `follows` could not answer (1 would mean "no").
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "gh-users: network error: the server redirected to another server, \(elsewhere.baseURL), "
                + "so it was not followed\nrequest id: \(Self.requestID)\n")
        #expect(elsewhere.requests.isEmpty)
    }

    /// `show` looks up its logins concurrently: every one refused at once, run after run of the binary users
    /// run, ends with one message (naming the first five) and exit 1, never a hang or a crash; its json is still one
    /// document, `[]`.
    @Test func concurrentLookupsRedirectedElsewhereAreRefusedRunAfterRun() async throws {
        let elsewhere = try raw("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n", body: #"{"login":"x","id":1}"#)
        defer { elsewhere.stop() }
        let origin = try raw("HTTP/1.1 302 Found\r\nLocation: \(elsewhere.baseURL)/users/x\r\n")
        defer { origin.stop() }
        let logins = (1...8).map { "user\($0)" }
        for run in 0..<15 {
            let result = try await BinaryRunner.run(
                ["show"] + logins + ["--json", "--concurrency", "8", "--api-url", origin.baseURL], timeout: 60)
            #expect(result.status == 1, "run \(run): \(result.stderr)")
            #expect(result.stdout == "[]\n", "run \(run): \(result.stdout)")
            #expect(
                result.stderr
                    == "gh-users: network error: the server redirected to another server, \(elsewhere.baseURL), "
                    + "so it was not followed (looking up 'user1', 'user2', 'user3', 'user4', 'user5' and 3 more)\n",
                "run \(run)")
        }
        #expect(elsewhere.requests.isEmpty)
    }

    /// GitHub's 301 for a renamed account stays on the API's host, and is followed.
    @Test func aRedirectOnTheSameOriginIsFollowed() async throws {
        try await withServer { server in
            let user = try #require(server.population.users.first)
            server.injectFaults([.redirect(to: server.baseURL + "/user/\(user.id)")], forPath: "/users/old-name")
            let result = try await BinaryRunner.run(["show", "old-name", "--json"] + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"login\": \"\(user.login)\""))
            #expect(result.stderr.isEmpty)
        }
    }

    // MARK: 19.10 The host that was tried, and a proxy only when there is one

    /// Before: "cannot connect to the proxy 127.0.0.2:9 … HTTPS_PROXY", with no proxy set.
    @Test func aRedirectToAnUnreachableHostNamesThatHostAndNoProxy() async throws {
        let origin = try raw("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.2:9/users/octocat\r\n")
        defer { origin.stop() }
        let result = try await BinaryRunner.run(["show", "octocat", "--api-url", origin.baseURL])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "gh-users: network error: the server redirected to another server, http://127.0.0.2:9, so it was "
                + "not followed\n")
        #expect(!result.stderr.lowercased().contains("proxy"))
    }

    // MARK: 20.12 Response heads

    /// A head too large in each way the transport limits. Each is 150–300 KiB, so the test's argument is its name:
    /// Swift Testing prints a case's arguments in the log, and heads this size once filled CI's log with 650 KB.
    enum LargeHead: CaseIterable, Sendable {
        case longLink, longValue, manyLines

        var header: String {
            switch self {
            case .longLink:
                "Link: <http://127.0.0.1/users?since=1" + String(repeating: "a", count: 150_000) + ">; rel=\"next\"\r\n"
            case .longValue: "X-Big: " + String(repeating: "b", count: 200_000) + "\r\n"
            case .manyLines: (0..<3_200).map { "X-H\($0): " + String(repeating: "v", count: 90) + "\r\n" }.joined()
            }
        }

        var reason: String {
            self == .manyLines ? "more than 300 KiB of headers in all" : "a header line is over 100 KiB"
        }
    }

    @Test(arguments: LargeHead.allCases)
    func aHeadTooLargeIsSaidAsSuch(_ head: LargeHead) async throws {
        let (header, reason) = (head.header, head.reason)
        let server = try raw("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + header, body: "[]")
        defer { server.stop() }
        let result = try await BinaryRunner.run(["list", "--api-url", server.baseURL])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        // Before: "gh-users: network error: Out of memory".
        #expect(
            result.stderr == "gh-users: network error: the server's headers are too large or malformed (\(reason))\n")
        #expect(server.requests.count == 1, "not retried")
    }

    /// Before: "gh-users: network error: Failed writing header".
    @Test func aLatin1HeaderByteIsSaidAsSuch() async throws {
        let server = try RawTestServer { connection in
            _ = connection.write(
                Array("HTTP/1.1 200 OK\r\nX-Name: caf".utf8) + [0xE9]
                    + Array("\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]".utf8))
        }
        defer { server.stop() }
        let result = try await BinaryRunner.run(["list", "--api-url", server.baseURL])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "gh-users: network error: the server's headers are too large or malformed (a header line is not "
                + "UTF-8 text or not a header)\n")
    }
}
