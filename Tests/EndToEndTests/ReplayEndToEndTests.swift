import Foundation
import TestSupport
import Testing

/// The binary against real GitHub answers recorded by public projects (Tests/Recorded, NOTICE.md there): every
/// recording is served by `RawTestServer(replaying:)` to the command that makes that request. JSON output must
/// be token for token what GitHub sent; tables and CSV must render a row per account without a control
/// character; errors must give the documented exit status with GitHub's message.
struct ReplayEndToEndTests {
    /// What one recording asks of gh-users: the command that makes its requests and what its output must hold.
    struct Plan {
        var arguments: [String]
        /// The JSON the command's `--json` output must equal token for token; nil for an answer without a body.
        var expectedJSON: String?
        /// Records a CSV must hold; nil when the command prints none.
        var records: Int?
        /// Rows a table must show below its header; nil for a profile, which `show` and `me` print as a card.
        var tableRows: Int? = nil
        var status: Int32 = 0
    }

    static let token = "recorded-token"

    /// The command for a recording, from what its first request asked.
    static func plan(_ cassette: RecordedCassette) -> Plan {
        let first = cassette.exchanges[0]
        // What a profile command prints: the last answer, which a followed redirect leads to.
        let final = cassette.exchanges.last ?? first
        let segments = first.route.split(separator: "/").map(String.init)
        var plan: Plan
        switch segments.count {
        case 1 where segments[0] == "user":
            plan = profile(["me"], final)
        case 1 where segments[0] == "rate_limit":
            let buckets = JSONTokens.members(JSONTokens.value("resources", in: first.text) ?? "{}").count
            plan = Plan(arguments: ["rate-limit"], expectedJSON: first.text, records: buckets, tableRows: buckets)
        case 1 where segments[0] == "users":
            let items = JSONTokens.members(first.text)
            plan = Plan(
                arguments: ["list", "--limit", "\(items.count)"], expectedJSON: array(items), records: items.count,
                tableRows: items.count)
        case 2 where segments[0] == "users":
            plan = profile(["show", segments[1]], final)
        case 2 where segments[0] == "user":
            plan = profile(["show", "--id", segments[1]], final)
        case 2 where segments == ["search", "users"]:
            let items = cassette.exchanges.flatMap {
                JSONTokens.members(JSONTokens.value("items", in: $0.text) ?? "[]")
            }
            plan = Plan(
                // An error answer has no items; a limit is at least 1.
                arguments: ["search", first.query("q") ?? "", "--limit", "\(max(items.count, 1))"],
                expectedJSON: array(items),
                records: items.count, tableRows: items.count)
        case 3 where segments[0] == "users":
            // Every page of a recorded multi-page list.
            let items = cassette.exchanges.flatMap { JSONTokens.members($0.text) }
            // Key lists take no --limit; `gpg_keys` is the `gpg-keys` command.
            let command =
                ["keys", "gpg_keys"].contains(segments[2])
                ? [segments[2].replacingOccurrences(of: "_", with: "-"), segments[1]]
                : [segments[2], segments[1], "--limit", "\(max(items.count, 1))"]
            plan = Plan(arguments: command, expectedJSON: array(items), records: items.count, tableRows: items.count)
        case 3 where segments[0] == "user" && segments[1] == "following":
            let command = first.requestMethod == "PUT" ? ["follow", segments[2]] : ["unfollow", segments[2], "--yes"]
            plan = Plan(arguments: command, expectedJSON: nil, records: nil)
            plan.status = first.status == 204 ? 0 : expectedStatus(first)
            return plan
        case 4 where segments[0] == "users" && segments[2] == "following":
            plan = Plan(arguments: ["follows", segments[1], segments[3]], expectedJSON: nil, records: nil)
            plan.status = first.status == 204 ? 0 : 1
            return plan
        default:
            Issue.record("no gh-users command is known for \(first.requestMethod) \(first.requestPath)")
            return Plan(arguments: ["--version"], expectedJSON: nil, records: nil)
        }
        if first.status >= 400 {
            plan.expectedJSON = nil
            plan.records = nil
            plan.tableRows = nil
            plan.status = expectedStatus(first)
        }
        return plan
    }

    /// A profile command's plan: the account it prints, or exit 1 when the answer it ends on is no account (a
    /// renamed repository's 301 leads to the repository, which `show` must not print as a profile).
    static func profile(_ arguments: [String], _ answer: RecordedExchange) -> Plan {
        guard JSONTokens.value("login", in: answer.text) != nil else {
            return Plan(arguments: arguments, expectedJSON: nil, records: nil, status: 1)
        }
        return Plan(arguments: arguments, expectedJSON: answer.text, records: 1)
    }

    /// README's exit codes for an HTTP failure.
    static func expectedStatus(_ exchange: RecordedExchange) -> Int32 {
        switch exchange.status {
        case 401: return 4
        case 403 where exchange.header("x-ratelimit-remaining") == "0": return 5
        case 403: return 4
        case 404: return 3
        case 429: return 5
        default: return 1
        }
    }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    private func run(_ name: String, _ extra: [String]) async throws -> (RunResult, RawTestServer) {
        let cassette = try Recordings.load(name)
        let plan = Self.plan(cassette)
        let server = try RawTestServer(replaying: cassette.exchanges)
        defer { server.stop() }
        let result = try await BinaryRunner.run(
            plan.arguments + extra + ["--api-url", server.baseURL, "--retries", "0", "--no-cache"],
            environment: ["GH_TOKEN": Self.token])
        return (result, server)
    }

    /// Runs `body`, as a known issue when the recording waits for a command gh-users does not have yet
    /// (`awaiting` in its file): the test then fails the day the command serves it, and the mark must go.
    private func whileAwaiting(_ cassette: RecordedCassette, _ body: () async throws -> Void) async throws {
        guard let awaiting = cassette.awaiting else { return try await body() }
        await withKnownIssue(Comment(rawValue: awaiting)) { try await body() }
    }

    @Test(arguments: Recordings.names)
    func jsonIsWhatGitHubSent(_ name: String) async throws {
        let cassette = try Recordings.load(name)
        let plan = Self.plan(cassette)
        try await whileAwaiting(cassette) {
            let (result, server) = try await run(name, plan.expectedJSON == nil ? [] : ["--json"])
            #expect(server.unmatchedRequests.isEmpty, "\(server.unmatchedRequests)")
            #expect(server.servedRequests.count == cassette.exchanges.count, "\(server.servedRequests)")
            #expect(result.status == plan.status, "\(result.stderr)")
            guard let expected = plan.expectedJSON else { return }
            #expect(result.stderr.isEmpty)
            #expect(JSONTokens.compact(result.stdout) == JSONTokens.compact(expected))
        }
    }

    @Test(arguments: Recordings.names.filter { (try? plan(Recordings.load($0)).records) != nil })
    func tablesAndCSVRenderARowPerRecord(_ name: String) async throws {
        let cassette = try Recordings.load(name)
        try await whileAwaiting(cassette) { try await rendersARowPerRecord(name, Self.plan(cassette)) }
    }

    private func rendersARowPerRecord(_ name: String, _ plan: Plan) async throws {
        let records = try #require(plan.records)
        for format in ["table", "csv"] {
            let (result, _) = try await run(name, ["--format", format])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            #expect(result.stderr.isEmpty, "\(format): \(result.stderr)")
            #expect(Self.controlCharacters(result.stdout).isEmpty, "\(format):\n\(result.stdout)")
            if format == "csv" {
                // The header, even with no records (19.13).
                #expect(Self.csvRecords(result.stdout) == records + 1, "\(result.stdout)")
            } else if plan.tableRows == 0 {
                // An empty list: a table of no rows, its header at most.
                #expect(result.stdout.split(separator: "\n").count <= 1, "\(result.stdout)")
            } else if let rows = plan.tableRows {
                #expect(result.stdout.split(separator: "\n").count == rows + 1, "\(result.stdout)")
            } else {
                #expect(!result.stdout.isEmpty)
            }
        }
    }

    @Test(arguments: Recordings.names.filter { ((try? Recordings.load($0))?.exchanges[0].status ?? 0) >= 400 })
    func errorsGiveTheDocumentedStatusAndGitHubsMessage(_ name: String) async throws {
        let cassette = try Recordings.load(name)
        let (result, _) = try await run(name, [])
        #expect(result.status == Self.expectedStatus(cassette.exchanges[0]), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let answer = cassette.exchanges[0]
        if answer.status == 404 {
            // README: an unknown login is exit 3, and gh-users names the login rather than echo "Not Found".
            let login = answer.route.split(separator: "/").last.map(String.init) ?? ""
            #expect(result.stderr.contains("'\(login)'") && result.stderr.contains("404"), "\(result.stderr)")
        } else {
            let message = try #require(JSONTokens.value("message", in: answer.text))
            #expect(result.stderr.contains(String(message.dropFirst().dropLast())), "\(result.stderr)")
        }
        #expect(!result.stderr.contains("Fatal error"))
        // GitHub's reasons for a 422 are in errors[].message, when it gives one.
        let reasons = JSONTokens.members(JSONTokens.value("errors", in: answer.text) ?? "[]").compactMap {
            JSONTokens.value("message", in: $0).map { String($0.dropFirst().dropLast()) }
        }
        for reason in reasons { #expect(result.stderr.contains(reason), "\(result.stderr)") }
        // An error item without a message names its field and code, which the reasons put into words (19.7).
        for item in JSONTokens.members(JSONTokens.value("errors", in: answer.text) ?? "[]") {
            if let field = JSONTokens.value("field", in: item).map({ String($0.dropFirst().dropLast()) }) {
                #expect(result.stderr.contains(field), "\(result.stderr)")
            }
        }
        // GitHub Support asks for the request id: every error that came from GitHub shows it (19.11).
        if let requestID = answer.header("x-github-request-id") {
            #expect(result.stderr.contains("request id: \(requestID)"), "\(result.stderr)")
        }
    }

    /// GitHub answers a renamed resource with 301 and a `Location` on its own origin: gh-users follows it (both
    /// exchanges are served, none refused as another server's), and says what it got when the answer at the end
    /// is not an account.
    @Test(arguments: Recordings.names.filter { ((try? Recordings.load($0))?.exchanges[0].status ?? 0) == 301 })
    func aSameOriginRedirectIsFollowed(_ name: String) async throws {
        let cassette = try Recordings.load(name)
        let (result, server) = try await run(name, [])
        #expect(server.unmatchedRequests.isEmpty, "\(server.unmatchedRequests)")
        #expect(server.servedRequests.count == cassette.exchanges.count, "\(server.servedRequests)")
        let final = try #require(cassette.exchanges.last)
        #expect(final.status == 200)
        #expect(!result.stderr.contains("redirected"), "\(result.stderr)")
        if JSONTokens.value("login", in: final.text) == nil {
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("'login' is missing"), "\(result.stderr)")
        } else {
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    /// Records of RFC 4180 CSV: a line break inside quotes belongs to its field.
    static func csvRecords(_ text: String) -> Int {
        var records = 0
        var quoted = false
        var pending = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: "\n"), !quoted {
                records += 1
                pending = false
            } else if byte != UInt8(ascii: "\r") {
                pending = true
            }
        }
        return records + (pending ? 1 : 0)
    }

    /// C0, DEL and C1 characters, but for line ends: LF, and CR LF (RFC 4180 ends CSV records with it and lets a
    /// quoted field hold it).
    static func controlCharacters(_ text: String) -> [Unicode.Scalar] {
        let scalars = Array(text.unicodeScalars)
        return scalars.indices.compactMap { index in
            let scalar = scalars[index]
            if scalar == "\n" || (scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n") {
                return nil
            }
            return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? scalar : nil
        }
    }
}
