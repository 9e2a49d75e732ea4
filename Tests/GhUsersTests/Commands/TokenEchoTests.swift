import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A server that echoes the token back (in a message, a header, a validator) never gets it printed on stderr
/// or stored in the cache: what GitHub's answer says is shown with the token masked as `***`.
struct TokenEchoTests {
    private static let token = CommandRequestTests.token

    /// `show octocat` with the token, no retry, answered by `status` with `headers` and the JSON `body`.
    private static func show(status: Int, headers: [(String, String)], body: String) async -> CommandHarness.Outcome {
        let harness = CommandHarness.signedIn()
        harness.http.register(
            RequestMatcher("GET /users/octocat"), status: status, headers: headers, body: Data(body.utf8))
        return await harness.run(["show", "octocat", "--retries", "0"])
    }

    @Test func aRefusalWhoseMessageAndRequestIDHoldTheTokenMasksBoth() async {
        let run = await Self.show(
            status: 401, headers: [("X-GitHub-Request-Id", "req-\(Self.token)")],
            body: #"{"message":"Bad credentials for \#(Self.token)"}"#)
        #expect(run.status == 4)
        #expect(!run.err.contains(Self.token), "\(run.err)")
        #expect(run.err.contains("authentication failed (HTTP 401: Bad credentials for ***)"), "\(run.err)")
        #expect(run.err.hasSuffix("request id: req-***\n"), "\(run.err)")
    }

    @Test func aSingleSignOnURLThatHoldsTheTokenIsMasked() async {
        let run = await Self.show(
            status: 403, headers: [("X-GitHub-SSO", "required; url=https://x/\(Self.token)")],
            body: #"{"message":"Resource protected by organization SAML enforcement."}"#)
        #expect(run.status == 4)
        #expect(!run.err.contains(Self.token), "\(run.err)")
        #expect(run.err.contains("authorized: https://x/***"), "\(run.err)")
    }

    @Test func aValidationFailureThatHoldsTheTokenIsMasked() async {
        let run = await Self.show(
            status: 422, headers: [],
            body: #"{"message":"Validation Failed \#(Self.token)","errors":[{"message":"\#(Self.token) is bad"}]}"#)
        #expect(run.status == 1)
        #expect(!run.err.contains(Self.token), "\(run.err)")
        #expect(run.err.contains("Validation Failed ***"), "\(run.err)")
    }

    @Test func aRetryAfterThatIsTheTokenIsMasked() async {
        let run = await Self.show(
            status: 429, headers: [("Retry-After", Self.token)], body: #"{"message":"slow down"}"#)
        #expect(run.status != 0)
        #expect(!run.err.contains(Self.token), "\(run.err)")
        #expect(run.err.contains("Retry-After '***' is neither a number of seconds"), "\(run.err)")
    }

    /// GitHub's message is cut to one line of 300 columns: the token is masked before the cut, so no first part
    /// of it is left where a mask of the whole token cannot find it.
    @Test func aMessageCutShortShowsNoPartOfTheToken() async {
        let padding = String(repeating: "x", count: 280)
        let run = await Self.show(
            status: 401, headers: [], body: #"{"message":"\#(padding) \#(Self.token) and more"}"#)
        #expect(run.status == 4)
        #expect(!run.err.contains(Self.token.prefix(8)), "\(run.err)")
        #expect(run.err.contains("\(padding) *** and more"), "\(run.err)")
    }

    /// A header quoted in a complaint is cut to 40 characters, a request id to 64: the token that the cut leaves
    /// all but its end of is masked all the same.
    @Test func aTokenCutShortInAHeaderShowsNoPartOfIt() async {
        let run = await Self.show(
            status: 429,
            headers: [
                ("Retry-After", "xx\(Self.token)"),
                ("X-GitHub-Request-Id", String(repeating: "r", count: 40) + Self.token),
            ],
            body: #"{"message":"slow down"}"#)
        #expect(run.status != 0)
        #expect(!run.err.contains(Self.token.prefix(8)), "\(run.err)")
        #expect(run.err.contains("Retry-After 'xx***…'"), "\(run.err)")
        #expect(run.err.hasSuffix("request id: \(String(repeating: "r", count: 40))***…\n"), "\(run.err)")
    }

    /// A write's outcome record on stdout says GitHub's refusal in words: the token is masked there too.
    @Test func aRefusedWritesRecordMasksTheToken() async {
        let harness = CommandHarness.signedIn()
        harness.http.register(
            RequestMatcher("PUT /user/blocks/octocat"), status: 422,
            body: Data(#"{"message":"Validation Failed for \#(Self.token)"}"#.utf8))
        let run = await harness.run(["block", "--yes", "octocat", "--format", "tsv"])
        #expect(run.status == 1)
        #expect(run.out == "octocat\tblock\tfailed: GitHub answered HTTP 422: Validation Failed for ***\n")
        #expect(!run.err.contains(Self.token), "\(run.err)")
    }

    /// A 200 whose `ETag` is the token, or whose body holds it, is not kept: the cache folder holds no file with
    /// the token, and the answer is still shown.
    @Test(arguments: [
        ([("ETag", "\"\(token)\"")], #"{"login":"octocat","id":1}"#),
        ([("ETag", "\"abc\"")], #"{"login":"octocat","id":1,"bio":"\#(token)"}"#),
    ])
    func anAnswerThatHoldsTheTokenIsNotCached(headers: [(String, String)], body: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-echo-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = CommandHarness.signedIn()
        harness.cacheDirectory = folder
        harness.http.register(
            RequestMatcher("GET /users/octocat"), headers: headers + [("Content-Type", "application/json")],
            body: Data(body.utf8))
        let run = await harness.run(["show", "octocat", "--retries", "0"])
        #expect(run.status == 0, "\(run.err)")
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        for file in files {
            let bytes = FileManager.default.contents(atPath: file.path) ?? Data()
            #expect(!String(decoding: bytes, as: UTF8.self).contains(Self.token), "\(file.lastPathComponent)")
        }
    }
}
