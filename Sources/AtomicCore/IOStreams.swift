import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command's bytes go. Writes are whole chunks: callers build a page of output and write it once.
package protocol OutputSink: Sendable {
    /// Throws `OutputClosedError` when the reader has gone away (a closed pipe).
    func write(_ bytes: [UInt8]) throws
}

/// The reader of stdout went away (EPIPE). Commands stop quietly when they see it.
package struct OutputClosedError: Error, Equatable {
    package init() {}
}

/// A write that failed for a reason other than a closed reader, such as a full disk under `--output FILE`:
/// the command stops, fails, and says why.
package struct OutputWriteError: Error, Equatable {
    package let message: String

    package init(message: String) {
        self.message = message
    }
}

/// The standard streams and what is known about the terminal behind them, after `cli/cli`'s iostreams.
/// Data goes to `out`; logs, progress, hints and errors go to `err`.
package struct IOStreams: Sendable {
    package let out: any OutputSink
    package let err: any OutputSink
    package let stdoutIsTTY: Bool
    package let stderrIsTTY: Bool
    /// Columns of the terminal behind stdout; meaningful only when `stdoutIsTTY`.
    package let terminalWidth: Int
    /// Colour as the environment asks for it, before any `--color` flag.
    package let colorPolicy: ColorPolicy
    /// Whether a person types on stdin, so a question can be asked there.
    package var stdinIsTTY = false
    /// All of stdin (`gh-users unfollow -` reads its logins there), read when a command asks for it.
    package var readInput: @Sendable () -> [UInt8] = { [] }
    /// One line a person typed on stdin, without its newline; nil at the end of input.
    package var readLine: @Sendable () -> String? = { nil }

    package init(
        out: any OutputSink,
        err: any OutputSink,
        stdoutIsTTY: Bool,
        stderrIsTTY: Bool,
        terminalWidth: Int,
        colorPolicy: ColorPolicy
    ) {
        self.out = out
        self.err = err
        self.stdoutIsTTY = stdoutIsTTY
        self.stderrIsTTY = stderrIsTTY
        self.terminalWidth = terminalWidth
        self.colorPolicy = colorPolicy
    }

    package func writeOut(_ text: String) throws {
        try out.write(Array(text.utf8))
    }

    /// Diagnostics must never fail a command, so a closed stderr is ignored.
    package func writeErr(_ text: String) {
        try? err.write(Array(text.utf8))
    }

    /// The real process streams. `TERM=dumb` counts as no terminal, as in `gh`.
    package static func system(environment: [String: String]) -> IOStreams {
        let dumb = environment["TERM"] == "dumb"
        let outTTY = isatty(STDOUT_FILENO) == 1 && !dumb
        let errTTY = isatty(STDERR_FILENO) == 1 && !dumb
        var io = IOStreams(
            out: FileDescriptorSink(descriptor: STDOUT_FILENO),
            err: FileDescriptorSink(descriptor: STDERR_FILENO),
            stdoutIsTTY: outTTY,
            stderrIsTTY: errTTY,
            terminalWidth: TerminalSize.columns(environment: environment),
            colorPolicy: ColorPolicy(environment: environment)
        )
        io.stdinIsTTY = isatty(STDIN_FILENO) == 1 && !dumb
        io.readInput = { Array(FileHandle.standardInput.readDataToEndOfFile()) }
        io.readLine = { Swift.readLine(strippingNewline: true) }
        return io
    }

    /// Captures both streams in memory, for tests.
    package static func test(
        stdoutTTY: Bool = false,
        stderrTTY: Bool = false,
        width: Int = 80,
        colorPolicy: ColorPolicy = .auto,
        stdin: String = "",
        stdinTTY: Bool = false
    ) -> (IOStreams, out: CapturedOutput, err: CapturedOutput) {
        let out = CapturedOutput()
        let err = CapturedOutput()
        var io = IOStreams(
            out: out,
            err: err,
            stdoutIsTTY: stdoutTTY,
            stderrIsTTY: stderrTTY,
            terminalWidth: width,
            colorPolicy: colorPolicy
        )
        io.stdinIsTTY = stdinTTY
        io.readInput = { Array(stdin.utf8) }
        let lines = LineQueue(stdin.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        io.readLine = { lines.next() }
        return (io, out, err)
    }
}

/// Writes straight to a file descriptor with `write(2)`, retrying short writes and EINTR.
/// Needs SIGPIPE ignored so that a closed pipe surfaces as EPIPE instead of killing the process, and SIGXFSZ
/// ignored so that a file-size limit (`ulimit -f`) surfaces as EFBIG.
/// Only EPIPE (the reader left) is `OutputClosedError`; any other failure (a full disk, a file too large, an I/O
/// error) is `OutputWriteError`, because what was written is then cut short and the command must fail.
package struct FileDescriptorSink: OutputSink {
    let descriptor: Int32

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    package func write(_ bytes: [UInt8]) throws {
        let failure: (code: Int32, cut: Bool)? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return (errno, offset > 0)
                }
                offset += written
            }
            return nil
        }
        guard let failure else { return }
        if failure.code == EPIPE { throw OutputClosedError() }
        throw OutputWriteError(
            message: "cannot write to \(streamName): \(SystemError.reason(failure.code))"
                + (failure.cut ? " (what was written ends in a cut record)" : ""))
    }

    private var streamName: String {
        switch descriptor {
        case STDOUT_FILENO: return "stdout"
        case STDERR_FILENO: return "stderr"
        default: return "file descriptor \(descriptor)"
        }
    }
}

/// Words for an errno in a message.
package enum SystemError {
    /// strerror's text, lowercased as the rest of a message is: "no space left on device".
    package static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}

private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        return Glibc.write(descriptor, pointer, count)
    #else
        return Darwin.write(descriptor, pointer, count)
    #endif
}

/// An in-memory sink for tests. It can simulate a reader that closes after some bytes.
package final class CapturedOutput: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var closeAfterBytes: Int?

    package init() {}

    /// After `bytes` have been accepted, every further write throws `OutputClosedError`, as a closed pipe would.
    package func closeAfter(bytes: Int) {
        lock.withLock { closeAfterBytes = bytes }
    }

    package func write(_ bytes: [UInt8]) throws {
        try lock.withLock {
            if let limit = closeAfterBytes, buffer.count >= limit {
                throw OutputClosedError()
            }
            buffer.append(contentsOf: bytes)
        }
    }

    package var text: String {
        lock.withLock { String(decoding: buffer, as: UTF8.self) }
    }
}

/// Terminal width: the ioctl first, then `$COLUMNS`, then 80 (a pty may report 0 columns).
package enum TerminalSize {
    package static func columns(environment: [String: String]) -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 {
            return columns
        }
        return 80
    }
}

/// Canned stdin lines for tests, handed out one at a time.
private final class LineQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String]

    init(_ lines: [String]) {
        self.lines = lines
    }

    func next() -> String? {
        lock.withLock { lines.isEmpty ? nil : lines.removeFirst() }
    }
}
