import AtomicLogger
import Foundation
import TestSupport
import Testing

@testable import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private func get(_ url: String, transport: URLSessionTransport = .outsideHome()) async throws -> HTTPResponse {
    try await transport.send(HTTPRequest(url: URL(string: url)!))
}

/// A redirect is followed only within the origin the request named: another server's answer would pass for
/// GitHub's (a `list` writing its accounts, `follows` answering from its 200).
struct CrossOriginRedirectTests {
    @Test func theLiveTransportDoesNotFollowOneToAnotherPort() async throws {
        let elsewhere = try RawTestServer { connection in
            _ = connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]")
        }
        defer { elsewhere.stop() }
        let origin = try RawTestServer { connection in
            _ = connection.write(
                "HTTP/1.1 302 Found\r\nLocation: \(elsewhere.baseURL)/users\r\nContent-Length: 0\r\n\r\n")
        }
        defer { origin.stop() }
        await #expect(throws: TransportError.redirectToAnotherOrigin("http://127.0.0.1:\(elsewhere.port)")) {
            try await get(origin.baseURL + "/users")
        }
        #expect(origin.requests.count == 1)
        // Before: the other server was asked, and its answer returned as the origin's.
        #expect(elsewhere.requests.isEmpty)
    }

    /// The refusal names the redirect's `x-github-request-id`: the redirect is GitHub's answer, and every other
    /// refusal of an answer names its id (issue 38: this one named none).
    @Test func theRefusalCarriesTheRedirectsRequestID() async throws {
        let origin = try RawTestServer { connection in
            _ = connection.write(
                "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.2:9/users\r\n"
                    + "X-GitHub-Request-Id: CB8A:3A5F:1D2E3F4:1E3C5D6:65A1B2C3\r\nContent-Length: 0\r\n\r\n")
        }
        defer { origin.stop() }
        await #expect(
            throws: TransportError.redirectToAnotherOrigin(
                "http://127.0.0.2:9", requestID: "CB8A:3A5F:1D2E3F4:1E3C5D6:65A1B2C3")
        ) {
            try await get(origin.baseURL + "/users")
        }
    }

    /// A GraphQL POST redirected with 307 or 308 on its own server was re-sent by FoundationNetworking without
    /// its body, and the server's "Problems parsing JSON" 400 was the message. The redirect is now the answer.
    @Test func aPostIsNotFollowedEvenOnTheSameOrigin() async throws {
        for status in [307, 308] {
            let server = try RawTestServer { connection in
                if connection.head.hasPrefix("POST /graphql ") {
                    _ = connection.write(
                        "HTTP/1.1 \(status) Redirect\r\nLocation: /graphql-v2\r\nContent-Length: 0\r\n\r\n")
                } else {
                    _ = connection.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\n\r\n{}")
                }
            }
            defer { server.stop() }
            let request = HTTPRequest(
                method: .post, url: URL(string: server.baseURL + "/graphql")!,
                body: Foundation.Data(#"{"query":"{}"}"#.utf8))
            let response = try await URLSessionTransport.outsideHome().send(request)
            #expect(response.status == status)
            #expect(server.requests.count == 1, "\(server.requests)")
        }
    }

    @Test func oneOnTheSameOriginIsFollowed() async throws {
        let server = try RawTestServer { connection in
            if connection.head.hasPrefix("GET /users/old ") {
                _ = connection.write("HTTP/1.1 301 Moved Permanently\r\nLocation: /user/1\r\nContent-Length: 0\r\n\r\n")
            } else {
                _ = connection.write("HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n{\"id\":1}")
            }
        }
        defer { server.stop() }
        let response = try await get(server.baseURL + "/users/old")
        #expect(response.status == 200)
        #expect(response.url.absoluteString == server.baseURL + "/user/1")
    }

    /// Whatever the transport did, the client never hands on an answer from another origin.
    @Test func theClientRefusesAnAnswerFromAnotherOrigin() async throws {
        let stub = StubTransport()
        stub.stub("https://elsewhere.example/users/octocat", body: #"{"following":true}"#)
        let handler = InMemoryLogHandler()
        let client = HTTPClient(
            configuration: HTTPClientConfiguration(
                baseURL: URL(string: "https://api.github.com")!, userAgent: "gh-users/test"),
            transport: { request in
                var redirected = request
                redirected.url = URL(string: "https://elsewhere.example/users/octocat")!
                return try await stub.transport(redirected)
            },
            logger: Logger(label: "t", level: .debug, handler: handler),
            retryPolicy: RetryPolicy(maxRetries: 3)
        )
        await #expect(throws: TransportError.redirectToAnotherOrigin("https://elsewhere.example")) {
            try await client.get(URL(string: "https://api.github.com/users/octocat")!)
        }
        #expect(stub.received.count == 1, "not retried")
        let trace = handler.entries.map(\.message).joined(separator: "\n")
        #expect(trace.contains("✗ GET https://api.github.com/users/octocat: the server redirected to another server"))
    }

    /// Refusals come from URLSession's delegate queue while callers wait on other threads: many at once, mixed
    /// with answers the transport takes, each caller gets its own outcome and nothing hangs. (The server says
    /// `Connection: close`: one that closes a kept-alive connection unannounced races libcurl's reuse of it.)
    @Test func manyConcurrentRefusalsEachEndWithTheirOwnOutcome() async throws {
        let elsewhere = try RawTestServer { connection in
            _ = connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]")
        }
        defer { elsewhere.stop() }
        let origin = try RawTestServer { connection in
            if connection.head.hasPrefix("GET /same ") {
                _ = connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]")
            } else if connection.head.hasPrefix("GET /latin1 ") {
                _ = connection.write(
                    Array("HTTP/1.1 200 OK\r\nX-Name: caf".utf8) + [0xE9]
                        + Array("\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            } else {
                _ = connection.write(
                    "HTTP/1.1 302 Found\r\nLocation: \(elsewhere.baseURL)/users\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                )
            }
        }
        defer { origin.stop() }
        let transport = URLSessionTransport.outsideHome()
        let elsewhereOrigin = "http://127.0.0.1:\(elsewhere.port)"
        let outcomes = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<300 {
                group.addTask {
                    let path = ["/away", "/same", "/latin1"][index % 3]
                    do {
                        let response = try await get(origin.baseURL + path, transport: transport)
                        return path == "/same" && response.status == 200 ? nil : "\(path): \(response.status)"
                    } catch let error as TransportError {
                        let expected: TransportError? =
                            switch path {
                            case "/away": .redirectToAnotherOrigin(elsewhereOrigin)
                            case "/latin1": .malformedHeaders("a header line is not UTF-8 text or not a header")
                            default: nil
                            }
                        return error == expected ? nil : "\(path): \(error)"
                    }
                }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(outcomes.count == 300)
        #expect(outcomes.compactMap { $0 } == [])
        #expect(elsewhere.requests.isEmpty)
    }

    @Test func itIsSaidInWords() {
        #expect(
            "\(TransportError.redirectToAnotherOrigin("http://127.0.0.2:9"))"
                == "the server redirected to another server, http://127.0.0.2:9, so it was not followed")
        #expect(!TransportError.redirectToAnotherOrigin("x").isTransient)
    }
}

/// A failed connection names the host that was tried, and a proxy only when one is in use.
struct ConnectTargetTests {
    private func curlError(_ message: String, url: String) -> URLError {
        URLError(
            .cannotConnectToHost,
            userInfo: [NSLocalizedDescriptionKey: message, NSURLErrorFailingURLErrorKey: URL(string: url)!])
    }

    /// Before: "cannot connect to the proxy 127.0.0.2:9", with no proxy set.
    @Test func anotherHostWithNoProxyIsNamedAsItself() {
        let error = URLSessionTransport.transportError(
            curlError(
                "Failed to connect to 127.0.0.2 port 9 after 0 ms: Couldn't connect to server",
                url: "http://127.0.0.1:8080/users/octocat"))
        #expect(error == .cannotConnect("refused or unreachable", host: "127.0.0.2:9"))
        #expect(!"\(error)".contains("proxy"))
    }

    @Test func theProxyInUseIsNamedAsTheProxy() {
        let error = URLSessionTransport.transportError(
            curlError(
                "Failed to connect to proxy.corp port 3128 after 0 ms: Couldn't connect to server",
                url: "https://api.github.com/users"),
            proxyHosts: ["proxy.corp"])
        #expect(error == .proxyUnreachable(proxy: "proxy.corp:3128", detail: "refused or unreachable"))
    }

    @Test func theProxyHostsAreReadAsLibcurlReadsThem() {
        let hosts = URLSessionTransport.proxyHosts(in: [
            "HTTPS_PROXY": "http://user:secret@Proxy.Corp:3128", "http_proxy": "10.0.0.1:8080",
            "ALL_PROXY": "socks5://[::1]:1080", "all_proxy": " ", "NO_PROXY": "example.com", "HTTP_PROXY": "ignored",
        ])
        #expect(hosts == ["proxy.corp", "10.0.0.1", "::1"])
        #expect(URLSessionTransport.proxyHosts(in: [:]).isEmpty)
    }

    /// The live transport, with nothing listening where the redirect points: refused before any connection.
    @Test func aRedirectToAnUnreachableHostNamesThatHost() async throws {
        let origin = try RawTestServer { connection in
            _ = connection.write(
                "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.2:9/users/octocat\r\nContent-Length: 0\r\n\r\n")
        }
        defer { origin.stop() }
        do {
            _ = try await get(origin.baseURL + "/users/octocat")
            Issue.record("no failure")
        } catch let error as TransportError {
            #expect(error == .redirectToAnotherOrigin("http://127.0.0.2:9"))
            #expect(!"\(error)".contains("proxy"))
        }
    }
}

/// A response head the transport cannot take is said as such, in linear time.
struct HostileHeadTests {
    /// A server that answers every request with `head` (the status line and header lines, without the blank
    /// line) and a small JSON body.
    private func server(_ head: @escaping @Sendable () -> [UInt8]) throws -> RawTestServer {
        try RawTestServer { connection in
            var bytes = head()
            bytes += Array("Content-Length: 2\r\nConnection: close\r\n\r\n[]".utf8)
            _ = connection.write(bytes)
        }
    }

    private func failure(_ head: @escaping @Sendable () -> [UInt8]) async throws -> TransportError? {
        let server = try server(head)
        defer { server.stop() }
        do {
            _ = try await get(server.baseURL + "/users")
            return nil
        } catch let error as TransportError {
            return error
        }
    }

    /// Before: "Out of memory".
    @Test func aHeaderLineOver100KiB() async throws {
        let error = try await failure {
            Array(
                "HTTP/1.1 200 OK\r\nLink: <http://127.0.0.1/users?since=1\(String(repeating: "a", count: 150_000))>; rel=\"next\"\r\n"
                    .utf8)
        }
        #expect(error == .malformedHeaders("a header line is over 100 KiB"))
        #expect(
            "\(try #require(error))"
                == "the server's headers are too large or malformed (a header line is over 100 KiB)")
    }

    @Test func moreThan300KiBOfHeaders() async throws {
        let error = try await failure {
            Array(
                ("HTTP/1.1 200 OK\r\n"
                    + (0..<3_200).map { "X-H\($0): " + String(repeating: "v", count: 90) + "\r\n" }.joined()).utf8)
        }
        #expect(error == .malformedHeaders("more than 300 KiB of headers in all"))
    }

    /// Before: "Failed writing header".
    @Test func aLatin1Byte() async throws {
        let error = try await failure { Array("HTTP/1.1 200 OK\r\nX-Name: caf".utf8) + [0xE9] + Array("\r\n".utf8) }
        #expect(error == .malformedHeaders("a header line is not UTF-8 text or not a header"))
        #expect(error.map(\.isTransient) == false)
    }

    /// A NUL byte, a line without a colon, a length that is none, and a run of `100 Continue` heads past the cap:
    /// libcurl's own words were the message (helper-320), the last one because a response was held by then.
    @Test(
        arguments: [
            (Array("HTTP/1.1 200 OK\r\nX-Name: a".utf8) + [0] + Array("b\r\n".utf8), "a header line holds a NUL byte"),
            (Array("HTTP/1.1 200 OK\r\nNo colon here\r\n".utf8), "a header line has no colon"),
            (Array("HTTP/1.1 200 OK\r\nContent-Length: ten\r\n".utf8), "its Content-Length is not a length"),
            (
                Array((String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 14_000) + "HTTP/1.1 200 OK\r\n").utf8),
                "more than 300 KiB of headers in all"
            ),
            // After an interim 1xx, as without it (helper-322: libcurl's own words, "Out of memory").
            (
                Array(
                    ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nX-Big: "
                        + String(repeating: "a", count: 110_000) + "\r\n").utf8),
                "a header line is over 100 KiB"
            ),
            (
                Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nX-L: caf".utf8) + [0xE9] + Array("\r\n".utf8),
                "a header line is not UTF-8 text or not a header"
            ),
        ] as [([UInt8], String)])
    func aHeadLibcurlRefusesIsSaidInOurWords(head: [UInt8], reason: String) async throws {
        let error = try await failure { head }
        #expect(error == .malformedHeaders(reason), "\(String(describing: error))")
        #expect(error.map(\.isTransient) == false)
    }

    /// 5,000 distinct header lines are read, and every one kept.
    @Test func manyHeaderLinesAreReadWhole() async throws {
        let server = try server {
            Array(("HTTP/1.1 200 OK\r\n" + (0..<5_000).map { "X-H\($0): \($0 % 10)\r\n" }.joined()).utf8)
        }
        defer { server.stop() }
        let response = try await get(server.baseURL + "/users")
        #expect(response.status == 200)
        #expect(response.headers["x-h4999"] == "9")
        #expect(response.headers.fields.count >= 5_000)
    }

    /// Long enough (over 15 bytes) that a lower-cased copy of a name is a heap string `AllocationCount` sees.
    private static func longName(_ index: Int) -> String { "X-Header-Number-\(index)" }

    /// The transport's own reading of an answer's header fields is linear: a fixed number of heap blocks per
    /// field. Setting them one at a time, as before, lower-cased every field kept for each new one (over half
    /// a minute for 30,000 fields): about N²/2 copies, 1,000 per field for the 2,000 here.
    @Test func readingAnAnswersHeaderFieldsIsLinear() throws {
        let count = 2_000
        var fields: [String: String] = [:]
        for index in 0..<count { fields[Self.longName(index)] = "\(index % 10)" }
        let response = try #require(
            HTTPURLResponse(
                url: URL(string: "https://api.github.com/users")!, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: fields))
        var headers = HTTPHeaders()
        let counted = try AllocationCount.during { headers = URLSessionTransport.headers(of: response) }
        #expect(headers.fields.count == count)
        #expect(headers[Self.longName(count - 1).uppercased()] == "9")
        #expect(counted.blocks / count <= 16, "reading \(count) fields allocated \(counted)")
    }

    /// Header fields that differ only in case are one field, with a fixed number of heap blocks per field (the
    /// old one-at-a-time `set` lower-cased every kept name for each new one: 4.6 s of CPU for 20,000 fields in a
    /// debug build).
    @Test func uniquingIsLinear() throws {
        let count = 2_000
        let fields = (0..<count).map { index in
            let name = Self.longName(index / 2)
            return (name: index.isMultiple(of: 2) ? name : name.lowercased(), value: "\(index)")
        }
        var headers = HTTPHeaders()
        let counted = try AllocationCount.during { headers = HTTPHeaders(uniquing: fields) }
        #expect(headers.fields.count == count / 2)
        #expect(headers[Self.longName(7)] == "15")
        #expect(headers.fields[7].name == Self.longName(7).lowercased())
        #expect(counted.blocks / count <= 16, "uniquing \(count) fields allocated \(counted)")
    }
}
