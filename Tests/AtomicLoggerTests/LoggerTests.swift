import Foundation
import Testing

@testable import AtomicLogger

struct LoggerTests {
    @Test func dropsEntriesBelowItsLevelWithoutBuildingThem() {
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "t", level: .info, handler: handler)
        var built = false
        logger.debug(
            {
                built = true
                return "hidden"
            }())
        logger.info("shown")
        logger.error("also shown")
        #expect(!built)
        #expect(handler.entries.map(\.message) == ["shown", "also shown"])
        #expect(handler.entries.map(\.level) == [.info, .error])
    }

    @Test func redactsSecretsInMessagesAndMetadata() {
        let handler = InMemoryLogHandler()
        let logger = Logger(
            label: "t",
            level: .trace,
            handler: handler,
            redactor: Redactor(secrets: ["ghp_secret123"])
        )
        logger.debug("Authorization: Bearer ghp_secret123", metadata: ["header": "token ghp_secret123"])
        #expect(handler.entries.first?.message == "Authorization: Bearer ***")
        #expect(handler.entries.first?.metadata["header"] == "token ***")
    }

    @Test func ignoresSecretsTooShortToMask() {
        #expect(Redactor(secrets: ["ab"]).redact("abcab") == "abcab")
    }

    @Test func levelsParseByName() {
        #expect(LogLevel(name: "DEBUG") == .debug)
        #expect(LogLevel(name: "loud") == nil)
        #expect(LogLevel.trace < LogLevel.error)
    }

    @Test func streamHandlerWritesOneSortedLine() {
        let lines = LockedLines()
        let logger = Logger(label: "gh-users", level: .info, handler: StreamLogHandler(write: { lines.append($0) }))
        logger.warning("slow", metadata: ["b": "2", "a": "1"])
        #expect(lines.all == ["gh-users: warning: slow a=1 b=2\n"])
    }
}

private final class LockedLines: @unchecked Sendable {
    private var lines: [String] = []
    private let lock = NSLock()
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
