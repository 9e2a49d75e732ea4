import Foundation
import TestSupport
import Testing

@testable import gh_users

/// What `show` writes of a profile in csv and tsv is what GitHub sent, quoted so that it reads back as one record.
/// The bodies are GitHub's documented example for `GET /users/{username}` (Bodies/users-get-by-username.json)
/// with one field changed as the issue's recordings had it: a bio written with CR LF line breaks (2021), and no
/// `type` at all (a 2012 profile).
struct CSVQuotingCommandTests {
    private func profile(_ edit: (inout String) -> Void) -> Data {
        var text = String(decoding: Bodies.named("users-get-by-username"), as: UTF8.self)
        edit(&text)
        return Data(text.utf8)
    }

    private func show(_ body: Data, format: String) async -> CommandHarness.Outcome {
        let harness = CommandHarness()
        harness.http.register(RequestMatcher("GET /users/octocat"), status: 200, headers: [], body: body)
        return await harness.run(["show", "octocat", "--format", format])
    }

    @Test func aBioWithCRLFButNoCommaIsQuotedAndReadsBackAsOneRecord() async throws {
        let body = profile {
            $0 = $0.replacingOccurrences(of: #""There once was...""#, with: #""line one\r\nline two""#)
        }
        let run = await show(body, format: "csv")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("\"line one\r\nline two\""))
        // Two records (header and profile), each ending in CR LF outside quotes.
        let rows = run.out.split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(rows.count == 4, "\(rows)")
    }

    @Test(arguments: ["\r\n", "\n", "\r", ",", "\""])
    func everyFieldHoldingABreakACommaOrAQuoteIsQuoted(special: LoggedText) {
        #expect(CSV.field("a\(special.text)b").hasPrefix("\""))
        #expect(CSV.field("plain") == "plain")
    }

    @Test(arguments: ["csv", "tsv"])
    func aProfileWithoutTypeIsWrittenWithoutOne(format: String) async throws {
        let body = profile { $0 = $0.replacingOccurrences(of: #"  "type": "User","# + "\n", with: "") }
        #expect(!String(decoding: body, as: UTF8.self).contains("\"type\""))
        let run = await show(body, format: format)
        #expect(run.status == 0, "\(run.err)")
        let separator = format == "csv" ? "," : "\t"
        let lines = run.out.split(whereSeparator: \.isNewline).map(String.init)
        // csv names the columns in its header; tsv has none, and writes them in the same order.
        if format == "csv" { #expect(lines.first == ShowUsersRenderer.columns.map(\.key).joined(separator: ",")) }
        let record = try #require(lines.last).components(separatedBy: separator)
        let type = try #require(ShowUsersRenderer.columns.map(\.key).firstIndex(of: "type"))
        #expect(record[type] == "")
        #expect(record[0] == "octocat")
    }
}
