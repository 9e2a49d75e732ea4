import Domain
import Foundation
import Testing

@testable import Data

/// Accounts read in one pass (`UserDTO.init(scanning:in:)`) are the accounts Foundation's `JSONDecoder` reads,
/// and a page either refuses does so with the same words, because Foundation reads whatever the scan leaves.
struct ScannedAccountsTests {
    private static func read(_ text: String, scanning: Bool) -> Result<[User], DomainError> {
        Result { () throws(DomainError) in
            try ResponseDecoder.items(
                bytes: Array(text.utf8), endpoint: "GET /users", as: UserDTO.self, scanning: scanning
            ) { $0.toDomain(raw: $1) }
        }
    }

    private static let account =
        #"{"login":"octocat","id":1,"node_id":"MDQ6VXNlcjE=","type":"User","site_admin":false,"#
        + #""html_url":"https://github.com/octocat","name":"The \"Octo\" Cat","company":null,"blog":"","#
        + #""location":"SF","email":null,"bio":"a\nb","twitter_username":null,"hireable":true,"public_repos":8,"#
        + #""public_gists":8,"followers":9000,"following":9,"created_at":"2011-01-25T18:44:36Z","#
        + #""updated_at":"2024-01-01T00:00:00Z","plan":{"name":"pro","space":976562499,"private_repos":9999}}"#

    @Test(arguments: [
        "[]", "[" + account + "]", "[" + account + "," + account + "]",
        #"[{"id":2,"login":"a"} , {"login":"b","id":3}]"#,
        // What the scan leaves to Foundation: Foundation's reading stands.
        #"[{"id":2,"login":"é"}]"#, #"[{"id":2,"login":"\u0061"}]"#, #"[{"id":2,"login":"a","id":3}]"#,
        #"[{"id":2.0,"login":"a"}]"#, #"[{"id":2,"login":"a","followers":1.0}]"#, #"[{"\u0069d":2,"login":"a"}]"#,
        // Malformed: each is refused, with Foundation's words.
        #"[{"id":2,"login":"a"},]"#, #"[{"id":2,"login":"a"} {"id":3,"login":"b"}]"#, #"[{"id":"2","login":"a"}]"#,
        #"[{"id":2}]"#, #"[{"login":"a"}]"#, #"[{"id":null,"login":"a"}]"#, #"[{"id":2,"login":5}]"#,
        #"[{"id":2,"login":"a","site_admin":"no"}]"#, #"[{"id":2,"login":"a","followers":1.5}]"#,
        #"[{"id":2,"login":"a","followers":9223372036854775808}]"#, #"[{"id":2,"login":"a","x":[1,]}]"#,
        #"[{"id":2,"login":"a","name":true}]"#, #"[1]"#, #"[{"id":2,"login":"a"}, null]"#,
    ])
    func theScanReadsWhatFoundationReads(body: String) {
        let scanned = Self.read(body, scanning: true)
        let decoded = Self.read(body, scanning: false)
        switch (scanned, decoded) {
        case (.success(let scanned), .success(let decoded)):
            #expect(scanned == decoded)
            #expect(scanned.map(\.raw) == decoded.map(\.raw))
        case (.failure(let scanned), .failure(let decoded)):
            #expect("\(scanned)" == "\(decoded)")
        default:
            Issue.record("scanned \(scanned), decoded \(decoded)")
        }
    }

    /// The recorded lists of accounts read the same either way.
    @Test func gitHubsOwnListReadsTheSameEitherWay() throws {
        let body = try fixture("users-list.json")
        let scanned = try Self.read(body, scanning: true).get()
        #expect(!scanned.isEmpty)
        #expect(try scanned == Self.read(body, scanning: false).get())
    }

    /// An account that gives a key twice is malformed (exit 1), read either way: Foundation's decoder kept the
    /// first `login` for the table while jq and `--fields` read the last from the same bytes. A key no field
    /// reads counts too, since `--fields` and jq can ask for it.
    @Test(arguments: [
        (#"[{"id":2,"login":"a","login":"b"}]"#, "item 1: the key 'login' is given twice"),
        (#"[{"id":2,"login":"a"},{"id":3,"login":"b","log\u0069n":"c"}]"#, "item 2: the key 'login' is given twice"),
        (#"[{"id":2,"login":"a","node_id":"x","url":"u","node_id":"y"}]"#, "item 1: the key 'node_id' is given twice"),
        (#"[{"id":2,"login":"é","id":3}]"#, "item 1: the key 'id' is given twice"),
        (#"[{"id":2,"login":"a","\u001b[2J":1,"\u001b[2J":2}]"#, "item 1: a key is given twice"),
        (#"[{"id":2,"login":"a","plan":{"name":"x","space":1,"name":"y"}}]"#, "item 1: the key 'name' is given twice"),
    ])
    func anAccountGivingAKeyTwiceIsMalformed(body: String, detail: String) {
        for scanning in [true, false] {
            guard case .failure(.malformedResponse(_, let said, _)) = Self.read(body, scanning: scanning) else {
                Issue.record("read \(body) scanning \(scanning)")
                continue
            }
            #expect(said == detail)
        }
    }

    /// The scan is the path GitHub's accounts take, not Foundation's decoder: every account of GitHub's
    /// documented list, and of a page of short accounts, is read by it (a scan that gave up on them would
    /// still read the same, only slower).
    @Test func gitHubsAccountsAreReadByTheScan() throws {
        let short =
            "["
            + (1...1_000).map { #"{"login":"u\#($0)","id":\#($0),"type":"User","site_admin":false}"# }
            .joined(separator: ",") + "]"
        for (body, count) in [(try fixture("users-list.json"), 1), (short, 1_000)] {
            let users = ResponseDecoder.scannedItems(bytes: Array(body.utf8), as: UserDTO.self) {
                $0.toDomain(raw: $1)
            }
            #expect(users?.count == count)
        }
    }
}

/// A date with a field out of range is dropped: the ISO 8601 parser takes it as another date (before:
/// `show --format csv` wrote `2010-03-02T00:00:00Z` for `2010-02-30T00:00:00Z`).
struct ProfileDateTests {
    @Test(arguments: [
        ("2008-01-14T04:33:35Z", "2008-01-14T04:33:35Z"), ("2008-01-14T04:33:35+01:00", "2008-01-14T03:33:35Z"),
        ("2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"), ("2010-02-30T00:00:00Z", nil), ("2023-02-29T00:00:00Z", nil),
        ("2010-01-01T25:61:61Z", nil), ("2010-01-01", nil), ("2010-13-01T00:00:00Z", nil),
    ])
    func aDateWithAFieldOutOfRangeIsDropped(text: String, read: String?) {
        #expect(UserDTO.parseDate(text).map { $0.formatted(.iso8601) } == read, "\(text)")
    }
}
