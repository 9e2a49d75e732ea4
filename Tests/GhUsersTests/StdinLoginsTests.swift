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
        let input = EndlessInput(String(repeating: "octocat\n", count: 64))
        #expect(message(resolve { input.read() }).contains("more than 10000 logins"))
        #expect(input.reads < 200)
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
}
