import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// A folder per test, removed afterwards.
struct Folder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("state-safety-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func callAsFunction(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// What a state records of the output's shape, and what a rerun may do with it.
struct CrawlOutputSettingsTests {
    private static let csv = CrawlOutputSettings(format: .csv)

    @Test(arguments: [
        CrawlState(since: 5, settings: CrawlOutputSettings(format: .tsv)),
        CrawlState(
            since: 9, outputBytes: 10, output: "/o.csv",
            settings: CrawlOutputSettings(format: .csv, fields: ["login", "id"], full: true, via: .graphql)),
        CrawlState(since: 1, settings: CrawlOutputSettings(format: .ndjson, full: true)),
    ])
    func settingsReadBackAsWritten(state: CrawlState) {
        #expect(CrawlState.decode(state.encoded) == .success(state))
    }

    @Test func theyAreKeysAPersonCanRead() {
        let state = CrawlState(
            since: 7, settings: CrawlOutputSettings(format: .csv, fields: ["login"], full: true, via: .graphql))
        #expect(
            String(decoding: state.encoded, as: UTF8.self)
                == #"{"version":1,"since":7,"format":"csv","fields":["login"],"full":true,"via":"graphql"}"# + "\n")
    }

    @Test(arguments: [
        #"{"version":1,"since":5,"format":"json"}"#, #"{"version":1,"since":5,"format":"table"}"#,
        #"{"version":1,"since":5,"format":"tsv","via":"soap"}"#,
        #"{"version":1,"since":5,"format":"tsv","full":"yes"}"#,
        #"{"version":1,"since":5,"format":"tsv","fields":"login"}"#, #"{"version":1,"since":5,"format":3}"#,
    ])
    func aShapeNoCrawlWritesIsNotAState(text: String) {
        guard case .failure = CrawlState.decode(Array(text.utf8)) else {
            Issue.record("\(text) was read as a state")
            return
        }
    }

    /// `list` and `access` share `--state`: each one's file given to the other is named for what it is, and not
    /// offered for removal (before: "fix it, or remove it to start again", which loses the other's place).
    @Test func theOtherCommandsStateIsNamedNotOfferedForRemoval() throws {
        let access = AccessState(organization: "o", filters: [:], format: .tsv, fields: nil, apiURL: nil)
        #expect(
            FileContentProblem.reading(access.encoded, as: CrawlState.kindName, option: "--state", CrawlState.decode)
                == .failure(
                    .init(
                        "is the state of 'gh-users access o', not a gh-users crawl state",
                        remedy: "give --state a file of its own for this run")))
        let crawl = CrawlState(since: 5, outputBytes: nil, output: nil)
        #expect(
            FileContentProblem.reading(crawl.encoded, as: AccessState.kindName, option: "--state", AccessState.decode)
                == .failure(
                    .init(
                        "is the state of a list crawl, not a gh-users access state",
                        remedy: "give --state a file of its own for this run")))
    }

    /// A state of a later version is a newer gh-users's: left to it, with no advice to fix or remove it, which
    /// would lose its place (before: "so it is not a gh-users crawl state … fix it, or remove it").
    @Test func aNewerGhUsersStateIsLeftToIt() throws {
        let folder = try Folder()
        defer { folder.remove() }
        // A key renamed too, as a new version may (helper-312: then it was "not a gh-users crawl state" again).
        try Foundation.Data(#"{"version":2,"after_id":5}"#.utf8).write(to: URL(fileURLWithPath: folder("s")))
        #expect {
            _ = try CrawlStateFile(path: folder("s")).load()
        } throws: { error in
            (error as? LocalFileError)?.message
                == "the state file '\(folder("s"))' has version 2, which a newer gh-users writes; this one reads "
                + "version 1. It was left as it is: run it with that newer gh-users, or give this run another file"
        }
    }

    @Test func aStateWithoutAFormatIsAnOlderOne() throws {
        let state = try CrawlState.decode(Array(#"{"version":1,"since":5,"output_bytes":3}"#.utf8)).get()
        #expect(state.settings == nil)
    }

    @Test(arguments: [
        (CrawlOutputSettings(format: .csv), []),
        (CrawlOutputSettings(format: .tsv), ["--format csv where this run has --format tsv"]),
        (
            CrawlOutputSettings(format: .tsv, fields: ["id"]),
            ["--format csv where this run has --format tsv", "every field where this run has --fields id"]
        ),
        (
            CrawlOutputSettings(format: .csv, full: true, via: .graphql),
            ["the list's summaries where this run writes full profiles (--full)"]
        ),
    ])
    func eachDifferenceIsNamed(run: CrawlOutputSettings, phrases: [String]) {
        #expect(run.differences(from: Self.csv) == phrases)
    }

    /// What the crawl did not have is named to leave out, or a rerun that follows the advice is refused again.
    @Test func theRemedyLeavesOutWhatTheCrawlDidNotHave() {
        let summaries = CrawlOutputSettings(format: .csv, fields: ["login", "id"], full: true)
        // --via and --concurrency go only with --full: left, the rerun would be refused again.
        #expect(
            summaries.remedy(toMatch: Self.csv) == "--format csv and without --fields, --full, --via and --concurrency")
        #expect(Self.csv.remedy(toMatch: summaries) == "--format csv --fields login,id --full")
    }

    @Test func viaCountsOnlyForProfiles() {
        let rest = CrawlOutputSettings(format: .ndjson, full: true)
        let graphql = CrawlOutputSettings(format: .ndjson, full: true, via: .graphql)
        #expect(graphql.differences(from: rest) == ["--via rest where this run has --via graphql"])
        #expect(graphql.arguments == ["--format", "ndjson", "--full", "--via", "graphql"])
    }
}

/// Whether a run may go on from the state it read.
struct StateCheckTests {
    private let tsv = CrawlOutputSettings(format: .tsv)

    private func problem(_ state: CrawlState, output: String?, done: Bool = false) -> String? {
        do {
            try StateCheck(state: state, file: "s", output: output, settings: tsv, done: done).run()
            return nil
        } catch {
            return error.message
        }
    }

    @Test func aStateThatNamesNoOutputFileNeverLetsOneBeCut() {
        let message = problem(CrawlState(since: 5, outputBytes: 0, settings: tsv), output: "/d/o.tsv")
        #expect(message?.contains("does not say of which file, so '/d/o.tsv' was left as it is") == true)
        #expect(message?.contains(#"add "output":"/d/o.tsv" to the state"#) == true)
    }

    @Test func itsOwnFileGoesOnAndAnotherIsRefused() {
        let state = CrawlState(since: 5, outputBytes: 9, output: "/d/o.tsv", settings: tsv)
        #expect(problem(state, output: "/d/o.tsv") == nil)
        #expect(problem(state, output: "/d/p.tsv")?.contains("counts the bytes of '/d/o.tsv'") == true)
        #expect(problem(state, output: nil)?.contains("give --output /d/o.tsv") == true)
        // A finished shard writes nothing, so stdout is fine.
        #expect(problem(state, output: nil, done: true) == nil)
    }

    /// The name an older gh-users gave this run's `--output` (`..` read as text) is taken only where it names no
    /// file: where it names another one, that file is what the state counts, and cutting this run's output back to
    /// its length would lose data (mutation round 8's M8-1).
    @Test func anOlderNameOfTheOutputIsTakenOnlyWhereItNamesNoFile() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (output, older) = (folder("o.tsv"), folder("older.tsv"))
        let state = CrawlState(since: 5, outputBytes: 9, output: older, settings: tsv)
        let check = { StateCheck(state: state, file: "s", output: output, formerly: older, settings: tsv, done: false) }
        #expect(throws: Never.self) { try check().run() }
        try Data("another file\n".utf8).write(to: URL(fileURLWithPath: older))
        #expect { try check().run() } throws: { error in
            ((error as? LocalFileError)?.message ?? "").contains("counts the bytes of '\(older)'")
        }
    }

    @Test(arguments: [
        (CrawlState(since: 0), true), (CrawlState(since: 8), false),
        (CrawlState(since: 8, outputBytes: 0, output: "/o"), true),
        (CrawlState(since: 8, outputBytes: 40, output: "/o"), false),
    ])
    func anOlderStateIsAdoptedOnlyBeforeAnythingIsWritten(state: CrawlState, adopted: Bool) {
        let message = problem(state, output: state.output)
        #expect((message == nil) == adopted)
        if let message {
            var upgraded = state
            upgraded.settings = tsv
            #expect(message.contains(String(decoding: upgraded.encoded.dropLast(), as: UTF8.self)))
        }
    }
}

/// The state file found through links, its lock, and files that are not what they should be.
struct CrawlStateFileSafetyTests {
    @Test func aLinkIsFollowedToItsFileEvenBeforeThatExists() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(atPath: folder("current.state"), withDestinationPath: "c.state")
        let file = CrawlStateFile(path: folder("current.state"))
        let real = try #require(FileDescriptorIO.realPath(folder.path))
        #expect(file.file.target == real + "/c.state")
        #expect(file.file.lockPath == real + "/c.state.lock")
        try file.replace(with: CrawlState(since: 3))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder("current.state")) == "c.state")
        #expect(try CrawlStateFile(path: folder("c.state")).load() == CrawlState(since: 3))
    }

    @Test func aRelativePathBecomesAbsolute() {
        #expect(
            CrawlStateFile(path: "no-such-state").file.target == FileManager.default.currentDirectoryPath
                + "/no-such-state")
    }

    @Test func theLockFileGoesWithTheRunThatHeldIt() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = CrawlStateFile(path: folder("s"))
        var lock: OwnedFileLock? = try file.lock()
        #expect(FileManager.default.fileExists(atPath: folder("s.lock")))
        withExtendedLifetime(lock) {}
        lock = nil
        #expect(!FileManager.default.fileExists(atPath: folder("s.lock")))
    }

    /// The race a removed lock file opens: a run opens FILE.lock, the run holding it ends (removing the file, then
    /// releasing it), and a third run creates and locks a new FILE.lock. The first run's lock on the removed file
    /// is then free to take, and must not count: it opens the path again, and finds the third run there.
    @Test func aLockOnAFileRemovedMeanwhileDoesNotCount() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = CrawlStateFile(path: folder("s"))
        var first: OwnedFileLock? = try file.lock()
        let opened = open(file.file.lockPath, O_RDWR | O_CLOEXEC)
        #expect(opened >= 0)
        withExtendedLifetime(first) {}
        first = nil
        let third = try file.lock()
        #expect(try file.file.lock(opened) == nil)
        #expect(throws: LocalFileError.self) { _ = try file.lock() }
        withExtendedLifetime(third) {}
    }

    @Test func aFIFOIsNeverTakenForTheLockOrTheState() throws {
        let folder = try Folder()
        defer { folder.remove() }
        #expect(mkfifo(folder("s.lock"), 0o600) == 0)
        #expect(mkfifo(folder("t"), 0o600) == 0)
        #expect {
            _ = try CrawlStateFile(path: folder("s")).lock()
        } throws: { error in
            ((error as? LocalFileError)?.message ?? "").contains("is a FIFO (named pipe), not a regular file")
        }
        #expect {
            _ = try CrawlStateFile(path: folder("t")).load()
        } throws: { error in
            ((error as? LocalFileError)?.message ?? "").contains("it is a FIFO (named pipe), not a regular file")
        }
    }

    /// Once renamed, a file is replaced for every later run: a folder that cannot be flushed after it (EIO, as
    /// helper-310's shim failed it) is no failure to replace. Before, the run said the changes were not recorded
    /// and would be reported again, and the next run, reading the new file, reported nothing.
    @Test func aFolderThatCannotBeFlushedAfterTheRenameLeavesTheFileReplaced() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = OwnedFile(path: folder("s.json"), kind: "snapshot file", option: "--changes", limitBytes: 1 << 16)
        try file.replace(with: Array("old".utf8))
        var flushed: [Int32] = []
        try file.commit(try file.prepare(Array("new".utf8))) { directory in
            flushed.append(directory)
            errno = EIO
            return -1
        }
        #expect(flushed.count == 1, "the folder is still flushed as well as it can be")
        #expect(FileManager.default.contents(atPath: folder("s.json")) == Data("new".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder("s.json.tmp")))
    }

    /// `FILE.tmp` is where a replacement is written. One a killed run left (`{"version"…`, or less of it) is
    /// removed; a file of the user's own at that name was removed too, without a word (helper-343's find 6): it is
    /// now left as it is, and so is FILE.
    @Test(arguments: [
        ("", true), (#"{"ver"#, true), (#"{"version":1,"since":"#, true), ("https://api.github.com:443\n", true),
        ("precious\n", false),
    ])
    func aTemporaryFileIsRemovedOnlyWhereARunLeftIt(held: String, removed: Bool) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = OwnedFile(path: folder("s.json"), kind: "state file", option: "--state", limitBytes: 1 << 16)
        try file.replace(with: Array("old".utf8))
        try Data(held.utf8).write(to: URL(fileURLWithPath: folder("s.json.tmp")))
        if removed {
            try file.replace(with: Array("new".utf8))
            #expect(FileManager.default.contents(atPath: folder("s.json")) == Data("new".utf8))
            #expect(!FileManager.default.fileExists(atPath: folder("s.json.tmp")))
        } else {
            #expect(throws: LocalFileError.self) { try file.replace(with: Array("new".utf8)) }
            do {
                try file.replace(with: Array("new".utf8))
            } catch {
                #expect(
                    error.message
                        == "cannot use the state file '\(folder("s.json"))': its temporary file "
                        + "'\(folder("s.json.tmp"))' is another file, not a file gh-users left there. The state file "
                        + "was left as it was: move that away and run again")
            }
            #expect(FileManager.default.contents(atPath: folder("s.json")) == Data("old".utf8))
            #expect(FileManager.default.contents(atPath: folder("s.json.tmp")) == Data(held.utf8))
        }
    }

    /// A write cut part-way counts its whole records where stdout is a file (`>>`), which holds them; never where
    /// it is a pipe, whose reader may not have taken them: a rerun would skip what `| head` never printed (mutation
    /// round 8's M8-3).
    @Test func aPartPageCountsOnlyWhereStdoutIsAFile() throws {
        let folder = try Folder()
        defer { folder.remove() }
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            for end in ends { close(end) }
        }
        let tally = try #require(PipeTally<Int64>.of(FileDescriptorSink(descriptor: ends[1])))
        let state = CrawlStateFile(path: folder("s"))
        let checkpoint = { (pipe: PipeTally<Int64>?) in
            CrawlCheckpoint(
                stateFile: state, lock: nil, output: nil, outputPath: nil, settings: CrawlOutputSettings(format: .tsv),
                apiURL: "https://api.github.com", pipe: pipe, stdout: nil)
        }
        #expect(!checkpoint(tally).partPageWritten(lastID: 5))
        #expect(try state.load() == nil)
        #expect(checkpoint(nil).partPageWritten(lastID: 5))
        #expect(try state.load()?.since == 5)
    }

    /// A replacement that cannot be flushed to disk before its rename (EIO) is not put in place: a crash after the
    /// rename could leave an empty or partial file where the old one was whole (helper-327: dropping the flush went
    /// unseen). The old file stays byte for byte, and the temporary file goes.
    @Test func aReplacementThatCannotBeFlushedIsNotPutInPlace() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = OwnedFile(path: folder("s.json"), kind: "snapshot file", option: "--changes", limitBytes: 1 << 16)
        try file.replace(with: Array("old".utf8))
        var synced = 0
        #expect {
            try file.commit(
                file.prepare(Array("new".utf8)) { _ in
                    synced += 1
                    errno = EIO
                    return -1
                })
        } throws: { error in
            let message = (error as? LocalFileError)?.message ?? ""
            return message.hasPrefix("cannot flush the snapshot file ") && message.contains("s.json.tmp")
        }
        #expect(synced == 1)
        #expect(FileManager.default.contents(atPath: folder("s.json")) == Data("old".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder("s.json.tmp")))
    }
}

/// What the hints print must be what a shell reads back.
struct HintWordTests {
    @Test(arguments: [("=ls", "'=ls'"), ("a=b", "a=b"), ("~root", "'~root'"), ("#x", "'#x'"), ("*", "'*'")])
    func wordsAShellWouldExpandAreQuoted(word: String, quoted: String) {
        #expect(ShellWord.quote(word) == quoted)
    }

    /// Words each shell treats specially, pasted back as printed: the shell must read each one as given.
    static let awkwardWords = [
        "=ls", "~", "~root/x", "a=~/x", "!x", "#x", "*", "[a]", "{a,b}", "$HOME", "`id`", "a b", "it's", "x;y",
        "a|b", "^x", "%1", "-", "--output=a b", "é", "a\\b", "(x)", "<x", "?",
        // Issue 26 item 11: written as `$'…'` escapes, so the hint carries none of them to the terminal.
        "\u{1B}]52;c;aGk=\u{07}", "a\u{202E}b", "tab\there", "line\nbreak", "it's\u{1B}\\e", "\u{7F}1", "\u{85}",
        "tag\u{E0001}",
    ]

    private static func echo(_ shell: String, _ line: String) throws -> String {
        // `$'\u202e'` is the character itself only in a UTF-8 locale, which a person's terminal has.
        try SpawnedProcess.run(
            shell, ["-c", "printf '%s\\n' " + line],
            environment: ProcessInfo.processInfo.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 }
        ).output
    }

    @Test func bashReadsEveryWordBackAsGiven() throws {
        let line = ShellWord.line(Self.awkwardWords)
        #expect(try Self.echo("/bin/bash", line) == Self.awkwardWords.map { $0 + "\n" }.joined(), "\(line)")
    }

    /// zsh expands `=ls` to a path and has more globs than bash; it is not installed everywhere.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "zsh is not installed here"))
    func zshReadsEveryWordBackAsGiven() throws {
        let line = ShellWord.line(Self.awkwardWords)
        #expect(try Self.echo("/usr/bin/zsh", line) == Self.awkwardWords.map { $0 + "\n" }.joined(), "\(line)")
    }

    @Test(arguments: [
        ("/dev/fd/63", false), ("/proc/self/fd/12", false), ("/proc/4242/fd/5", false), ("/dev/fd/0", true),
        ("/dev/stdin", true), ("/run/secrets/gh", true), ("fd/63", true),
    ])
    func aDescriptorTheShellMadeForOneRunIsNotRepeated(path: String, repeated: Bool) {
        #expect(CommonOptions.canBeReadAgain(tokenFile: path) == repeated)
        var options = CommonOptions()
        options.tokenFile = path
        #expect(CommonOptions.arguments(options).contains(path) == repeated)
    }
}

/// On a terminal, a rerun that finds nothing new says so, and where the crawl stands.
struct CrawlUpToDateTests {
    private func run(_ line: [String], github: StubTransport) async -> (Int32, String) {
        let (io, _, err) = IOStreams.test(stderrTTY: true)
        var (env, _, _) = AppEnvironment.test(http: github)
        env.io = io
        let status = await GhUsersApp(environment: env).run(line)
        return (status, err.text)
    }

    @Test func aRerunWithNothingNewSaysItIsUpToDate() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Foundation.Data(#"{"version":1,"since":2,"format":"tsv"}"#.utf8)
            .write(to: URL(fileURLWithPath: folder("s")))
        let github = StubTransport()
        github.answer("GET /users?since=2&per_page=100", accounts: [])
        let (status, err) = await run(["list", "--all", "--state", folder("s"), "--no-cache"], github: github)
        #expect(status == 0)
        #expect(
            err == "gh-users: nothing new after id 2: the crawl in '\(folder("s"))' is up to date.\n")
    }

    @Test func aFinishedShardSaysSo() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Foundation.Data(#"{"version":1,"since":10}"#.utf8).write(to: URL(fileURLWithPath: folder("s")))
        let (status, err) = await run(
            ["list", "--all", "--until", "5", "--state", folder("s"), "--no-cache"], github: StubTransport())
        #expect(status == 0)
        #expect(
            err
                == "gh-users: nothing to do: the crawl in '\(folder("s"))' stands at account id 10, at or past --until 5.\n"
        )
    }
}

/// A state is written before the first page. A run stopped before that page (a spent rate limit, Ctrl-C, a kill)
/// left an output with nothing of the crawl in it: the rerun writes the CSV header it never got, and one that
/// goes on after pages does not write it again.
struct CrawlHeaderTests {
    private func run(_ line: [String], github: StubTransport) async -> (Int32, String, String) {
        let (env, out, err) = AppEnvironment.test(http: github)
        let status = await GhUsersApp(environment: env).run(line)
        return (status, out.text, err.text)
    }

    /// A run that ends with no one to write has written the header, so its rerun does not write it again.
    @Test func aRunThatFoundNoOneLeavesTheHeaderWritten() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Foundation.Data(#"{"version":1,"since":7,"format":"csv","written":false}"#.utf8)
            .write(to: URL(fileURLWithPath: folder("s")))
        let line = ["list", "--all", "--format", "csv", "--state", folder("s"), "--no-cache"]
        var outputs: [String] = []
        for _ in 0..<2 {
            let github = StubTransport()
            github.answer("GET /users?since=7&per_page=100", accounts: [])
            let (status, out, err) = await run(line, github: github)
            #expect(status == 0, "\(err)")
            outputs.append(out)
        }
        #expect(outputs == ["id,login,type,html_url\r\n", ""])
        #expect(try #require(try CrawlStateFile(path: folder("s")).load()).beforeFirstPage == false)
    }

    /// A state with neither `"written"` nor `"api_url"`, at 0, is an older gh-users's before its first page (the
    /// third case wrote no header before helper-309's find); one with `"api_url"` and no `"written"` ran to its end.
    @Test(arguments: [
        (#","written":false"#, true), (#","api_url":"https://api.github.com""#, false), ("", true),
    ])
    func stdoutGetsItsHeaderUnlessPagesWereWritten(written: String, header: Bool) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Foundation.Data(#"{"version":1,"since":0,"format":"csv"\#(written)}"#.utf8)
            .write(to: URL(fileURLWithPath: folder("s")))
        let github = StubTransport()
        github.answer("GET /users?since=0&per_page=100", accounts: [1])
        let (status, out, err) = await run(
            ["list", "--all", "--format", "csv", "--state", folder("s"), "--no-cache"], github: github)
        #expect(status == 0, "\(err)")
        #expect(out.hasPrefix("id,login,") == header, "\(out)")
        #expect(out.split(separator: "\r\n").count == (header ? 2 : 1), "\(out)")
        let state = try #require(try CrawlStateFile(path: folder("s")).load())
        #expect(!state.beforeFirstPage && state.since == 1)
    }

    /// A state below the `--since` given is another crawl's (shard 1's state given to shard 2): refused, nothing
    /// asked, the state left as it was (before: accounts 8, 9 and 10 of the other range, exit 0).
    @Test func aStateBelowTheSinceGivenIsAnotherCrawlsAndRefused() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let recorded = Foundation.Data(#"{"version":1,"since":5,"format":"tsv"}"#.utf8)
        try recorded.write(to: URL(fileURLWithPath: folder("s")))
        let github = StubTransport()
        let (status, out, err) = await run(
            ["list", "--since", "1000", "--until", "1010", "--all", "--state", folder("s"), "--no-cache"],
            github: github)
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(err.contains("stands at account id 5, below --since 1000: it is another crawl's state"), "\(err)")
        #expect(github.calls.isEmpty)
        #expect(try Foundation.Data(contentsOf: URL(fileURLWithPath: folder("s"))) == recorded)
    }

    /// The first run's state says nothing was written yet, and the rerun after it stopped writes the header once.
    @Test func aFirstRunStoppedBeforeItsFirstPageLeavesTheHeaderToTheNext() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let line = [
            "list", "--all", "--format", "csv", "--state", folder("s"), "--output", folder("o.csv"), "--no-cache",
        ]
        let refused = StubTransport()
        refused.answer("GET /users?since=0&per_page=100", status: 500, json: #"{"message":"Server Error"}"#)
        #expect(await run(line + ["--retries", "0"], github: refused).0 != 0)
        #expect(try #require(try CrawlStateFile(path: folder("s")).load()).beforeFirstPage)
        let github = StubTransport()
        github.answer("GET /users?since=0&per_page=100", accounts: [1, 2])
        let (status, _, err) = await run(line, github: github)
        #expect(status == 0, "\(err)")
        let written = try String(contentsOfFile: folder("o.csv"), encoding: .utf8)
        #expect(written.hasPrefix("id,login,") && written.split(separator: "\r\n").count == 3, "\(written)")
    }
}

/// `--state` cuts `--output` back on a rerun, which only a regular file can be: a device or a FIFO is refused on
/// the first run, before any request, with no state written. Before: the first run wrote to it and recorded a
/// length, and every rerun was exit 1 ("is not a regular file, so it cannot be cut back").
struct CrawlOutputKindTests {
    @Test(arguments: ["/dev/null", "fifo"])
    func anOutputThatIsNotARegularFileIsRefusedOnTheFirstRun(output: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = output == "fifo" ? folder("o.fifo") : output
        if output == "fifo" { #expect(mkfifo(path, 0o600) == 0) }
        let github = StubTransport()
        let (env, out, err) = AppEnvironment.test(http: github)
        let status = await GhUsersApp(environment: env).run([
            "list", "--all", "--state", folder("s"), "--output", path, "--no-cache",
        ])
        #expect(status == 1)
        #expect(github.received.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder("s")))
        #expect(out.text.isEmpty)
        let kind = output == "fifo" ? "a FIFO (named pipe)" : "a device"
        #expect(err.text.hasPrefix("gh-users: the output file "), "\(err.text)")
        #expect(
            err.text.contains("\(path)' is \(kind), not a regular file")
                || err.text.contains("\(path) is \(kind), not a regular file"), "\(err.text)")
    }

    /// Without `--state` nothing is cut back, so `--output /dev/null` still takes the records.
    @Test func withoutAStateAnyWritableOutputIsAppendedTo() async throws {
        let github = StubTransport()
        github.answer("GET /users?since=0&per_page=100", accounts: [1])
        let (env, _, err) = AppEnvironment.test(http: github)
        let status = await GhUsersApp(environment: env).run([
            "list", "--limit", "100", "--output", "/dev/null", "--no-cache",
        ])
        #expect(status == 0, "\(err.text)")
    }
}
