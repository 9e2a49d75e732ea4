import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A body that is JSON but not what GitHub documents is refused naming what was wrong, exit 1, nothing on stdout.
struct MalformedItemsCommandTests {
    private func run(_ arguments: [String], request: String, body: String) async -> CommandHarness.Outcome {
        let harness = CommandHarness()
        harness.http.register(RequestMatcher(request), status: 200, headers: [], body: Data(body.utf8))
        return await harness.run(arguments)
    }

    /// Account lists already refuse these; a list of records (keys, orgs, gists…) printed them as empty rows.
    @Test(arguments: [
        ("null", "null"), ("7", "a number"), ("[]", "an array"), (#""key""#, "a string"), ("true", "a boolean"),
    ])
    func aRecordThatIsNotAnObjectIsRefused(item: String, kind: String) async {
        for format in ["tsv", "json"] {
            let run = await run(
                ["keys", "octocat", "--format", format], request: "GET /users/octocat/keys?per_page=30",
                body: #"[{"id":1,"key":"ssh-ed25519 AAAA"},"# + item + "]")
            #expect(run.status == 1)
            #expect(run.out.isEmpty)
            #expect(run.err.contains("item 2 is \(kind), not an object"), "\(run.err)")
        }
    }

    /// GitHub's documented profile (Bodies/users-get-by-username.json) with a count that is not whole.
    @Test func aCountThatIsNotWholeNamesItsKey() async {
        let documented = String(decoding: Bodies.named("users-get-by-username"), as: UTF8.self)
        let body = documented.replacingOccurrences(of: #""followers": 20,"#, with: #""followers": 1.5,"#)
        #expect(body != documented)
        let run = await run(["show", "octocat"], request: "GET /users/octocat", body: body)
        #expect(run.status == 1)
        #expect(run.err.contains("followers is 1.5, not a whole number"), "\(run.err)")
        #expect(!run.err.contains("not valid JSON"))
        // Valid JSON all the same: a count too large was "not valid JSON" (1e400) or "not a whole number".
        for (count, said) in [
            (
                "99999999999999999999999",
                "followers is 99999999999999999999999, beyond what a 64-bit whole number holds"
            ),
            ("-99999999999999999999999", "followers is -99999999999999999999999, beyond what a 64-bit whole number"),
            ("1.5e400", "followers is 1.5e400, beyond what a 64-bit whole number holds"),
            ("1.25e1", "followers is 1.25e1, not a whole number"),
            ("1e400", "followers is 1e400, beyond what a 64-bit whole number holds"),
        ] {
            let large = documented.replacingOccurrences(of: #""followers": 20,"#, with: #""followers": \#(count),"#)
            let refused = await self.run(["show", "octocat"], request: "GET /users/octocat", body: large)
            #expect(refused.status == 1)
            #expect(refused.err.contains(said), "\(refused.err)")
        }
    }

    /// `levels` arrays around a `0` that is in `{"id":1,…,"nested":…}` inside the page's array: the answer nests
    /// `levels + 2` deep.
    private static func nested(_ levels: Int, widthOfTheInnermost width: Int = 1, account: Bool = false) -> String {
        let innermost = Array(repeating: "0", count: width).joined(separator: ",")
        let value = String(repeating: "[", count: levels) + innermost + String(repeating: "]", count: levels)
        return #"[{"id":1,"# + (account ? #""login":"octocat","# : "") + #""nested":"# + value + "}]"
    }

    /// A body nested deeper than any GitHub object is refused by every reader alike, a list of records, a list of
    /// accounts or one account, before anything is written: a record 20,000 objects deep printed 800 MB of
    /// indented JSON at 1.15 GB of memory (issue 38), and the account lists said "not valid JSON" of it.
    @Test(arguments: [
        (["stargazers", "octocat/Hello-World"], "GET /repos/octocat/Hello-World/stargazers?per_page=30", false),
        (["orgs", "octocat"], "GET /users/octocat/orgs?per_page=30", false),
        (["followers", "octocat"], "GET /users/octocat/followers?per_page=30", true),
    ])
    func anAnswerNestedPast64LevelsIsRefused(arguments: [String], request: String, account: Bool) async {
        for levels in [63, 20_000] {
            for format in ["json", "tsv"] {
                let run = await run(
                    arguments + ["--format", format], request: request,
                    body: Self.nested(levels, account: account))
                #expect(run.status == 1, "\(arguments) \(levels) \(format)")
                #expect(run.out.isEmpty)
                #expect(
                    run.err
                        == "gh-users: malformed response from \(request): the answer nests objects or arrays more than "
                        + "64 levels deep, where GitHub's are a few levels deep\n", "\(run.err)")
            }
        }
        let single = await run(
            ["show", "octocat", "--format", "json"], request: "GET /users/octocat",
            body: String(Self.nested(64, account: true).dropFirst().dropLast()))
        #expect(single.status == 1)
        #expect(single.err.contains("more than 64 levels deep"), "\(single.err)")
    }

    /// A page of many small values is refused before it is read, as one nested too deep is: reading JSON costs
    /// about 80 bytes a value, and 21 million `{}` under the body cap took 1.3 GB and crashed under a 1 GB
    /// `ulimit -v` (helper-320). A list of 10,001 members, or a million values in lists of a thousand, is no
    /// answer of GitHub's; 10,000 members still are read.
    @Test func anAnswerOfTooManyValuesIsRefusedBeforeItIsRead() async {
        let request = "GET /users/octocat/followers?per_page=30"
        func members(_ count: Int) -> String {
            "[" + Array(repeating: #"{"login":"a","id":1}"#, count: count).joined(separator: ",") + "]"
        }
        let wide = await run(["followers", "octocat", "--format", "tsv"], request: request, body: members(10_001))
        #expect(wide.status == 1)
        #expect(wide.out.isEmpty)
        #expect(
            wide.err
                == "gh-users: malformed response from \(request): the answer holds a list or an object of more than "
                + "10000 members, where GitHub's hold a hundred or so\n", "\(wide.err)")
        let thousand = "[" + Array(repeating: "{}", count: 1_000).joined(separator: ",") + "]"
        let many =
            #"[{"login":"a","id":1,"x":["# + Array(repeating: thousand, count: 1_000).joined(separator: ",") + "]}]"
        let deep = await run(["followers", "octocat", "--format", "tsv"], request: request, body: many)
        #expect(deep.status == 1)
        #expect(deep.err.contains("the answer holds more than 1000000 values"), "\(deep.err)")
        // A GraphQL answer too (`access`: 15 MiB of `{}` in one took 353 MB, eight at once 951 MB).
        let graphQL = CommandHarness.signedIn()
        graphQL.http.register(
            RequestMatcher("POST /graphql"), body: Data((#"{"data":{"junk":"# + members(10_001) + "}}").utf8))
        let access = await graphQL.run(["access", "octo-org"])
        #expect(access.status == 1)
        #expect(access.err.contains("more than 10000 members, where GitHub's hold a hundred or so"), "\(access.err)")
        let whole = await run(["followers", "octocat", "--format", "tsv"], request: request, body: members(10_000))
        #expect(whole.status == 0, "\(whole.err)")
    }

    /// gh-users writes GitHub's bytes as they came, and a decoder reads only the fields it maps: a raw control
    /// character, a bad escape, a lone surrogate or bytes that are not UTF-8 in `node_id` reached jq as no JSON
    /// at all, with exit 0 (a raw line break split an ndjson record in two), and csv wrote them altered.
    @Test(
        arguments: [
            (Array("a\nb".utf8), "a raw control character (U+000A) in a string"),
            (Array("\u{1B}]0;x".utf8), "a raw control character (U+001B) in a string"),
            (Array(#"\x41"#.utf8), "an escape JSON does not have in a string"),
            (Array(#"\ud800"#.utf8), "a lone UTF-16 surrogate in a string"),
            ([0x61, 0xFF, 0xFE], "bytes that are not UTF-8 in a string"),
        ] as [([UInt8], String)])
    func anAnswerThatIsNotJSONInAFieldNothingDecodesIsRefused(value: [UInt8], reason: String) async {
        let cases = [
            (
                ["list", "--limit", "1"], "GET /users?since=0&per_page=1", #"[{"login":"octocat","id":1,"node_id":""#,
                "\"}]"
            ),
            (
                ["keys", "octocat"], "GET /users/octocat/keys?per_page=30", #"[{"id":1,"key":"ssh-ed25519 AAAA","x":""#,
                "\"}]"
            ),
            (
                ["show", "octocat"], "GET /users/octocat", #"{"login":"octocat","id":1,"type":"User","node_id":""#,
                "\"}"
            ),
        ]
        for (arguments, request, head, tail) in cases {
            for format in ["json", "ndjson", "csv"] {
                let harness = CommandHarness()
                let body = Array(head.utf8) + value + Array(tail.utf8)
                harness.http.register(RequestMatcher(request), status: 200, headers: [], body: Data(body))
                let run = await harness.run(arguments + ["--format", format])
                #expect(run.status == 1, "\(arguments) \(format)")
                #expect(run.out.isEmpty, "\(arguments) \(format)")
                #expect(
                    run.err.hasPrefix(
                        "gh-users: malformed response from \(request): the body is not valid JSON: \(reason) at byte "),
                    "\(run.err)")
            }
        }
    }

    /// A GraphQL error status is its reader's to map, whatever its body holds: a 401 whose message has a raw tab
    /// is the token refused (exit 4), as on REST, not a malformed answer (exit 1, before the fix).
    @Test func aGraphQLErrorStatusIsMappedWhateverItsBodyHolds() async {
        let harness = CommandHarness.signedIn()
        harness.http.register(
            RequestMatcher("POST /graphql"), status: 401, headers: [],
            body: Data("{\"message\":\"Bad\tcredentials\"}".utf8))
        let run = await harness.run(["contributions", "octocat"])
        #expect(run.status == 4, "\(run.err)")
        #expect(!run.err.contains("malformed"), "\(run.err)")
    }

    /// At 64 levels, the most an answer may nest, a wide array at the bottom prints in proportion to the body:
    /// each `0,` of it (two bytes) is a line of 2 × 64 spaces, so about 66 bytes of output a byte of body.
    @Test func anAnswerNested64LevelsDeepPrintsInProportion() async throws {
        let body = Self.nested(62, widthOfTheInnermost: 5_000)
        let run = await run(
            ["orgs", "octocat", "--format", "json"], request: "GET /users/octocat/orgs?per_page=30", body: body)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.utf8.count < 70 * body.utf8.count)
        #expect(run.out.contains("\n" + String(repeating: " ", count: 2 * 64) + "0,\n"))
        _ = try JSONSerialization.jsonObject(with: Data(run.out.utf8))
    }
}
