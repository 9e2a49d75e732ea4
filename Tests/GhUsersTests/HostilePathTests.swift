import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

/// Issue 26 item 11: a path given on the command line reaches stderr in errors, notes and hints. A name holding an
/// OSC 52 sequence (which asks a terminal to set the clipboard) or a right-to-left override must be shown as
/// escapes, never obeyed.
struct HostilePathTests {
    /// OSC 52 with its BEL terminator, then a right-to-left override that would show "json.txt" as "txt.json".
    static let hostile = "s\u{1B}]52;c;aGk=\u{07}\u{202E}txt.json"
    /// How a message shows it.
    static let shown = #"s\e]52;c;aGk=\a\u{202e}txt.json"#

    private func run(_ arguments: [String], tokenFiles: [String: AppEnvironment.TokenFile] = [:]) async -> (
        Int32, String
    ) {
        let (env, _, err) = AppEnvironment.test(tokenFiles: tokenFiles)
        let status = await GhUsersApp(environment: env).run(arguments)
        return (status, err.text)
    }

    /// Nothing a terminal would obey or hide: no control character but the line ends, no format character.
    private func isHarmless(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0 != "\n" && TerminalSanitizer.isUnsafeInPath($0) }
    }

    /// A file that is not a state (`--state`) or a snapshot (`--changes`): the refusal names it.
    @Test(arguments: [
        (["list", "--state"], "state file", "is not"),
        (["followers", "octocat", "--changes"], "snapshot file", "is not JSON"),
    ])
    func aStateOrChangesPathIsShownNotObeyed(command: [String], kind: String, problem: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Data("not JSON".utf8).write(to: URL(fileURLWithPath: folder(Self.hostile)))
        let (status, err) = await run(command + [folder(Self.hostile)])
        #expect(status == 1)
        #expect(err.hasPrefix("gh-users: the \(kind) '\(folder(Self.shown))' \(problem)"), "\(err)")
        #expect(isHarmless(err), "\(err.debugDescription)")
    }

    /// A snapshot's own words (its command) are the file's, not gh-users's: shown, not obeyed, as its name is.
    @Test func aSnapshotsOwnWordsAreShownNotObeyed() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let text =
            #"{"version":\#(FollowSnapshot.version),"command":"\u001b]52;c;aGk=\u0007\u202e","account_id":1,"#
            + #""login":"a","filter":null,"accounts":[]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder("f.json")))
        let (status, err) = await run(["followers", "octocat", "--changes", folder("f.json")])
        #expect(status == 1)
        #expect(err.contains(#"has the command "\e]52;c;aGk=\a\#u{FFFD}"; a snapshot is"#), "\(err)")
        #expect(isHarmless(err), "\(err.debugDescription)")
    }

    @Test func anOutputPathIsShownNotObeyed() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder("missing/" + Self.hostile)
        let (status, err) = await run(["list", "--state", folder("s.json"), "--output", output])
        #expect(status == 1)
        #expect(
            err == "gh-users: cannot open the output file '\(folder("missing/" + Self.shown))': no such file or "
                + "directory (a folder on its path is not there: mkdir -p -- \(ShellWord.quote(folder("missing"))))\n")
    }

    /// A state that counts bytes of an unnamed file: the message gives the JSON to add, with the path escaped
    /// as JSON allows, so the line can still be pasted into the state.
    @Test func theStateLineToPasteEscapesThePathAsJSON() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Data(CrawlState(since: 5, outputBytes: 3).encoded).write(to: URL(fileURLWithPath: folder("s.json")))
        let (status, err) = await run(["list", "--state", folder("s.json"), "--output", folder(Self.hostile)])
        #expect(status == 1)
        #expect(err.contains(#"add "output":"\#(folder.path)/s\u001b]52;c;aGk=\u0007\u202etxt.json" to the state"#))
        #expect(isHarmless(err), "\(err.debugDescription)")
    }

    @Test func aTokenFilePathIsShownAndItsChmodHintIsAShellWord() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        #expect {
            _ = try TokenFileReader.read(folder(Self.hostile))
        } throws: { error in
            (error as? TokenFileError)?.message
                == "cannot read the token file '\(folder(Self.shown))': no such file or directory"
        }
        let (_, err) = await run(
            ["rate-limit", "--token-file", Self.hostile],
            tokenFiles: [Self.hostile: AppEnvironment.TokenFile(contents: "t", readableByOthers: true)])
        #expect(
            err.hasPrefix(
                "gh-users: warning: the token file '\(Self.shown)' can be read by others; run: chmod 600 "
                    + #"$'s\e]52;c;aGk=\x07\u202etxt.json'"# + "\n"), "\(err)")
        #expect(isHarmless(err), "\(err.debugDescription)")
    }

    /// The hint after an interrupted crawl names the state in ANSI-C quotes, which a shell reads back as the file.
    @Test func theResumeHintNamesTheStateAsAShellReadsIt() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let github = StubTransport()
        github.answerPages("/users?since=0&per_page=30", [[1]], failing: 502)
        let (env, _, err) = AppEnvironment.test(http: github)
        let status = await GhUsersApp(environment: env).run(["list", "--state", folder(Self.hostile)])
        #expect(status == 1)
        #expect(
            err.text.contains(
                ": gh-users list --state $'\(folder.path)/s\\e]52;c;aGk=\\x07\\u202etxt.json'"),
            "\(err.text)")
        #expect(isHarmless(err.text), "\(err.text.debugDescription)")
    }

    @Test func aPathInAMessageIsExact() {
        #expect(TerminalSanitizer.quotedPath("/tmp/plain é.json") == "'/tmp/plain é.json'")
        #expect(TerminalSanitizer.quotedPath(Self.hostile) == "'\(Self.shown)'")
        #expect(TerminalSanitizer.quotedPath("a\u{200B}b\u{9B}c\u{E0001}\n") == #"'a\u{200b}b\u{9b}c\u{e0001}\n'"#)
    }
}
