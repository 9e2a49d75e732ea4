import AtomicCore
import Domain
import Foundation
import Testing

@testable import gh_users

/// Hands out the same chunk forever, counting the reads: stdin that never ends.
private final class EndlessInput: @unchecked Sendable {
    private let lock = NSLock()
    private let chunk: [UInt8]
    private var count = 0

    init(_ text: String) { chunk = Array(text.utf8) }

    var reads: Int { lock.withLock { count } }

    func read() -> [UInt8] {
        lock.withLock { count += 1 }
        return chunk
    }
}

private func resolve(_ read: @escaping @Sendable () throws(InputReadError) -> [UInt8]) -> Result<[Login], DomainError> {
    var (io, _, _) = IOStreams.test()
    io.readInput = read
    do throws(DomainError) {
        return .success(try LoginInput.standardInput.resolve(io))
    } catch {
        return .failure(error)
    }
}

private func message(_ result: Result<[Login], DomainError>) -> String {
    guard case .failure(.invalidInput(let text)) = result else { return "not a usage error: \(result)" }
    return text
}

struct StdinLoginsTests {
    @Test func aLineWithoutEndIsRefusedAfterItsFirstKibibyte() {
        let input = EndlessInput(String(repeating: "y", count: 100))
        let text = message(resolve { input.read() })
        #expect(text.hasPrefix("line 1 of stdin is longer than 1024 bytes"), "\(text)")
        #expect(text.count < 160, "\(text)")
        #expect(input.reads <= 11)
    }

    @Test func endlessLoginsStopAtTheCap() {
        let input = EndlessInput((1...64).map { "user\($0)\n" }.joined())
        let counter = LockedChunks([])
        // Each chunk's logins made new by a prefix of its own, so that every line is another account.
        let text = message(resolve { counter.numbered(input.read()) })
        #expect(text.contains("more than 10000 logins"), "\(text)")
        #expect(input.reads < 200)
    }

    /// The cap counts accounts: the same list given twice (`cat a b`) is read, each account once later.
    @Test func aListGivenTwiceIsNotRefusedForTheCap() throws {
        let list = (1...LoginInput.maximumLogins).map { "user\($0)\n" }.joined()
        let logins = try resolve(Self.once(list + list.uppercased())).get()
        #expect(logins.count == 2 * LoginInput.maximumLogins)
        let tooMany = resolve(Self.once(list + "another\n" + list))
        #expect(message(tooMany).contains("more than 10000 logins"), "\(message(tooMany))")
    }

    /// `jq -r .login` prints `null` for an anonymous contributor or an invitation by e-mail, and for every record
    /// when the key is wrong: no write goes to the account named null, which is given as an argument if meant.
    @Test(arguments: ["null\n\nnull\n", "alice\nnull\n"])
    func jqsNullIsRefusedBeforeAnything(stdin: String) {
        let text = message(resolve(Self.once(stdin)))
        #expect(text.contains("of stdin is 'null', as jq -r prints a missing value"), "\(text)")
    }

    /// A token on stdin (`echo ghp_… | gh-users show -`) is no login: refused, its line named and the token not
    /// written back; a short one was sent as `GET /users/ghp_…` (helper-342's R3).
    @Test func aTokenOnStdinIsRefusedUnshown() {
        let token = "ghp_" + String(repeating: "Zy98", count: 8)
        let text = message(resolve(Self.once("alice\n" + token + "\n")))
        #expect(text == "line 2 of stdin: invalid login (it looks like a GitHub token, so it is not shown)", "\(text)")
    }

    /// gh-users's own csv or table with `--fields login` piped in: its header is no account (github.com/login is
    /// the sign-in page), and is never sent as one; a `login` after the first login is left to GitHub.
    @Test(arguments: ["login\r\nalice\r\nbob\r\n", "# saved\n\nLOGIN\nalice\nbob\n"])
    func aHeaderLineIsSkippedAndSaid(text: String) throws {
        let (io, _, err) = IOStreams.test(stdin: text)
        let logins = try LoginInput.standardInput.resolve(io)
        #expect(logins.map(\.value) == ["alice", "bob"])
        #expect(err.text.hasSuffix("is a header, not an account: skipped\n"), "\(err.text)")
        #expect(try resolve(Self.once("alice\nlogin\n")).get().map(\.value) == ["alice", "login"])
    }

    @Test func endlessBlankLinesStopAtTheLineCap() {
        let input = EndlessInput(String(repeating: "\n", count: 1000))
        #expect(message(resolve { input.read() }).contains("more than 100000 lines"))
    }

    @Test func aBadLineIsShownByAShortSafePrefix() {
        let line = "\u{1B}[31m" + String(repeating: "x", count: 900)
        let text = message(resolve(Self.once("alice\n" + line + "\n")))
        #expect(text.hasPrefix("line 2 of stdin: invalid login '\\e[31mxxx"), "\(text)")
        #expect(text.hasSuffix("…'"))
        #expect(text.count < 100)
        // A character no one sees is named, so the line does not look like a valid login (a review's find).
        for (line, shown) in [("oct\u{200B}ocat", #"oct\u{200b}ocat"#), ("octocat\u{3164}", #"octocat\u{3164}"#)] {
            let hidden = message(resolve(Self.once(line + "\n")))
            #expect(hidden == "line 1 of stdin: invalid login '\(shown)'", "\(hidden)")
        }
    }

    @Test func aLastLineWithoutNewlineAndCRLFLinesCount() {
        let result = resolve(Self.once("alice\r\nbob"))
        #expect((try? result.get())?.map(\.value) == ["alice", "bob"])
    }

    /// A failure to read is no usage error (exit 64) but a failure (exit 1), as `show - 0<&-` meets.
    @Test func aReadFailureNamesStdinAndIsNoUsageError() {
        let result = resolve { () throws(InputReadError) in throw InputReadError(reason: "is a directory") }
        guard case .failure(let error) = result else {
            Issue.record("read: \(result)")
            return
        }
        #expect(error == .refused("cannot read the logins from stdin: is a directory"))
        #expect(ExitStatus.code(for: DomainError.refused("")) == ExitCode.failure)
    }

    private static func once(_ text: String) -> @Sendable () throws(InputReadError) -> [UInt8] {
        let input = EndlessInput(text)
        return { input.reads == 0 ? input.read() : [] }
    }
}

/// Logins saved by an editor that marks UTF-8 start with a BOM, which is no part of the first login.
@Test func aByteOrderMarkBeforeTheFirstLoginIsDropped() throws {
    let chunks = LockedChunks([Array("\u{FEFF}octocat\nmojombo\n".utf8), []])
    let logins = try resolve { chunks.next() }.get()
    #expect(logins.map(\.value) == ["octocat", "mojombo"])
}

/// Hands out its chunks in order, then nothing.
private final class LockedChunks: @unchecked Sendable {
    private let lock = NSLock()
    private var chunks: [[UInt8]]

    init(_ chunks: [[UInt8]]) { self.chunks = chunks }

    func next() -> [UInt8] {
        lock.withLock { chunks.isEmpty ? [] : chunks.removeFirst() }
    }

    /// `chunk` with a letter and the count of chunks so far before each of its lines.
    func numbered(_ chunk: [UInt8]) -> [UInt8] {
        lock.withLock {
            chunks.append([])
            let prefix = "n\(chunks.count)x"
            let lines = String(decoding: chunk, as: UTF8.self).split(separator: "\n")
            return Array(lines.map { prefix + $0 + "\n" }.joined().utf8)
        }
    }
}
