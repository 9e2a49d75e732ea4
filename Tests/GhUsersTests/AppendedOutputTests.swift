import AtomicCore
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A crawl that appends to a file holding records writes no CSV header, so the file must begin as this run's
/// output would (`AppendedOutputCheck`). Before: `list --output o.csv --fields login` went on under the file's
/// `id,login,type,html_url` header, and `--format tsv` or `ndjson` went on after its csv, exit 0.
struct AppendedOutputTests {
    /// What `list --limit 2 --format csv` writes of accounts 1 and 2.
    private static let written = "id,login,type,html_url\r\n1,user1,,\r\n2,user2,,\r\n"

    /// `>> FILE` with `--state` is checked the same way: `CrawlStateSafetyEndToEndTests`, since it reads stdout.
    private func run(_ line: [String], github: StubTransport) async -> (status: Int32, out: String, err: String) {
        let (env, out, err) = AppEnvironment.test(http: github)
        let status = await GhUsersApp(environment: env).run(line + ["--no-cache"])
        return (status, out.text, err.text)
    }

    private func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The review's runs: a csv crawl, then one of another shape into the same file is refused before any
    /// request, the file as it was; the same shape still goes on without a header.
    @Test(arguments: [
        (
            ["--format", "csv", "--fields", "login"],
            "begins with the line 'id,login,type,html_url', not this run's csv header 'login'"
        ),
        (["--format", "tsv"], "begins with the csv header 'id,login,type,html_url', and this run writes tsv"),
        (
            ["--format", "ndjson"],
            "begins with the line 'id,login,type,html_url', and every ndjson record is a JSON object"
        ),
        (
            ["--format", "csv", "--full"],
            "begins with the line 'id,login,type,html_url', not this run's csv header 'login,id,"
        ),
    ])
    func anotherShapeIsRefusedAndTheSameOneAppends(shape: [String], says: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder("o.csv")
        let first = StubTransport()
        first.answer("GET /users?since=0&per_page=2", accounts: [1, 2])
        let wrote = await run(["list", "--limit", "2", "--output", output, "--format", "csv"], github: first)
        #expect(wrote.status == 0, "\(wrote.err)")
        #expect(try read(output) == Self.written)

        let refused = StubTransport()
        let other = await run(["list", "--since", "2", "--limit", "2", "--output", output] + shape, github: refused)
        #expect(other.status == 1)
        #expect(refused.received.isEmpty)
        #expect(try read(output) == Self.written)
        #expect(other.err.hasPrefix("gh-users: the output file '\(output)' \(says)"), "\(other.err)")
        #expect(other.err.contains("Nothing was written, and the file is as it was"), "\(other.err)")

        let github = StubTransport()
        github.answer("GET /users?since=2&per_page=2", accounts: [3, 4])
        let same = await run(
            ["list", "--since", "2", "--limit", "2", "--output", output, "--format", "csv"], github: github)
        #expect(same.status == 0, "\(same.err)")
        #expect(try read(output) == Self.written + "3,user3,,\r\n4,user4,,\r\n")
    }

    /// A tsv crawl into a file of ndjson, or of tsv with other columns, is refused before any request, the file as
    /// it was, also with a new state; tsv of the same columns goes on. Before (a review's find): exit 0, and the
    /// file held a JSON line and then tsv, or four columns and then one.
    @Test(arguments: [
        (["--format", "ndjson"], [String](), #"begins with the line '{"login":"user1","#),
        (["--format", "tsv"], ["--fields", "login"], "begins with the line '1\\tuser1\\t\\t', of 4 tab-separated"),
        (["--format", "tsv", "--fields", "login"], [], "begins with the line 'user1', of 1 tab-separated column"),
    ])
    func tsvGoesOnOnlyAfterAsManyColumns(first: [String], then: [String], says: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder("o")
        let github = StubTransport()
        github.answer("GET /users?since=0&per_page=2", accounts: [1, 2])
        #expect(await run(["list", "--limit", "2", "--output", output] + first, github: github).status == 0)
        let written = try read(output)
        for state in [[], ["--state", folder("s")]] {
            let refused = StubTransport()
            let other = await run(
                ["list", "--since", "2", "--limit", "2", "--output", output] + then + state, github: refused)
            #expect(other.status == 1)
            #expect(refused.received.isEmpty)
            #expect(try read(output) == written)
            #expect(other.err.hasPrefix("gh-users: the output file '\(output)' \(says)"), "\(other.err)")
            #expect(!FileManager.default.fileExists(atPath: folder("s")))
        }
        let same = StubTransport()
        same.answer("GET /users?since=2&per_page=2", accounts: [3, 4])
        let more = await run(["list", "--since", "2", "--limit", "2", "--output", output] + first, github: same)
        #expect(more.status == 0, "\(more.err)")
        #expect(try read(output).hasPrefix(written) && read(output).count > written.count)
    }

    /// A file whose last line has no end (a run without `--state` killed mid-record) is refused before any
    /// request, in every format: before, the first record joined it, `{"a":1{"login":"user1",…`, exit 0.
    @Test(arguments: [
        ("ndjson", #"{"a":1"#), ("tsv", "1\tuser1\t\t\n2\tus"), ("csv", "id,login,type,html_url\r\n1,us"),
    ])
    func aFileThatEndsInsideALineIsRefused(format: String, held: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder("o")
        try held.write(toFile: output, atomically: true, encoding: .utf8)
        let github = StubTransport()
        let refused = await run(["list", "--limit", "2", "--output", output, "--format", format], github: github)
        #expect(refused.status == 1)
        #expect(github.received.isEmpty)
        #expect(try read(output) == held)
        #expect(
            refused.err.hasPrefix(
                "gh-users: the output file '\(output)' ends inside a line (its last byte is no line end)"),
            "\(refused.err)")
        #expect(refused.err.contains("Nothing was written, and the file is as it was"))
    }

    /// gh-users's own files, as their kinds write them, and what a refusal calls each.
    static let ownFiles: [(text: String, called: String)] = [
        (SnapshotServerTests.people("members", "github", root: nil), "the snapshot of 'gh-users members github'"),
        (SnapshotServerTests.followers(root: nil), "the snapshot of 'gh-users followers me'"),
        (ReadOnlyOwnFileTests.access, "the snapshot of 'gh-users access octo-org'"),
        (
            String(decoding: CrawlState(since: 5, outputBytes: 9, output: "/tmp/o.tsv").encoded, as: UTF8.self),
            "the state of a list crawl"
        ),
        (
            String(
                decoding: AccessState(
                    organization: "octo-org", filters: [:], format: .tsv, fields: nil, apiURL: "https://api.github.com"
                ).encoded, as: UTF8.self),
            "the state of 'gh-users access octo-org'"
        ),
    ]

    /// A state whose first line is longer than what is read (a map of 1,300 repositories `--repo` named and
    /// GitHub did not have), a snapshot `jq .` rewrote (which `--changes` still reads), a state with a tab for a
    /// space, and one `jq -S .` rewrote, its keys sorted: each is known by how it begins or, read whole, as what
    /// it is (a review's find: each was appended to).
    static let ownFilesKnownByTheirStart: [String] = [
        {
            var state = AccessState(
                organization: "octo-org", filters: [:], format: .tsv, fields: nil, apiURL: "https://api.github.com")
            state.missing = (1...1_300).map { "octo-org/missing-repository-with-a-long-descriptive-name-\($0)" }
            return String(decoding: state.encoded, as: UTF8.self)
        }(),
        "{\n  \"version\": 1,\n  \"command\": \"members\",\n  \"of\": \"github\",\n  \"filters\": {},\n"
            + "  \"people\": [\n    {\n      \"id\": 1,\n      \"login\": \"octocat\"\n    }\n  ]\n}\n",
        "\u{FEFF}{ \"version\" : 1 , \"since\" : 5 }\r\n",
        // A tab for a space is still JSON, and a state (a review's find: it was taken for a tsv record).
        "{\"version\":1,\t\"since\":5}\n",
        "{\"version\":1,\t\"api_url\":\"https://api.github.com\",\n\"since\":5}\n",
        // Keys sorted (`jq -S .`): the file read whole is one JSON document, a state.
        "{\n  \"api_url\": \"https://api.github.com\",\n  \"since\": 5,\n  \"version\": 1\n}\n",
    ]

    @Test(arguments: ownFilesKnownByTheirStart.indices)
    func aFileOfGhUsersOwnIsKnownByItsStart(index: Int) async throws {
        let text = Self.ownFilesKnownByTheirStart[index]
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder("own.json")
        try text.write(toFile: output, atomically: true, encoding: .utf8)
        let github = StubTransport()
        let refused = await run(["list", "--limit", "2", "--output", output, "--format", "ndjson"], github: github)
        #expect(refused.status == 1)
        #expect(github.received.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(text.utf8))
        #expect(refused.err.hasPrefix("gh-users: the output file '\(output)' is "), "\(refused.err)")
        #expect(refused.err.contains("records appended to it would break it"), "\(refused.err)")
    }

    /// A snapshot or a state named as `--output` (a mistyped name) is refused in every format before any request,
    /// the file byte for byte: it is one JSON document that its run reads whole. Before, the records went after
    /// it, exit 0, and the next `--changes` or `--state` run refused the file as no snapshot or state (a
    /// tester's find).
    @Test(arguments: ownFiles.indices, ["tsv", "csv", "ndjson"])
    func aFileOfGhUsersOwnIsNoOutput(file index: Int, format: String) async throws {
        let (text, called) = Self.ownFiles[index]
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder("own.json")
        try text.write(toFile: output, atomically: true, encoding: .utf8)
        let github = StubTransport()
        let refused = await run(["list", "--limit", "2", "--output", output, "--format", format], github: github)
        #expect(refused.status == 1)
        #expect(github.received.isEmpty)
        #expect(try read(output) == text)
        #expect(
            refused.err
                == "gh-users: the output file '\(output)' is \(called), which gh-users reads whole and replaces: "
                + "records appended to it would break it. Nothing was written, and the file is as it was: give another "
                + "file\n", "\(refused.err)")
    }

    /// ndjson that begins as a state does, but is records (no key of gh-users's own files), a snapshot's first
    /// line cut short, and tsv records whose first column (a name is free text) begins as a state or a snapshot
    /// does, are appended to as before (a review's find: `list --full --fields name,login --format tsv --output`
    /// refused its own file on the second run).
    @Test(arguments: [
        #"{"version":1,"login":"a"}"# + "\n", #"{"version":1,"command":5}"# + "\n",
        #"{"version":"1","since":2}"# + "\n",
        #"{"version":1,"since":"# + "\n",
        #"{"version":1,"since":7}"# + "\tfirst\n", #"{"version":1,"since":7}"# + "\t\n",
        #"{"version":1,"command":"x"# + "\tsecond\n", #"{"version":1,"command":"x"# + "\n",
    ])
    func recordsThatLookLikeAStateAreAppendedTo(held: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder("o.ndjson")
        try held.write(toFile: output, atomically: true, encoding: .utf8)
        let github = StubTransport()
        github.answer("GET /users?since=0&per_page=2", accounts: [1, 2])
        let wrote = await run(["list", "--limit", "2", "--output", output, "--format", "ndjson"], github: github)
        #expect(wrote.status == 0, "\(wrote.err)")
        #expect(try read(output).hasPrefix(held + #"{"login":"user1""#))
    }

    /// A file of a byte order mark alone (an empty file saved as "UTF-8 with BOM") is an empty tsv file, appended
    /// to as before.
    @Test func aByteOrderMarkAloneIsNoUnendedLine() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder("o.tsv")
        try Data([0xEF, 0xBB, 0xBF]).write(to: URL(fileURLWithPath: output))
        let github = StubTransport()
        github.answer("GET /users?since=0&per_page=2", accounts: [1, 2])
        let wrote = await run(["list", "--limit", "2", "--output", output, "--format", "tsv"], github: github)
        #expect(wrote.status == 0, "\(wrote.err)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(bytes == [0xEF, 0xBB, 0xBF] + Array("1\tuser1\t\t\n2\tuser2\t\t\n".utf8), "\(bytes)")
    }

    /// csv into a file of a byte order mark alone (Notepad's empty UTF-8 file) writes its header after the mark,
    /// as into an empty file; a state that recorded the mark alone cuts back the page a kill left after it. Before,
    /// the first was refused as a file whose first line is not the header, the second as cut inside a line (a
    /// review's find: tsv and ndjson took such a file, and `--changes >>` wrote its header into it).
    @Test func csvIntoAByteOrderMarkAloneWritesItsHeaderAfterIt() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let (output, state) = (folder("o.csv"), folder("s"))
        try Data(mark).write(to: URL(fileURLWithPath: output))
        let github = StubTransport()
        github.answer("GET /users?since=0&per_page=2", accounts: [1, 2])
        let wrote = await run(["list", "--limit", "2", "--output", output, "--format", "csv"], github: github)
        #expect(wrote.status == 0, "\(wrote.err)")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output))) == mark + Array(Self.written.utf8))
        // Killed after the header and part of the page, before the state recorded more than the mark.
        try Data(mark + Array(Self.written.dropLast(6).utf8)).write(to: URL(fileURLWithPath: output))
        try #"{"version":1,"since":0,"output_bytes":3,"output":"\#(output)","format":"csv"}"#.write(
            toFile: state, atomically: false, encoding: .utf8)
        let again = StubTransport()
        again.answer("GET /users?since=0&per_page=2", accounts: [1, 2])
        let resumed = await run(
            ["list", "--limit", "2", "--state", state, "--output", output, "--format", "csv"], github: again)
        #expect(resumed.status == 0, "\(resumed.err)")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output))) == mark + Array(Self.written.utf8))
    }

    /// ndjson after a byte order mark, and a mark alone (an empty file saved as "UTF-8 with BOM"), is appended
    /// to: the mark is no part of the first record, as it is no part of a csv header (a review's find: both were
    /// refused as "another format").
    @Test(arguments: ["", #"{"login":"a"}"# + "\n"])
    func ndjsonAfterAByteOrderMarkIsAppendedTo(held: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder("o.ndjson")
        try Data([0xEF, 0xBB, 0xBF] + Array(held.utf8)).write(to: URL(fileURLWithPath: output))
        let github = StubTransport()
        github.answer("GET /users?since=0&per_page=2", accounts: [1, 2])
        let wrote = await run(["list", "--limit", "2", "--output", output, "--format", "ndjson"], github: github)
        #expect(wrote.status == 0, "\(wrote.err)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF] + Array((held + #"{"login":"user1""#).utf8)), "\(bytes)")
    }

    /// A new state takes on a file that already holds records: that file is checked as without a state, and no
    /// state is written for a refused run.
    @Test func aNewStateTakesOnlyAFileOfItsShape() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Self.written.write(toFile: folder("o.csv"), atomically: false, encoding: .utf8)
        let github = StubTransport()
        let (status, _, err) = await run(
            [
                "list", "--all", "--state", folder("s"), "--output", folder("o.csv"), "--format", "csv", "--fields",
                "login",
            ],
            github: github)
        #expect(status == 1)
        #expect(err.contains("not this run's csv header 'login'"), "\(err)")
        #expect(github.received.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder("s")))
        #expect(try read(folder("o.csv")) == Self.written)
    }

    /// A state's rerun cuts back its own unsaved page; a file whose header is not the run's is refused before
    /// that cut, so not one byte of it changes.
    @Test func aRefusedRunCutsNothingBack() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder("o.csv")
        let unsaved = Self.written + "user3\r\n"
        try unsaved.write(toFile: output, atomically: false, encoding: .utf8)
        let state =
            #"{"version":1,"since":2,"output_bytes":\#(Self.written.utf8.count),"output":"\#(output)","#
            + #""format":"csv","fields":["login"]}"#
        try state.write(toFile: folder("s"), atomically: false, encoding: .utf8)
        let github = StubTransport()
        let (status, _, err) = await run(
            ["list", "--all", "--state", folder("s"), "--output", output, "--format", "csv", "--fields", "login"],
            github: github)
        #expect(status == 1)
        #expect(err.contains("not this run's csv header 'login'"), "\(err)")
        #expect(github.received.isEmpty)
        #expect(try read(output) == unsaved)
        #expect(try read(folder("s")) == state)
    }
}

/// What the check makes of a file's first bytes.
struct AppendedOutputCheckTests {
    private static let header = Array("id,login\r\n".utf8)

    private func refusal(_ format: OutputFormat, _ start: String?) -> String? {
        AppendedOutputCheck(format: format, header: Self.header, columns: 2)
            .refusal("the output file 'o'", start: start.map { Array($0.utf8) }, last: start?.utf8.last)?.message
    }

    @Test func csvGoesOnOnlyUnderItsOwnHeaderLine() {
        #expect(refusal(.csv, "id,login\r\n1,a\r\n") == nil)
        // A line ended by LF alone is the same header, and so is one after a byte order mark (a csv saved by a
        // spreadsheet).
        #expect(refusal(.csv, "id,login\n1,a\n") == nil)
        #expect(refusal(.csv, "\u{FEFF}id,login\r\n1,a\r\n") == nil)
        #expect(refusal(.csv, "id,login,type\r\n")?.contains("begins with the line 'id,login,type', not") == true)
        // No line end: the records would go on in the header's line.
        #expect(refusal(.csv, "id,login")?.contains("'id,login' (with no line end), not") == true)
        // The file's words are made harmless to a terminal.
        let shown = refusal(.csv, "\u{1b}]0;x\u{07}id\r\n")
        #expect(shown?.contains(#"'\e]0;x\aid'"#) == true, "\(shown ?? "")")
        #expect(shown?.contains("\u{1b}") == false)
        // One that cannot be read cannot be told to be csv's own.
        #expect(refusal(.csv, nil)?.hasPrefix("the output file 'o' cannot be read") == true)
    }

    @Test func tsvAndNdjsonRefuseOnlyWhatIsCertain() {
        #expect(refusal(.tsv, "id,login\r\n1,a\r\n")?.contains("and this run writes tsv") == true)
        // A csv a spreadsheet saved, a byte order mark first, is csv too (a tsv line escapes the mark).
        #expect(refusal(.tsv, "\u{FEFF}id,login\r\n1,a\r\n")?.contains("and this run writes tsv") == true)
        // tsv has no header: tsv of as many other columns cannot be told from it; a line of another count of
        // columns (tabs: a value's tab is written `\t`) is another shape, or csv, or ndjson.
        #expect(refusal(.tsv, "1\ta\n") == nil)
        #expect(refusal(.tsv, "\u{FEFF}1\ta\n") == nil)
        #expect(refusal(.tsv, "id,login,type\r\n")?.contains("'id,login,type', of 1 tab-separated column") == true)
        #expect(refusal(.tsv, #"{"id":1,"login":"a"}"# + "\n")?.contains("where this run's tsv has 2") == true)
        #expect(refusal(.tsv, "1\ta\tb\n")?.contains("of 3 tab-separated columns") == true)
        #expect(refusal(.tsv, "1\ta\tb")?.contains("ends inside a line") == true)
        #expect(refusal(.tsv, nil) == nil)
        #expect(refusal(.ndjson, #"{"id":1}"# + "\n") == nil)
        #expect(refusal(.ndjson, "1\ta\n")?.contains(#"begins with the line '1\ta'"#) == true)
        #expect(refusal(.ndjson, nil) == nil)
    }
}
