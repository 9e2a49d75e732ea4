import Foundation
import GitHubStandIn
import TestSupport
import Testing

/// The built binary against servers that send what no server should: numbers out of every range, paging that
/// never ends, bodies without end, waits of days, certificates nobody trusts. stdout, stderr and the exit
/// status are checked separately.
struct HostileServerEndToEndTests {
    private func withServer<T>(_ body: (StandInServer) async throws -> T) async throws -> T {
        let server = try StandInServer(configuration: StandInConfiguration(userCount: 100))
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    private func api(_ server: StandInServer) -> [String] { ["--api-url", server.baseURL] }

    private func ids(_ tsv: String) -> [Int] {
        tsv.split(separator: "\n").compactMap { Int($0.split(separator: "\t")[0]) }
    }

    /// A page of `/users` with these ids and, when given, a `Link` to the next one.
    private func page(_ ids: [Int], next: String?) -> StandInFault {
        let body =
            "["
            + ids.map { #"{"login":"user\#($0)","id":\#($0),"type":"User","site_admin":false}"# }
            .joined(separator: ",") + "]"
        return .status(200, body: body, headers: next.map { ["Link": "<\($0)>; rel=\"next\""] } ?? [:])
    }

    // MARK: 4. No crash on any server value

    @Test(arguments: [
        ("nan", [String]()), ("1e19", []), ("1e308", []), ("nan", ["--wait-on-rate-limit"]),
        ("1e308", ["--wait-on-rate-limit"]),
    ])
    func aResetOutOfRangeIsMalformedNotACrash(reset: String, flags: [String]) async throws {
        try await withServer { server in
            server.injectFaults(
                [
                    .status(
                        403, body: #"{"message":"API rate limit exceeded"}"#,
                        headers: [
                            "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset, "X-GitHub-Request-Id": "R:1",
                        ])
                ],
                forPath: "/users")
            let result = try await BinaryRunner.run(["list", "--json"] + flags + api(server))
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "gh-users: malformed response from GET /users?since=0&per_page=30: x-ratelimit-reset '\(reset)' "
                    + "is not a time in whole seconds since 1970 (up to year 9999)\nrequest id: R:1\n")
            #expect(server.requests.count == 1)
        }
    }

    @Test func aRetryAfterOutOfRangeIsMalformedNotACrash() async throws {
        try await withServer { server in
            server.injectFaults(
                [
                    .status(
                        429, body: #"{"message":"slow"}"#,
                        headers: ["Retry-After": "9223372036854775807", "X-GitHub-Request-Id": "R:2"])
                ],
                forPath: "/users/octocat")
            let result = try await BinaryRunner.run(["show", "octocat"] + api(server))
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "gh-users: malformed response from GET /users/octocat: Retry-After '9223372036854775807' is "
                    + "neither a number of seconds up to 2147483648 nor an HTTP date\nrequest id: R:2\n")
            #expect(server.requests.count == 1)
        }
    }

    // MARK: 5. Paging always ends

    @Test func aCycleOfNextLinksStopsWithTheResumeHint() async throws {
        try await withServer { server in
            let base = server.baseURL
            server.injectFaults(
                [
                    page([1, 2], next: base + "/users?p=B"), page([3, 4], next: base + "/users?p=C"),
                    page([5, 6], next: base + "/users?p=B"),
                ]
                    + Array(repeating: page([7], next: base + "/users?p=C"), count: 20),
                forPath: "/users")
            let result = try await BinaryRunner.run(["list", "--all"] + api(server), timeout: 30)
            #expect(result.status == 1)
            #expect(ids(result.stdout) == [1, 2, 3, 4, 5, 6])
            #expect(
                result.stderr
                    == "gh-users: malformed response from GET \(base)/users?p=B: the next page's link or cursor leads back to a "
                    + "page already read, so paging stopped\nTo continue from here: gh-users list --since 6 --all --api-url \(base)\n"
            )
            #expect(server.requests.count == 3)
        }
    }

    @Test func pagesThatBringNothingNewStopWithTheResumeHint() async throws {
        try await withServer { server in
            let base = server.baseURL
            server.injectFaults(
                (1...20).map { page([1, 2], next: base + "/users?since=0&round=\($0)") }, forPath: "/users")
            let result = try await BinaryRunner.run(["list", "--all", "--json"] + api(server), timeout: 30)
            #expect(result.status == 1)
            let written = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            #expect(written.compactMap { $0["id"] as? Int } == [1, 2])
            #expect(result.stderr.contains(": the page brought nothing new (all of it was already written)"))
            #expect(
                result.stderr.hasSuffix(
                    "\nTo continue from here: gh-users list --since 2 --all --format json --api-url \(base)\n"))
            // The third page may have gone out on the second page's head, before its body showed nothing new
            // (issue 29); it is cancelled then, and paging stops there.
            #expect((2...3).contains(server.requests.count))
        }
    }

    @Test func aNextLinkToAnotherServerIsNotFollowed() async throws {
        try await withServer { origin in
            try await withServer { elsewhere in
                origin.injectFaults([page([1, 2], next: elsewhere.baseURL + "/users?since=2")], forPath: "/users")
                let result = try await BinaryRunner.run(
                    ["list", "--all"] + api(origin), environment: ["GH_TOKEN": "ghp_notForElsewhere1"])
                #expect(result.status == 1)
                #expect(ids(result.stdout) == [1, 2])
                #expect(
                    result.stderr
                        == "gh-users: malformed response from GET /users: the next-page link leads to another server "
                        + "(http://127.0.0.1:\(URL(string: elsewhere.baseURL)!.port!)), so paging stopped there; if "
                        + "that is this server's own name (an Enterprise Server writes its links with the host name it "
                        + "was set up with), give the API URL with that name\n"
                        + "To continue from here: gh-users list --since 2 --all --api-url \(origin.baseURL)\n")
                // Before, its accounts were written as if the first server had sent them.
                #expect(elsewhere.requests.isEmpty)
            }
        }
    }

    @Test func aRedirectToAFileURLIsRefused() async throws {
        try await withServer { server in
            server.injectFaults([.redirect(to: "file:///etc/hostname", status: 302)], forPath: "/users/octocat")
            let result = try await BinaryRunner.run(["show", "octocat", "--json"] + api(server))
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            // The redirect is the server's answer: its request id is named, as every refusal of an answer's is.
            let lines = result.stderr.components(separatedBy: "\n")
            let refusal: String =
                "gh-users: network error: the server redirected to file:///etc/hostname, which is not http or "
                + "https, so it was not followed"
            #expect(lines.first == refusal, "\(result.stderr)")
            #expect(lines.count == 3 && lines[1].wholeMatch(of: /request id: [0-9A-F]+(:[0-9A-F]+){4}/) != nil)
            // Left alone, URLSession asks the same server for /etc/hostname twenty times.
            #expect(server.requests.count == 1)
        }
    }

    // MARK: 6. Bounded responses

    /// A `Content-Length` past what can be had is a body cut short, exit 1: the buffer made at the announced size
    /// trapped in `Data(capacity:)` (SIGILL, exit 132, no word) under a `ulimit -v` gh-users accepts at the default
    /// 64 MiB cap, and at a terabyte under a cap raised to allow it (helper-292).
    @Test(arguments: [
        ("ulimit -v 400000; ", 67_108_864), (#"export GH_USERS_MAX_RESPONSE_BYTES=1024G; "#, 1_000_000_000_000),
    ])
    func aLengthPastWhatCanBeHadIsABodyCutShort(limit: String, length: Int) async throws {
        let server = try RawTestServer { connection in
            connection.write(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n"
                    + "Connection: close\r\n\r\n[]")
        }
        defer { server.stop() }
        let result = try await BinaryRunner.shell(
            limit + #""$GH_USERS" list --api-url "$API" --no-cache --retries 0"#, environment: ["API": server.baseURL])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("gh-users: network error: the response was cut short"), "\(result.stderr)")
    }

    @Test func aBodyWithoutEndIsCutAtTheCapAndMemoryStaysFlat() async throws {
        // A gibibyte takes over five seconds to write at this pace: room for a late abort on a busy machine.
        let total = 1024 << 20
        let server = try RawTestServer { connection in
            guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[")
            else { return }
            // A mebibyte every 5 ms: a fast network's pace, so the abort is measured and not loopback's speed.
            let chunk = [UInt8](repeating: 0x20, count: 1 << 20)
            var sent = 0
            while sent < total, connection.write(chunk) {
                sent += chunk.count
                usleep(5_000)
            }
        }
        defer { server.stop() }
        let result = try await BinaryRunner.shell(
            BinaryRunner.watchingPeakRSS(#""$GH_USERS" list --api-url "$API" > out 2> err"#) + """

                cat out
                cat err >&2
                """,
            environment: ["API": server.baseURL],
            timeout: 60
        )
        let lines = result.stdout.split(separator: "\n")
        let figures = try #require(lines.first).split(separator: " ")
        #expect(figures.first == "1", "\(result.stdout) \(result.stderr)")
        #expect(lines.count == 1, "nothing on stdout")
        #expect(
            result.stderr
                == "gh-users: malformed response from GET /users?since=0&per_page=30: the body is larger than the 64 MiB "
                + "limit, so it was not read to its end (GH_USERS_MAX_RESPONSE_BYTES raises the limit)\n")
        await server.waitForConnectionsToEnd(1)
        // Before: the whole body was read, and held (a 200 MB body cost 920 MB of RSS).
        #expect(server.written < total / 2, "the server wrote \(server.written) bytes")
        let peakKilobytes = try #require(Int(figures.last ?? ""))
        #expect(peakKilobytes < 256 << 10, "peak RSS \(peakKilobytes) KB")
    }

    /// `access` remembers each cursor it asked after, to catch one that comes back, as a 32-byte digest however
    /// long the server makes it. Kept whole, a review's server of 500 KB cursors grew a run 26 MB a second: here
    /// 300 pages of members and 300 of a repository's collaborators, each with a cursor of 256 KB, took the peak
    /// RSS from 46 MB to 119 MB.
    @Test func accessKeepsTheCursorsItAskedAfterAsDigests() async throws {
        let pages = 300
        let padding = String(repeating: "a", count: 256 << 10)
        let server = try RawTestServer { connection in
            let query = Self.body(of: connection)
            let page = query.firstMatch(of: /after: \\"c(\d+)x/).flatMap { Int($0.1) } ?? 0
            let more = page + 1 < pages
            let pageInfo = #"{"hasNextPage":\#(more),"endCursor":\#(more ? "\"c\(page + 1)x\(padding)\"" : "null")}"#
            let rate = #""rateLimit":{"cost":1,"remaining":4999,"resetAt":"2030-01-01T00:00:00Z"}"#
            let data: String
            if query.contains("GhUsersAccessMembers") {
                data =
                    #"\#(rate),"viewer":{"login":"m0","databaseId":1000},"organization":{"membersWithRole":{"#
                    + #""pageInfo":\#(pageInfo),"edges":[{"role":"MEMBER","hasTwoFactorEnabled":null,"#
                    + #""node":{"login":"m\#(page)","databaseId":\#(1000 + page)}}]}}"#
            } else if query.contains("GhUsersAccessRepositories") {
                data =
                    #"\#(rate),"organization":{"repositories":{"totalCount":1,"#
                    + #""pageInfo":{"hasNextPage":false,"endCursor":null},"#
                    + #""nodes":[{"name":"big","nameWithOwner":"acme/big","isArchived":false}]}}"#
            } else {
                data =
                    #"\#(rate),"r0":{"collaborators":{"pageInfo":\#(pageInfo),"edges":[{"permission":"READ","#
                    + #""permissionSources":[{"permission":"READ","roleName":null,"#
                    + #""source":{"__typename":"Organization","login":"acme"}}],"#
                    + #""node":{"login":"c\#(page)","databaseId":\#(5000 + page)}}]}}"#
            }
            let body = Array(#"{"data":{\#(data)}}"#.utf8)
            connection.write(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
                    + "Connection: close\r\n\r\n")
            connection.write(body)
            _ = connection.awaitHangUp(seconds: 10)
        }
        defer { server.stop() }
        let result = try await BinaryRunner.shell(
            BinaryRunner.watchingPeakRSS(
                #""$GH_USERS" access acme --api-url "$API" --no-cache --format tsv > out 2> err"#) + """

                    cat out
                    cat err >&2
                    """,
            environment: ["API": server.baseURL, "GH_TOKEN": "gho_test"],
            timeout: 120
        )
        let lines = result.stdout.split(separator: "\n")
        let figures = try #require(lines.first).split(separator: " ")
        #expect(figures.first == "0", "\(result.stdout.prefix(500)) \(result.stderr)")
        #expect(lines.count == 1 + pages, "a record for each collaborator")
        let peakKilobytes = try #require(Int(figures.last ?? ""))
        #expect(peakKilobytes < 80 << 10, "peak RSS \(peakKilobytes) KB")
    }

    /// The body of the request `connection` read the head of, as text (a 100-continue answered first).
    private static func body(of connection: RawTestServer.Connection) -> String {
        let head = connection.head.lowercased()
        let field = head.split(whereSeparator: \.isNewline).first { $0.hasPrefix("content-length:") }
        let length = field.flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
        if head.contains("100-continue") { connection.write("HTTP/1.1 100 Continue\r\n\r\n") }
        var bytes = [UInt8](repeating: 0, count: length ?? 0)
        var read = 0
        while read < bytes.count {
            let count = bytes[read...].withUnsafeMutableBytes {
                recv(connection.descriptor, $0.baseAddress, $0.count, 0)
            }
            guard count > 0 else { break }
            read += count
        }
        return String(decoding: bytes[..<read], as: UTF8.self)
    }

    @Test func aCompressionBombIsCutAtTheCapAfterInflating() async throws {
        // Under half a megabyte on the wire, 72 MiB once inflated: one account and a sea of JSON whitespace.
        let bomb = DeflateBomb.zlib(prefix: #"[{"login":"bomb","id":1}"#, spaces: 72 << 20, suffix: "]")
        #expect(bomb.body.count < 1 << 20)
        let server = try RawTestServer { connection in
            connection.write(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: deflate\r\n"
                    + "Content-Length: \(bomb.body.count)\r\n\r\n")
            connection.write(bomb.body)
        }
        defer { server.stop() }
        let result = try await BinaryRunner.run(["list", "--api-url", server.baseURL], timeout: 60)
        // Before: exit 0 with the account printed, after 72 MiB had been inflated into memory.
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("the body is larger than the 64 MiB limit"))
        #expect(server.connections == 1)
    }

    // MARK: 7. Waits have a ceiling

    @Test func aRetryAfterOfDaysIsARateLimitWithTheTimeNotASilentWait() async throws {
        try await withServer { server in
            server.injectFaults(
                [.status(429, body: #"{"message":"Too Many Requests"}"#, headers: ["Retry-After": "999999"])],
                forPath: "/users")
            // A run that waited is killed at 30 s (status 137), never 5.
            let result = try await BinaryRunner.run(["list"] + api(server), timeout: 30)
            #expect(result.status == 5, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("gh-users: API rate limit exceeded (Too Many Requests)\nIt lifts at "))
            #expect(result.stderr.contains(", in 11d 13h.\n"))
            #expect(!result.stderr.contains("waiting"))
            #expect(server.requests.count == 1)
        }
    }

    @Test func aRetryAfterAsAnHTTPDateIsWaitedFor() async throws {
        try await withServer { server in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let date = formatter.string(from: Date().addingTimeInterval(3))
            server.injectFaults(
                [.status(429, body: #"{"message":"Too Many Requests"}"#, headers: ["Retry-After": date])],
                forPath: "/users")
            let result = try await BinaryRunner.run(["list", "--limit", "5"] + api(server), timeout: 30)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(ids(result.stdout).count == 5)
            // Before, the date was ignored and the wait was GitHub's default of a minute.
            #expect(result.stderr.hasPrefix("gh-users: GitHub's secondary rate limit: waiting "))
            #expect(!result.stderr.contains("1m 0s"))
            #expect(server.requests.count == 2)
            // The retry came at the date or after it, never sooner.
            #expect(server.requestsTooEarly == 0)
        }
    }

    // MARK: 8. The debug trace

    @Test func theDebugTraceShowsWhatIsSentAndOnlyShowsEscapes() async throws {
        try await withServer { server in
            server.injectFaults(
                [
                    .status(
                        200, body: #"{"login":"octocat","id":1}"#,
                        headers: [
                            "x-ratelimit-limit": "\u{1B}[2J", "x-ratelimit-remaining": "\u{1B}]52;c;SGVsbG8=\u{07}",
                        ])
                ],
                forPath: "/users/octocat")
            let result = try await BinaryRunner.run(["show", "octocat", "--debug"] + api(server))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}"))
            #expect(!result.stderr.contains("\u{07}"))
            #expect(result.stderr.contains("x-ratelimit-limit=\\e[2J"))
            #expect(result.stderr.contains("    Accept-Encoding: gzip, deflate\n"))
            #expect(result.stderr.contains("    Host: 127.0.0.1:\(URL(string: server.baseURL)!.port!)\n"))
            #expect(server.requests.first?.header("accept-encoding") == "gzip, deflate")
        }
    }

    // MARK: 9. Certificate failures

    @Test(
        .enabled(
            if: TLSServer.available,
            "needs openssl (to make a certificate) and python3 (to serve TLS)"))
    func anUntrustedCertificateIsNamedOnceWithAHint() async throws {
        let standIn = try StandInServer(configuration: StandInConfiguration(userCount: 1))
        try standIn.start()
        defer { standIn.stop() }
        let server = try await TLSServer.selfSigned(relayingTo: UInt16(URL(string: standIn.baseURL)!.port!))
        defer { server.stop() }
        let result = try await BinaryRunner.run(["show", "octocat", "--api-url", "https://127.0.0.1:\(server.port)"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "gh-users: network error: the TLS certificate of 127.0.0.1:\(server.port) is not trusted "
                + "(SSL certificate problem: self-signed certificate)\n"
                + "If a corporate proxy or a private certificate authority signs it, add that CA to the system store "
                + "(Debian, Ubuntu: copy it to /usr/local/share/ca-certificates/ and run update-ca-certificates; "
                + "Fedora, RHEL: to /etc/pki/ca-trust/source/anchors/ and run update-ca-trust).\n"
                + "SSL_CERT_FILE, SSL_CERT_DIR and CURL_CA_BUNDLE are not read: see 'gh-users help environment'.\n")
        // Not retried: before, four handshakes and "the response was cut short".
        for _ in 0..<50 where server.refusedHandshakes < 1 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.refusedHandshakes == 1)
    }

    @Test func plainHTTPWhereTLSWasExpectedIsAFailedHandshakeNamedOnce() async throws {
        let server = try RawTestServer(readsHead: false) { connection in
            connection.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        }
        defer { server.stop() }
        let result = try await BinaryRunner.run(["show", "octocat", "--api-url", "https://127.0.0.1:\(server.port)"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix("gh-users: network error: the TLS handshake with 127.0.0.1:\(server.port) failed (")
        )
        #expect(result.stderr.contains("\nCheck that the API URL is https on a port that speaks TLS"))
        #expect(server.connections == 1)
    }
}
