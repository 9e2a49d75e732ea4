import Foundation
import TestSupport
import Testing

@testable import gh_users

/// gh-users's own files given where another kind is asked: each is named for what it is, with no list of the
/// keys the other kind wants and no advice to remove it, which would lose that other run's record (an exit-code
/// review found `members --changes` given an access map's snapshot told to "remove it to start again"). A
/// snapshot's filters are named as its own list's refusal names them (before, `members github (role=admin)` was
/// called `members github`), and a follower snapshot's set operation as its option (`followers octocat --mutual`).
struct OwnFileKindsTests {
    typealias Reader = (kind: String, decode: @Sendable ([UInt8]) -> Result<Void, FileContentProblem>)

    /// Each kind's file as gh-users writes it, and what it is said to be.
    static let files: [(kind: String, text: String, said: String)] = [
        (
            PeopleSnapshot.kindName,
            #"{"version":1,"command":"members","of":"github","filters":{"role":"admin"},"people":[]}"#,
            "the snapshot of 'gh-users members github (role=admin)'"
        ),
        (
            FollowSnapshot.kindName,
            #"{"version":2,"command":"followers","account_id":1,"login":"octocat","filter":null,"accounts":[]}"#,
            "the snapshot of 'gh-users followers octocat'"
        ),
        (
            FollowSnapshot.kindName,
            #"{"version":2,"command":"followers","account_id":1,"login":"octocat","filter":"mutual","accounts":[]}"#,
            "the snapshot of 'gh-users followers octocat --mutual'"
        ),
        (
            AccessSnapshot.kindName,
            #"{"version":1,"command":"access","of":"github","filters":{"repo":"a,b","permission":"write"},"access":[]}"#,
            "the snapshot of 'gh-users access github (permission=write, repo=a,b)'"
        ),
        (
            AccessState.kindName,
            String(
                decoding: AccessState(organization: "github", filters: [:], format: .tsv, fields: nil, apiURL: nil)
                    .encoded, as: UTF8.self),
            "the state of 'gh-users access github'"
        ),
        (
            CrawlState.kindName,
            String(decoding: CrawlState(since: 5, outputBytes: nil, output: nil).encoded, as: UTF8.self),
            "the state of a list crawl"
        ),
    ]

    static let readers: [Reader] = [
        (PeopleSnapshot.kindName, { PeopleSnapshot.decode($0).map { _ in } }),
        (FollowSnapshot.kindName, { FollowSnapshot.decode($0).map { _ in } }),
        (AccessSnapshot.kindName, { AccessSnapshot.decode($0).map { _ in } }),
        (AccessState.kindName, { AccessState.decode($0).map { _ in } }),
        (CrawlState.kindName, { CrawlState.decode($0).map { _ in } }),
    ]

    @Test func eachOwnFileIsReadByItsKindAndNamedByEveryOther() {
        for file in Self.files {
            for reader in Self.readers {
                let result = FileContentProblem.reading(
                    Array(file.text.utf8), as: reader.kind, option: "--changes", reader.decode)
                guard reader.kind != file.kind else {
                    if case .failure(let problem) = result { Issue.record("\(file.kind) not read: \(problem)") }
                    continue
                }
                guard case .failure(let problem) = result else {
                    Issue.record("\(file.kind) read as \(reader.kind)")
                    continue
                }
                #expect(problem.detail == "is \(file.said), not \(reader.kind)", "\(file.kind) as \(reader.kind)")
                #expect(problem.remedy == "give --changes a file of its own for this run")
            }
        }
    }

    /// A byte order mark, which the decoders read past, hides no kind (a regression review's find: the long
    /// list and "remove it" came back).
    @Test func aByteOrderMarkHidesNoKind() {
        let file = Self.files[2]
        let result = FileContentProblem.reading(
            [0xEF, 0xBB, 0xBF] + Array(file.text.utf8), as: PeopleSnapshot.kindName, option: "--changes",
            { PeopleSnapshot.decode($0).map { _ in true } })
        #expect(
            result
                == .failure(
                    .init(
                        "is \(file.said), not \(PeopleSnapshot.kindName)",
                        remedy: "give --changes a file of its own for this run")))
    }

    /// A snapshot with more filters than the name shows is named by its first ones, cut at 200 characters, as
    /// before its filters were read only that far (a file of 20,000 took 16 s when each was looked up from the
    /// start: a speed this test does not time; it pins that the bounded reading names the same).
    @Test func manyFiltersAreNamedByTheFirstOnes() {
        let filters = (0..<20_000).map { String(format: "\"f%05d\":\"v\"", $0) }.joined(separator: ",")
        let text = #"{"version":1,"command":"members","of":"github","filters":{"# + filters + #"},"people":[]}"#
        let result = FileContentProblem.reading(
            Array(text.utf8), as: FollowSnapshot.kindName, option: "--changes",
            { FollowSnapshot.decode($0).map { _ in true } })
        guard case .failure(let problem) = result else {
            Issue.record("read as a follower snapshot")
            return
        }
        let shown =
            "gh-users members github (" + (0..<20_000).map { String(format: "f%05d=v", $0) }.joined(separator: ", ")
        #expect(problem.detail == "is the snapshot of '\(shown.prefix(200))…', not \(FollowSnapshot.kindName)")
    }

    /// An empty file is said to be empty, with the usual remedy (before: the list of every key its kind wants).
    @Test(arguments: ["", "\n", " \r\n\t", "\u{FEFF}"])
    func anEmptyFileIsSaidToBeEmpty(text: LoggedText) {
        for reader in Self.readers {
            let result = FileContentProblem.reading(
                Array(text.text.utf8), as: reader.kind, option: "--state", reader.decode)
            guard case .failure(let problem) = result else {
                Issue.record("an empty file read as \(reader.kind)")
                continue
            }
            #expect(problem == FileContentProblem("is empty"))
        }
    }

    /// A `members` snapshot of one person, whole.
    private static let snapshot =
        #"{"version":1,"command":"members","of":"x","filters":{},"people":[{"id":1,"login":"a"}]}"#

    /// `bytes` read as `--changes` reads a people snapshot.
    private func reading(_ bytes: [UInt8]) -> Result<Void, FileContentProblem> {
        FileContentProblem.reading(
            bytes, as: PeopleSnapshot.kindName, option: "--changes", { PeopleSnapshot.decode($0).map { _ in } })
    }

    /// A snapshot Foundation's decoder reads that is not JSON (a comma before `]` or `}`, UTF-16) is refused,
    /// saying where: no gh-users writes one, and jq refuses it (helper-237: read, and rewritten without a word).
    /// The same file as JSON, behind a byte order mark or with CR LF, is read.
    @Test func aFileFoundationReadsThatIsNotJSONIsRefused() {
        let read = Self.snapshot
        for text in [
            read.replacing(#""a"}]"#, with: #""a"},]"#), read.replacing(#""a"}]"#, with: #""a",}]"#),
            read.replacing(#"{}"#, with: #"{"role":"admin",}"#),
        ] {
            guard case .failure(let problem) = reading(Array(text.utf8)) else {
                Issue.record("\(text) read")
                continue
            }
            #expect(problem.detail.hasPrefix("is not JSON as RFC 8259 writes it (at byte "), "\(problem.detail)")
            // Its own way out: mend the byte, not remove a file whose every value read.
            #expect(problem.remedy?.hasPrefix("mend it there") == true)
        }
        let utf16: [UInt8] = [0xFF, 0xFE] + Array(read.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(throws: FileContentProblem.self) { try reading(utf16).get() }
        #expect(throws: Never.self) { try reading([0xEF, 0xBB, 0xBF] + Array(read.utf8)).get() }
        #expect(throws: Never.self) { try reading(Array(read.replacing("[", with: "[\r\n").utf8)).get() }
    }

    /// A file that does not even begin as gh-users's do (a tsv given as --state, a token file as --changes) is
    /// someone's data: its way out is another file, never "remove it to start again" (helper-341: a tsv crawl's
    /// output given as its --state was to be removed).
    @Test(arguments: [
        "1\toctocat\n", "ghp_token\n", "id,login\r\n1,octocat\r\n", "[1,2",
        // A crawl's json or ndjson output, and a package.json (helper-342's R2: still "remove it").
        #"[{"login":"octocat","id":1}]"#, "{\"login\":\"a\",\"id\":1}\n{\"login\":\"b\",\"id\":2}\n",
        #"{"name":"app","private":true}"#,
    ])
    func aFileThatIsNoneOfOursIsNeverToBeRemoved(text: String) {
        guard case .failure(let problem) = reading(Array(text.utf8)) else {
            Issue.record("\(text) read")
            return
        }
        #expect(problem.detail.hasSuffix(", so it is not \(PeopleSnapshot.kindName)"), "\(problem.detail)")
        #expect(
            problem.remedy?.hasPrefix("give --changes a file of its own") == true,
            "\(String(describing: problem.remedy))")
    }

    /// helper-267: a snapshot cut short (a full disk, a copy interrupted), or with a stray byte, was said not to
    /// hold "version", "command" … "people", every key it held; it is said to be no JSON, and where.
    @Test func aFileCutShortOrWithAStrayByteSaysWhereItStopsBeingJSON() {
        let whole = Self.snapshot
        for (text, at) in [
            (String(whole.prefix(60)), 60), (whole + "x", whole.utf8.count),
            (whole.replacing("\"a\"", with: "\"a\u{1}\""), 83),
        ] {
            guard case .failure(let problem) = reading(Array(text.utf8)) else {
                Issue.record("\(text) read")
                continue
            }
            #expect(problem.detail.hasPrefix("is not JSON as RFC 8259 writes it (at byte \(at): "), "\(problem.detail)")
            #expect(!problem.detail.contains("does not hold"))
            // Not the way out of a comma too many: the usual one for a file that is not the snapshot.
            #expect(problem.remedy == nil)
        }
        // A file Foundation reads, a comma too many aside, keeps the decoder's words about what it holds: a newer
        // version is said as one, not as a file to remove (helper-270).
        let newer = whole.replacing(#""version":1"#, with: #""version":2"#).replacing(#""a"}]"#, with: #""a"},]"#)
        guard case .failure(let problem) = reading(Array(newer.utf8)) else {
            Issue.record("\(newer) read")
            return
        }
        #expect(problem.detail.hasPrefix("has version 2"), "\(problem.detail)")
    }

    /// A newer gh-users's file of each kind is named so however its keys changed: a new version may rename them
    /// (helper-312: with one renamed, the old advice to fix or remove it came back).
    @Test func aNewerVersionIsNamedWhateverItsKeys() {
        let bytes = Array(#"{"version":7,"command":"members","entries":[]}"#.utf8)
        let problems = [
            FileContentProblem.reading(bytes, as: CrawlState.kindName, option: "--state", { CrawlState.decode($0) }),
            FileContentProblem.reading(bytes, as: AccessState.kindName, option: "--state") {
                AccessState.decode($0).map { _ in CrawlState(since: 0) }
            },
            FileContentProblem.reading(bytes, as: AccessSnapshot.kindName, option: "--changes") {
                AccessSnapshot.decode($0).map { _ in CrawlState(since: 0) }
            },
            FileContentProblem.reading(bytes, as: PeopleSnapshot.kindName, option: "--changes") {
                PeopleSnapshot.decode($0).map { _ in CrawlState(since: 0) }
            },
            FileContentProblem.reading(bytes, as: FollowSnapshot.kindName, option: "--changes") {
                FollowSnapshot.decode($0).map { _ in CrawlState(since: 0) }
            },
        ]
        for case .failure(let problem) in problems {
            #expect(problem.detail.hasPrefix("has version 7, which a newer gh-users writes; this one reads "))
            #expect(problem.remedy == "run it with that newer gh-users, or give this run another file")
        }
        #expect(problems.allSatisfy { if case .failure = $0 { true } else { false } })
    }

    /// A damaged or newer file of the kind asked, even with another kind's key beside its own, and a file that
    /// only shares a common key with one of gh-users's (no numbered version, no command), keep the decoder's
    /// words (a regression review found them named as another kind); a newer one is left to a newer gh-users.
    @Test func aDamagedFileOfTheKindAskedOrAForeignOneIsNotNamedAsAnother() {
        let newer = #"{"version":99,"command":"access","of":"o","filters":{},"access":[],"people":[]}"#
        for text in [
            #"{"version":1,"command":"access","of":"","filters":{},"access":[]}"#, #"{"a":1}"#, newer, #"{"people":1}"#,
            #"{"since":"2020-01-01","note":"x"}"#, #"{"version":1,"people":[]}"#,
            #"{"version":1,"command":"access","since":3}"#,
            #"{"version":1,"command":5,"of":"y","people":[]}"#,
            #"{"version":"1","command":"members","of":"y","people":[]}"#,
        ] {
            let result = FileContentProblem.reading(
                Array(text.utf8), as: AccessSnapshot.kindName, option: "--changes",
                { AccessSnapshot.decode($0).map { _ in } })
            guard case .failure(let problem) = result else {
                Issue.record("\(text) read")
                continue
            }
            // One that does not begin as gh-users's do is someone's file: never to be removed (helper-342).
            let foreign = !text.hasPrefix(#"{"version""#)
            let remedy =
                text == newer
                ? "run it with that newer gh-users, or give this run another file"
                : foreign ? "give --changes a file of its own (a new name: gh-users makes it)" : nil
            #expect(problem.remedy == remedy, "\(problem)")
            #expect(!problem.detail.hasPrefix("is the"), "\(problem)")
        }
    }
}
