import Foundation
import GitHubStandIn
import Testing

/// Behind a company's network: a CA of its own, and a proxy. The built binary against a TLS server whose
/// certificate a private CA signed, and through a CONNECT proxy that records what it could read.
///
/// The finding these tests hold: on Linux nothing but the system store makes gh-users (URLSession, libcurl)
/// trust another CA, and the proxy variables work as for curl. If a test of an ignored variable starts
/// failing, a way has appeared: honour it, and change `help environment`, docs/NETWORK.md and the hint.
struct CorporateNetworkEndToEndTests {
    private static let needsOpenSSL = Testing.ConditionTrait.enabled(
        if: TLSServer.available,
        "needs openssl (to make a CA and certificates) and python3 (to serve TLS)")
    private static let needsTrustedFront = Testing.ConditionTrait.enabled(
        if: TLSServer.available && SystemTrust.canSimulate,
        "needs openssl, python3 (TLS in front of the stand-in) and unshare with user and mount namespaces (the CA added to the system bundle for one process only)"
    )

    private let token = "ghp_corporateNetworkToken0123456789"

    private func withCA<T>(_ body: (PrivateCA) async throws -> T) async throws -> T {
        let ca = try await PrivateCA.make()
        defer { ca.remove() }
        return try await body(ca)
    }

    private func withStandIn<T>(_ body: (StandInServer) async throws -> T) async throws -> T {
        let server = try StandInServer(configuration: StandInConfiguration(userCount: 100))
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    /// The stand-in behind a TLS front whose certificate `ca` signed: what answers is the stand-in, never the front.
    private func withFront<T>(_ ca: PrivateCA, _ body: (TLSServer) async throws -> T) async throws -> T {
        try await withStandIn { standIn in
            let front = try await TLSServer.start(ca: ca, relayingTo: UInt16(URL(string: standIn.baseURL)!.port!))
            defer { front.stop() }
            return try await body(front)
        }
    }

    private func withProxy<T>(refusing status: Int? = nil, _ body: (ConnectProxy) async throws -> T) async throws -> T {
        let proxy = try ConnectProxy(refusing: status)
        defer { proxy.stop() }
        return try await body(proxy)
    }

    private func untrustedMessage(port: UInt16) -> String {
        "gh-users: network error: the TLS certificate of 127.0.0.1:\(port) is not trusted "
            + "(SSL certificate problem: unable to get local issuer certificate)\n"
            + "If a corporate proxy or a private certificate authority signs it, add that CA to the system store "
            + "(Debian, Ubuntu: copy it to /usr/local/share/ca-certificates/ and run update-ca-certificates; "
            + "Fedora, RHEL: to /etc/pki/ca-trust/source/anchors/ and run update-ca-trust).\n"
            + "SSL_CERT_FILE, SSL_CERT_DIR and CURL_CA_BUNDLE are not read: see 'gh-users help environment'.\n"
    }

    // MARK: A company's CA

    @Test(needsOpenSSL)
    func aServerSignedByAnUntrustedCAIsAClearFailureThatGivesTheSystemWay() async throws {
        try await withCA { ca in
            try await withFront(ca) { server in
                let result = try await BinaryRunner.run(
                    ["show", "octocat", "--api-url", "https://127.0.0.1:\(server.port)"],
                    environment: ["GH_TOKEN": token])
                #expect(result.status == 1)
                #expect(result.stdout.isEmpty)
                #expect(result.stderr == untrustedMessage(port: server.port))
            }
        }
    }

    /// Each variable a user would try, pointed at the CA: none is read (the finding). SSL_CERT_DIR gets a
    /// hashed folder, and OPENSSL_CONF a configuration whose default section names the CA file.
    @Test(
        needsOpenSSL,
        arguments: [
            "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE", "URLSessionCertificateAuthorityInfoFile", "OPENSSL_CONF",
        ])
    func noVariableMakesAnotherCATrusted(variable: String) async throws {
        try await withCA { ca in
            try await withFront(ca) { server in
                var value = ca.certificate.path
                if variable == "SSL_CERT_DIR" {
                    let folder = ca.folder.appendingPathComponent("certs")
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try FileManager.default.copyItem(at: ca.certificate, to: folder.appendingPathComponent("ca.pem"))
                    try await Subprocess.check(TLSServer.openssl!, ["rehash", folder.path])
                    value = folder.path
                } else if variable == "OPENSSL_CONF" {
                    let configuration = ca.folder.appendingPathComponent("openssl.cnf")
                    try """
                    openssl_conf = init
                    [init]
                    ssl_conf = ssl
                    [ssl]
                    system_default = tls
                    [tls]
                    VerifyCAFile = \(ca.certificate.path)

                    """.write(to: configuration, atomically: true, encoding: .utf8)
                    value = configuration.path
                }
                let result = try await BinaryRunner.run(
                    ["show", "octocat", "--api-url", "https://127.0.0.1:\(server.port)"], environment: [variable: value]
                )
                #expect(result.status == 1, "\(variable) made the CA trusted: document and honour it")
                #expect(result.stderr == untrustedMessage(port: server.port))
            }
        }
    }

    /// The other half: with the CA where the hint says to put it, the stand-in answers over TLS.
    @Test(needsTrustedFront)
    func withTheCAInTheSystemStoreTheStandInAnswersOverTLS() async throws {
        try await withCA { ca in
            try await withStandIn { standIn in
                let front = try await TLSServer.start(ca: ca, relayingTo: UInt16(URL(string: standIn.baseURL)!.port!))
                defer { front.stop() }
                let api = ["--api-url", "https://127.0.0.1:\(front.port)", "--no-cache"]
                let untrusted = try await BinaryRunner.run(["show", "octocat"] + api, environment: ["GH_TOKEN": token])
                #expect(untrusted.status == 1)
                #expect(untrusted.stderr == untrustedMessage(port: front.port))
                #expect(standIn.requests.isEmpty)

                let trusted = try await SystemTrust.run(
                    ["show", "octocat", "--format", "json"] + api, trusting: try ca.systemBundleWithCA(),
                    environment: ["GH_TOKEN": token])
                #expect(trusted.status == 0, "\(trusted.stderr)")
                #expect(
                    trusted.stdout.contains(#""login" : "octocat""#) || trusted.stdout.contains(#""login": "octocat""#))
                #expect(standIn.requests.map(\.path) == ["/users/octocat"])
                #expect(standIn.requests.first?.header("authorization") == "Bearer \(token)")
            }
        }
    }

    // MARK: Proxies

    /// The token crosses the proxy only inside the TLS tunnel: the proxy sees `CONNECT host:port` and
    /// ciphertext, while the stand-in behind it receives the token.
    @Test(needsTrustedFront, arguments: ["HTTPS_PROXY", "https_proxy", "ALL_PROXY"])
    func throughAnHTTPSProxyTheTokenTravelsOnlyInsideTheTunnel(variable: String) async throws {
        try await withCA { ca in
            try await withStandIn { standIn in
                let front = try await TLSServer.start(ca: ca, relayingTo: UInt16(URL(string: standIn.baseURL)!.port!))
                defer { front.stop() }
                try await withProxy { proxy in
                    let result = try await SystemTrust.run(
                        ["show", "octocat", "--api-url", "https://127.0.0.1:\(front.port)", "--no-cache"],
                        trusting: try ca.systemBundleWithCA(),
                        environment: ["GH_TOKEN": token, variable: proxy.url])
                    #expect(result.status == 0, "\(result.stderr)")
                    #expect(proxy.requestLines == ["CONNECT 127.0.0.1:\(front.port) HTTP/1.1"])
                    #expect(standIn.requests.first?.header("authorization") == "Bearer \(token)")
                    // The proxy relayed the whole exchange and could read none of it.
                    let seen = proxy.everything
                    #expect(seen.count > 1_000)
                    #expect(!contains(seen, token), "the proxy saw the token")
                    #expect(!contains(seen, "octocat"), "the proxy saw the path or the answer")
                }
            }
        }
    }

    /// Without namespaces: the request still goes through the tunnel, and the CONNECT carries no
    /// credentials; the TLS failure names the server behind the proxy, not the proxy.
    @Test(needsOpenSSL, arguments: ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"])
    func anHTTPSProxyFromTheEnvironmentIsUsedThroughConnect(variable: String) async throws {
        try await withCA { ca in
            try await withFront(ca) { server in
                try await withProxy { proxy in
                    let result = try await BinaryRunner.run(
                        ["show", "octocat", "--api-url", "https://127.0.0.1:\(server.port)"],
                        environment: ["GH_TOKEN": token, variable: proxy.url])
                    #expect(result.status == 1)
                    #expect(result.stderr == untrustedMessage(port: server.port))
                    #expect(proxy.requestLines == ["CONNECT 127.0.0.1:\(server.port) HTTP/1.1"])
                    #expect(!contains(proxy.everything, token))
                    #expect(proxy.heads.allSatisfy { !$0.lowercased().contains("authorization") })
                }
            }
        }
    }

    /// libcurl takes `http_proxy` for http in lower case only: `HTTP_PROXY` could be set by a CGI
    /// environment from a request's `Proxy:` header ("httpoxy"). Over http the proxy sees the whole request.
    @Test func aPlainHTTPProxyIsTakenFromLowerCaseHTTPProxyOnly() async throws {
        try await withStandIn { standIn in
            try await withProxy { proxy in
                let lower = try await BinaryRunner.run(
                    ["show", "octocat", "--api-url", standIn.baseURL, "--no-cache"],
                    environment: ["http_proxy": proxy.url])
                #expect(lower.status == 0, "\(lower.stderr)")
                #expect(proxy.requestLines == ["GET \(standIn.baseURL)/users/octocat HTTP/1.1"])
                #expect(standIn.requests.count == 1)

                let upper = try await BinaryRunner.run(
                    ["show", "octocat", "--api-url", standIn.baseURL, "--no-cache"],
                    environment: ["HTTP_PROXY": proxy.url])
                #expect(upper.status == 0, "\(upper.stderr)")
                #expect(proxy.requestLines.count == 1, "HTTP_PROXY was used")
                #expect(standIn.requests.count == 2)
            }
        }
    }

    /// Issue 26.10: a token over plain http is never sent through a proxy, which would read it in clear: a
    /// loopback API root with a token goes around `http_proxy` and `ALL_PROXY` (as if in `NO_PROXY`). Before:
    /// the proxy read `GET http://127.0.0.1:…/users/octocat` with `Authorization: Bearer ghp_…`. `localhost` too.
    /// (`127.0.0.01`, which libcurl would match against `NO_PROXY` as written, is refused by Foundation as a bad
    /// URL before any connection; the run goes around every proxy all the same: `NO_PROXY=*`.)
    @Test(
        arguments: zip(
            ["http_proxy", "ALL_PROXY", "all_proxy", "http_proxy"],
            ["127.0.0.1", "127.0.0.1", "127.0.0.1", "localhost"]))
    func aTokenOverHTTPNeverGoesThroughAProxy(variable: String, spelling: String) async throws {
        try await withStandIn { standIn in
            try await withProxy { proxy in
                let apiURL = standIn.baseURL.replacingOccurrences(of: "127.0.0.1", with: spelling)
                let result = try await BinaryRunner.run(
                    ["show", "octocat", "--api-url", apiURL, "--no-cache"],
                    environment: ["GH_TOKEN": token, variable: proxy.url, "NO_PROXY": "example.com"])
                #expect(result.status == 0, "\(result.stderr)")
                #expect(proxy.heads.isEmpty, "\(proxy.requestLines)")
                #expect(!contains(proxy.everything, token), "the proxy saw the token")
                #expect(standIn.requests.count == 1)
            }
        }
    }

    @Test(arguments: ["NO_PROXY", "no_proxy"])
    func noProxyGoesAround(variable: String) async throws {
        try await withStandIn { standIn in
            try await withProxy { proxy in
                for hosts in ["127.0.0.1", "localhost,127.0.0.1", "*"] {
                    let result = try await BinaryRunner.run(
                        ["show", "octocat", "--api-url", standIn.baseURL, "--no-cache"],
                        environment: ["http_proxy": proxy.url, "ALL_PROXY": proxy.url, variable: hosts])
                    #expect(result.status == 0, "\(result.stderr)")
                }
                #expect(proxy.heads.isEmpty)
                #expect(standIn.requests.count == 3)
            }
        }
    }

    @Test(needsOpenSSL)
    func noProxyGoesAroundForHTTPSToo() async throws {
        try await withCA { ca in
            try await withFront(ca) { server in
                try await withProxy { proxy in
                    let result = try await BinaryRunner.run(
                        ["show", "octocat", "--api-url", "https://127.0.0.1:\(server.port)"],
                        environment: ["HTTPS_PROXY": proxy.url, "NO_PROXY": "127.0.0.1"])
                    #expect(result.stderr == untrustedMessage(port: server.port))
                    #expect(proxy.heads.isEmpty)
                }
            }
        }
    }

    @Test func anUnreachableProxyIsNamedNotTheServer() async throws {
        let refusing = try RefusingPort()
        let closed = refusing.port
        let result = try await BinaryRunner.run(
            ["show", "octocat", "--api-url", "https://api.github.com", "--retries", "1"],
            environment: ["https_proxy": "http://127.0.0.1:\(closed)"])
        #expect(result.status == 1)
        let lines = result.stderr.components(separatedBy: "\n")
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(
            lines.first?.hasPrefix(
                "gh-users: network error: cannot connect to the proxy 127.0.0.1:\(closed) (refused or unreachable), "
                    + "after 2 attempts over ") == true, "\(result.stderr)")
        withExtendedLifetime(refusing) {}
        #expect(
            lines.dropFirst().first
                == "The proxy comes from HTTPS_PROXY, https_proxy or ALL_PROXY (http_proxy for an http URL): "
                + "check it, or list the API's host in NO_PROXY to go around it.")
    }

    @Test(arguments: [
        (
            403,
            "The proxy's policy keeps that host out: ask whoever runs it, or list the host in NO_PROXY if it can be reached directly."
        ),
        (407, "The proxy wants credentials: give them in its URL, as https_proxy=http://USER:PASSWORD@HOST:PORT."),
    ])
    func aProxyThatRefusesTheTunnelIsSaidOnceAndNotRetried(status: Int, hint: String) async throws {
        try await withProxy(refusing: status) { proxy in
            let result = try await BinaryRunner.run(
                ["show", "octocat", "--api-url", "https://api.github.com"],
                environment: ["HTTPS_PROXY": proxy.url, "GH_TOKEN": token])
            #expect(result.status == 1)
            #expect(
                result.stderr
                    == "gh-users: network error: the proxy refused to open a tunnel to api.github.com "
                    + "(it answered HTTP \(status))\n\(hint)\n")
            #expect(proxy.requestLines == ["CONNECT api.github.com:443 HTTP/1.1"])
            #expect(!contains(proxy.everything, token))
        }
    }

    private func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
