import Foundation

/// Severity, lowest first, after swift-log's levels.
package enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case trace
    case debug
    case info
    case notice
    case warning
    case error

    package init?(name: String) {
        guard let level = LogLevel.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = level
    }

    package var name: String {
        switch self {
        case .trace: return "trace"
        case .debug: return "debug"
        case .info: return "info"
        case .notice: return "notice"
        case .warning: return "warning"
        case .error: return "error"
        }
    }

    package static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// Receives the entries that passed the logger's level, already redacted.
package protocol LogHandler: Sendable {
    func log(level: LogLevel, label: String, message: String, metadata: [String: String])
}

/// A leveled logger passed by value into whatever needs one; there is no global bootstrap.
/// Every message and metadata value goes through the redactor, so a secret registered once never reaches a handler.
package struct Logger: Sendable {
    package let label: String
    package var level: LogLevel
    package let handler: any LogHandler
    package var redactor: Redactor

    package init(label: String, level: LogLevel = .warning, handler: any LogHandler, redactor: Redactor = Redactor()) {
        self.label = label
        self.level = level
        self.handler = handler
        self.redactor = redactor
    }

    /// A logger that drops everything, for code paths whose callers don't care.
    package static let disabled = Logger(label: "disabled", level: .error, handler: DiscardingLogHandler())

    package func isEnabled(_ level: LogLevel) -> Bool {
        level >= self.level
    }

    package func log(
        _ level: LogLevel,
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> [String: String] = [:]
    ) {
        guard isEnabled(level) else { return }
        let redacted = metadata().mapValues(redactor.redact)
        handler.log(level: level, label: label, message: redactor.redact(message()), metadata: redacted)
    }

    package func trace(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.trace, message(), metadata: metadata())
    }

    package func debug(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.debug, message(), metadata: metadata())
    }

    package func info(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.info, message(), metadata: metadata())
    }

    package func warning(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.warning, message(), metadata: metadata())
    }

    package func error(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.error, message(), metadata: metadata())
    }
}

/// Formats entries as `gh-users: level: message key=value` lines and hands them to a writer (stderr in the app).
package struct StreamLogHandler: LogHandler {
    private let write: @Sendable (String) -> Void

    package init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    package func log(level: LogLevel, label: String, message: String, metadata: [String: String]) {
        var line = "\(label): \(level.name): \(message)"
        for key in metadata.keys.sorted() {
            line += " \(key)=\(metadata[key] ?? "")"
        }
        write(line + "\n")
    }
}

/// Keeps entries in memory so tests can assert on what was logged.
package final class InMemoryLogHandler: LogHandler, @unchecked Sendable {
    package struct Entry: Sendable, Equatable {
        package let level: LogLevel
        package let message: String
        package let metadata: [String: String]
    }

    private let lock = NSLock()
    private var stored: [Entry] = []

    package init() {}

    package func log(level: LogLevel, label: String, message: String, metadata: [String: String]) {
        lock.withLock { stored.append(Entry(level: level, message: message, metadata: metadata)) }
    }

    package var entries: [Entry] {
        lock.withLock { stored }
    }
}

private struct DiscardingLogHandler: LogHandler {
    func log(level: LogLevel, label: String, message: String, metadata: [String: String]) {}
}
