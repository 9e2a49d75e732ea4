import Foundation
import Testing

@testable import Data
@testable import Domain
@testable import Networking

/// A single object (an account, a hovercard, the rate limits) is read as a list page is: UTF-8 JSON whose first
/// byte past whitespace is `{`. Foundation's decoder skips a byte order mark and reads UTF-16, and the body's
/// bytes are what `--json` prints, so a BOM or UTF-16 answer printed `\u{FEFF}{…` or NUL bytes with exit 0.
struct SingleObjectEncodingTests {
    private static let account = #"{"login":"bom","id":1,"type":"User","name":"N"}"#
    private static let card = #"{"contexts":[{"message":"Owns this repository","octicon":"repo"}]}"#
    private static let limits = #"{"resources":{"core":{"limit":5000,"remaining":4999,"reset":1999999999,"used":1}}}"#

    /// The body as GitHub's UTF-8 JSON would never be: with a UTF-8 BOM, or in UTF-16 with and without one.
    static let encodings: [String] = ["utf8-bom", "utf16le", "utf16be", "utf16le-bom"]

    private static func bytes(_ json: String, _ encoding: String) -> [UInt8] {
        switch encoding {
        case "utf8-bom": return [0xEF, 0xBB, 0xBF] + Array(json.utf8)
        case "utf16le": return json.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case "utf16be": return json.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        default: return [0xFF, 0xFE] + json.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        }
    }

    private static func body(_ bytes: [UInt8], _ label: String) -> ResourceBody {
        ResourceBody(bytes: bytes, next: nil, label: label)
    }

    private static func expectMalformed<T>(_ label: String, _ decode: () throws(DomainError) -> T) {
        do {
            let value = try decode()
            Issue.record("\(label) read as \(value)")
        } catch {
            guard case .malformedResponse(let endpoint, _, _) = error else {
                Issue.record("\(label): got \(error)")
                return
            }
            #expect(endpoint == label)
        }
    }

    /// An account, a hovercard or the rate limits that give a key twice are malformed: Foundation's decoder
    /// keeps the first value and `--json | jq` the last, so the table and the JSON said different logins.
    @Test func anObjectGivingAKeyTwiceIsMalformed() throws {
        let user = GitHubEndpoints.user(try Login(validating: "bom"))
        Self.expectMalformed("GET /users/bom") { () throws(DomainError) in
            try user.decode(Self.body(Array(#"{"login":"a","id":1,"login":"b"}"#.utf8), "GET /users/bom"))
        }
        let card = GitHubEndpoints.hovercard(of: try Login(validating: "bom"), subject: nil)
        Self.expectMalformed("GET /users/bom/hovercard") { () throws(DomainError) in
            try card.decode(Self.body(Array(#"{"contexts":[],"contexts":[]}"#.utf8), "GET /users/bom/hovercard"))
        }
        let limits =
            #"{"resources":{"core":{"limit":5000,"remaining":4999,"reset":1999999999,"used":1}},"resources":{}}"#
        // A bucket's key, nested: the table said 10 left, `--json | jq` 4999.
        let bucket = #"{"resources":{"core":{"limit":5000,"remaining":10,"remaining":4999,"reset":1999999999}}}"#
        for body in [limits, bucket] {
            Self.expectMalformed("GET /rate_limit") { () throws(DomainError) in
                try GitHubEndpoints.rateLimit.decode(Self.body(Array(body.utf8), "GET /rate_limit"))
            }
        }
    }

    /// A bucket's reset is GitHub's time: on a clock 20 minutes behind GitHub's (by the answer's `Date`), one 10 s
    /// away said "in 20m 10s". The overview says how far this clock is off, for the table to show the reset on
    /// this clock, as the waits take it (helper-268); the buckets keep GitHub's reset, as `--json` does.
    @Test func aResetIsShownOnThisClockWhereGitHubsDiffers() throws {
        let now = Date()
        let gitHubNow = now.addingTimeInterval(1_200)
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let reset = Int(gitHubNow.timeIntervalSince1970) + 10
        let text = #"{"resources":{"core":{"limit":5000,"remaining":0,"reset":\#(reset),"used":5000}}}"#
        let body = ResourceBody(
            bytes: Array(text.utf8), next: nil, label: "GET /rate_limit",
            headers: ["date": format.string(from: gitHubNow)])
        let overview = try GitHubEndpoints.rateLimit.decode(body)
        let bucket = try #require(overview.buckets.first)
        #expect(bucket.resetAt == Date(timeIntervalSince1970: TimeInterval(reset)))
        let shown = RateLimitInfo.onThisClock(bucket.resetAt, gitHubNow: overview.answeredAt, now: now)
        #expect(abs(shown.timeIntervalSince(now) - 10) < 2.5, "\(shown) against \(now)")
        // Without a date, as sent.
        let plain = try GitHubEndpoints.rateLimit.decode(Self.body(Array(text.utf8), "GET /rate_limit"))
        #expect(plain.answeredAt == nil)
        #expect(RateLimitInfo.onThisClock(bucket.resetAt, gitHubNow: plain.answeredAt, now: now) == bucket.resetAt)
    }

    /// Reading an object costs many times its bytes: one past 1 MiB is refused before it is read (a 56 MiB
    /// profile of small keys took 866 MB). At the limit, it is read.
    @Test func anObjectPastAMebibyteIsMalformedUnread() throws {
        let user = GitHubEndpoints.user(try Login(validating: "big"))
        let padding = ResponseDecoder.maximumObjectBytes - Self.account.utf8.count
        let atLimit = Self.account.dropLast() + #","bio":""# + String(repeating: "b", count: padding - 9) + #""}"#
        #expect(atLimit.utf8.count == ResponseDecoder.maximumObjectBytes)
        #expect(try user.decode(Self.body(Array(atLimit.utf8), "GET /users/big")).login == "bom")
        Self.expectMalformed("GET /users/big") { () throws(DomainError) in
            try user.decode(Self.body(Array(atLimit.utf8) + [0x20], "GET /users/big"))
        }
        let limits = Self.limits.dropLast() + #","x":""# + String(repeating: "x", count: 1 << 20) + #""}"#
        Self.expectMalformed("GET /rate_limit") { () throws(DomainError) in
            try GitHubEndpoints.rateLimit.decode(Self.body(Array(limits.utf8), "GET /rate_limit"))
        }
    }

    @Test(arguments: encodings)
    func anAccountNotInUTF8IsMalformed(encoding: String) throws {
        let label = "GET /users/bom"
        let user = GitHubEndpoints.user(try Login(validating: "bom"))
        Self.expectMalformed(label) { () throws(DomainError) in
            try user.decode(Self.body(Self.bytes(Self.account, encoding), label))
        }
        Self.expectMalformed("GET /user") { () throws(DomainError) in
            try GitHubEndpoints.authenticatedUser.decode(Self.body(Self.bytes(Self.account, encoding), "GET /user"))
        }
    }

    @Test(arguments: encodings)
    func aHovercardNotInUTF8IsMalformed(encoding: String) throws {
        let label = "GET /users/bom/hovercard"
        let card = GitHubEndpoints.hovercard(of: try Login(validating: "bom"), subject: nil)
        Self.expectMalformed(label) { () throws(DomainError) in
            try card.decode(Self.body(Self.bytes(Self.card, encoding), label))
        }
    }

    @Test(arguments: encodings)
    func rateLimitsNotInUTF8AreMalformed(encoding: String) {
        let label = "GET /rate_limit"
        Self.expectMalformed(label) { () throws(DomainError) in
            try GitHubEndpoints.rateLimit.decode(Self.body(Self.bytes(Self.limits, encoding), label))
        }
    }

    /// The same objects in UTF-8, whitespace around them, are read and kept as sent, compacted.
    @Test func theSameObjectsInUTF8AreRead() throws {
        let user = try GitHubEndpoints.user(try Login(validating: "bom")).decode(
            Self.body(Array((" \n" + Self.account + "\n").utf8), "GET /users/bom"))
        #expect(user.login == "bom")
        #expect(user.raw.bytes == Array(Self.account.utf8))
        let card = try GitHubEndpoints.hovercard(of: try Login(validating: "bom"), subject: nil).decode(
            Self.body(Array(("\t" + Self.card).utf8), "GET /users/bom/hovercard"))
        #expect(card.raw.bytes == Array(Self.card.utf8))
        let limits = try GitHubEndpoints.rateLimit.decode(Self.body(Array(Self.limits.utf8), "GET /rate_limit"))
        #expect(limits.raw.bytes == Array(Self.limits.utf8))
    }
}
