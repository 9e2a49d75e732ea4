import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The standard streams and what is known about the terminal behind them, after `cli/cli`'s iostreams.
/// Data goes to `out`; logs, progress, hints and errors go to `err`.
package struct IOStreams: Sendable {
    package private(set) var out: any OutputSink
    package private(set) var err: any OutputSink
    package private(set) var stdoutIsTTY: Bool
    /// stdout is a terminal, whatever `TERM` says: `TERM=dumb` (Emacs's shell) takes away styling, not the
    /// terminal, which may still act on an escape sequence GitHub's data holds.
    package var stdoutIsTerminal = false
    /// `stdoutIsTTY` holds only because `GH_FORCE_TTY` says so: a table and colour, but data (csv) stays exact,
    /// since no terminal is there to guard.
    package var stdoutIsForced: Bool { stdoutIsTTY && !stdoutIsTerminal }
    /// stdout is a pipe or a socket, whose reader may write to the same terminal (`| head`): a progress line on
    /// stderr would mix into what it prints, so none is drawn (`gh` draws its spinner only when both are terminals;
    /// to a file, `> users.tsv`, the progress still shows).
    package var stdoutIsPipe = false
    package let stderrIsTTY: Bool
    /// Columns of the terminal behind stdout; meaningful only when `stdoutIsTTY`.
    package let terminalWidth: Int
    /// Columns of the terminal behind stderr, where progress is drawn (stdout may go to a file meanwhile).
    package var stderrWidth: Int
    /// Reads stderr's columns again for each status line (`system`: the terminal's, which a resized window
    /// changes mid-run); nil keeps `stderrWidth`. A crawl's progress kept its starting width, and a narrowed
    /// window filled with the wrapped rows each redraw left behind (helper-360).
    package var measureStderrWidth: (@Sendable () -> Int?)?
    /// Whether a status line is drawn and redrawn in place: not under gh's `GH_SPINNER_DISABLED`, for a screen
    /// reader or a terminal log that reads every redraw (helper-360); what a wait says on a line of its own stays.
    package var redrawsStatusLine = true
    /// Colour as the environment asks for it, before any `--color` flag.
    package let colorPolicy: ColorPolicy
    /// How many colours the terminal draws (`TERM`, `COLORTERM`, read by `system` for stdout wherever it goes);
    /// tests take 256.
    package var colorDepth = ColorDepth.extended
    /// What stderr's status line shows now, shared by every copy of these streams (`noteOnStatusLine`).
    private let statusLine = StatusLineShown()
    /// Whether a person types on stdin.
    package var stdinIsTTY = false
    /// Whether a terminal is there but `TERM=dumb` makes it count as none, for a refusal to say why.
    package var terminalIsDumb = false
    /// Whether a person can be asked a question: stdin is a terminal, or the process has one (`/dev/tty`) while
    /// stdin carries data, as `gh` asks there.
    package var canAsk = false
    /// The next chunk of stdin (`gh-users unfollow -` reads its logins there), empty at its end: the caller
    /// decides how much it will hold, since stdin may never end.
    package var readInput: @Sendable () throws(InputReadError) -> [UInt8] = { [] }
    /// One line a person typed on the terminal (stdin's, else `/dev/tty`), without its newline; nil at the end
    /// of input.
    package var readLine: @Sendable () -> String? = { nil }
    /// What already read stdin to its end (`--token-file /dev/stdin`), so that no list is read from it too.
    package var stdinSpentOn: String?

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
        stderrWidth = terminalWidth
        self.colorPolicy = colorPolicy
    }

    package func writeOut(_ text: String) throws {
        try out.write(Array(text.utf8))
    }

    /// The same streams, with stderr written through what `wrap` makes of it (a filter in front of it).
    package func writingErrors(through wrap: (any OutputSink) -> any OutputSink) -> IOStreams {
        var io = self
        io.err = wrap(err)
        return io
    }

    /// The same streams with the data written to `sink` in place of stdout (`--output FILE`, or stdout counted as
    /// it is taken): no terminal, a pipe only where stdout is one and `sink` writes to it (a file's `--output |
    /// cat` shows its progress: helper-323), and the rest as it was: stderr's width, and the status line a retry
    /// notes itself on (helper-321: new streams lost both, so a progress line was drawn onto a pipe's reader's
    /// screen, and a retry was never noted under `--output`).
    package func writingOutput(to sink: any OutputSink) -> IOStreams {
        var io = self
        io.out = sink
        io.stdoutIsTTY = false
        io.stdoutIsTerminal = false
        io.stdoutIsPipe = stdoutIsPipe && sink.unreadBytes != nil
        return io
    }

    /// Diagnostics must never fail a command, so a closed stderr is ignored.
    package func writeErr(_ text: String) {
        try? err.write(Array(text.utf8))
    }

    /// Draws `text` as stderr's one status line in place (progress, a countdown), cut short of the terminal's
    /// last column: a line that wraps is erased only in its last row, and a narrow pane filled with stale copies.
    /// An empty `text` erases the line. Without `redrawsStatusLine` the line is kept, not drawn.
    package func drawStatusLine(_ text: String) {
        statusLine.withShown { shown in
            shown = text
            if redrawsStatusLine { writeStatusLine(text) }
        }
    }

    /// The status line drawn again with `note` after it ("Fetched 3 pages · 300 accounts · retrying (HTTP 502)"),
    /// until whatever drew it draws it next; nothing where no status line shows, as a data line may be on the
    /// terminal's last row. The line is read and drawn under one lock with the drawings: a note from another task
    /// cannot land just after the line was erased, onto the rows written next (helper-321). Without
    /// `redrawsStatusLine` the line and its note are written once, on a line of their own: a retry was not said at
    /// all (helper-364).
    package func noteOnStatusLine(_ note: String) {
        statusLine.withShown { shown in
            guard !shown.isEmpty else { return }
            if redrawsStatusLine {
                writeStatusLine(shown + " · " + note)
            } else {
                writeErr("gh-users: " + shown + " · " + note + "\n")
            }
        }
    }

    private func writeStatusLine(_ text: String) {
        let width = measureStderrWidth?() ?? stderrWidth
        writeErr("\r\u{1B}[2K" + DisplayWidth.truncate(text, toWidth: max(1, width - 1)))
    }

    /// The real process streams. `TERM=dumb` counts as no terminal: no table, colour, progress line or question
    /// (`gh` keeps its tables and prompts there and leaves out only its full-screen pager).
    package static func system(environment: [String: String]) -> IOStreams {
        let dumb = environment["TERM"] == "dumb"
        let outTerminal = isatty(STDOUT_FILENO) == 1
        // gh's GH_FORCE_TTY: stdout is taken for a terminal however it is redirected, but for a value gh reads as
        // false.
        let forced = environment["GH_FORCE_TTY"].flatMap { saysYes($0) ? $0 : nil }
        let outTTY = (outTerminal || forced != nil) && !dumb
        let errTTY = isatty(STDERR_FILENO) == 1 && !dumb
        let width = TerminalSize.columns(environment: environment)
        let errColumns = TerminalSize.columns(of: STDERR_FILENO)
        var io = IOStreams(
            out: FileDescriptorSink(descriptor: STDOUT_FILENO),
            err: FileDescriptorSink(descriptor: STDERR_FILENO),
            stdoutIsTTY: outTTY,
            stderrIsTTY: errTTY,
            terminalWidth: forced.flatMap {
                TerminalSize.forced($0, terminal: errColumns ?? width)
            } ?? width,
            colorPolicy: ColorPolicy(environment: environment)
        )
        io.stderrWidth = errColumns ?? io.terminalWidth
        if errColumns != nil { io.measureStderrWidth = { TerminalSize.columns(of: STDERR_FILENO) } }
        io.redrawsStatusLine = !saysYes(environment["GH_SPINNER_DISABLED"])
        io.colorDepth = ColorDepth(environment: environment)
        io.stdoutIsTerminal = outTerminal
        var info = stat()
        if fstat(STDOUT_FILENO, &info) == 0 {
            let kind = info.st_mode & S_IFMT
            io.stdoutIsPipe = kind == S_IFIFO || kind == S_IFSOCK
        }
        io.stdinIsTTY = isatty(STDIN_FILENO) == 1 && !dumb
        io.terminalIsDumb = dumb && (outTerminal || isatty(STDERR_FILENO) == 1 || isatty(STDIN_FILENO) == 1)
        io.readInput = { () throws(InputReadError) in try InputReadError.readChunk(STDIN_FILENO) }
        if io.stdinIsTTY {
            io.canAsk = true
            io.readLine = { Swift.readLine(strippingNewline: true) }
        } else {
            io.canAsk = !dumb && TerminalLine.isAvailable
            io.readLine = { TerminalLine.read() }
        }
        return io
    }

    /// A variable of gh's that is set and says yes: any value but empty, `0`, `false` or `no`.
    private static func saysYes(_ value: String?) -> Bool {
        value.map { !["", "0", "false", "no"].contains($0.lowercased()) } ?? false
    }

    /// Captures both streams in memory, for tests.
    package static func test(
        stdoutTTY: Bool = false,
        stderrTTY: Bool = false,
        width: Int = 80,
        colorPolicy: ColorPolicy = .auto,
        stdin: String = "",
        stdinTTY: Bool = false,
        terminal: String? = nil
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
        // A test's terminal is a real one, not one `GH_FORCE_TTY` forced.
        io.stdoutIsTerminal = stdoutTTY
        io.stdinIsTTY = stdinTTY
        io.canAsk = stdinTTY || terminal != nil
        // In small chunks, so that a line split across two reads is read as one.
        let chunks = ChunkQueue(Array(stdin.utf8), size: 7)
        io.readInput = { chunks.next() }
        let typed = terminal ?? stdin
        let lines = LineQueue(typed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        io.readLine = { lines.next() }
        return (io, out, err)
    }
}

/// An in-memory sink for tests. It can simulate a reader that closes after some bytes.
package final class CapturedOutput: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var closeAfterBytes: Int?
    private var largest = 0

    package init() {}

    /// The most bytes one write handed over: a writer that holds its whole output writes it at once.
    package var largestWrite: Int { lock.withLock { largest } }

    /// After `bytes` have been accepted, every further write throws `OutputClosedError`, as a closed pipe would.
    package func closeAfter(bytes: Int) {
        lock.withLock { closeAfterBytes = bytes }
    }

    package var readerHasLeft: Bool {
        lock.withLock { closeAfterBytes.map { buffer.count >= $0 } ?? false }
    }

    package func write(_ bytes: [UInt8]) throws {
        try lock.withLock {
            if let limit = closeAfterBytes, buffer.count >= limit {
                throw OutputClosedError()
            }
            buffer.append(contentsOf: bytes)
            largest = max(largest, bytes.count)
        }
    }

    package var text: String {
        lock.withLock { String(decoding: buffer, as: UTF8.self) }
    }
}

/// Terminal width: the ioctl first, then `$COLUMNS`, then 80 (a pty may report 0 columns).
package enum TerminalSize {
    /// The widest a terminal can say it is (`ws_col` is 16 bits), and so the widest `COLUMNS` is taken as: a table
    /// pads its free-text columns to share the width, and `COLUMNS=9223372036854775807` asked for that many
    /// spaces (an allocation failure's backtrace, exit 134; `1000000000` ran for minutes: helper-292).
    package static let widest = Int(UInt16.max)

    package static func columns(environment: [String: String]) -> Int {
        if let columns = columns(of: STDOUT_FILENO) { return columns }
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 {
            return min(columns, widest)
        }
        return 80
    }

    /// The width a `GH_FORCE_TTY` value asks for, as gh reads it: a number is columns, a percentage a share of the
    /// `terminal`'s; nil for any other value, which forces a terminal of the usual width.
    package static func forced(_ value: String, terminal: Int) -> Int? {
        if value.hasSuffix("%"), let percent = Int(value.dropLast()), percent > 0 {
            return min(max(1, terminal * min(percent, 100) / 100), widest)
        }
        guard let columns = Int(value), columns > 0 else { return nil }
        return min(columns, widest)
    }

    /// The columns of the terminal `descriptor` is, or nil when it is none or reports none.
    package static func columns(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

/// stdin could not be read (a directory, a closed descriptor): `reason` is strerror's, lowercased.
package struct InputReadError: Error, Equatable {
    package let reason: String

    package init(reason: String) {
        self.reason = reason
    }

    /// Up to 64 KiB from `descriptor`, through EINTR; empty at its end.
    static func readChunk(_ descriptor: Int32) throws(InputReadError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
            if count >= 0 { return Array(buffer.prefix(count)) }
            if errno == EINTR || DescriptorReadiness.waited(descriptor, for: POLLIN) { continue }
            let text = String(cString: strerror(errno))
            throw InputReadError(reason: text.prefix(1).lowercased() + text.dropFirst())
        }
    }
}

/// A line typed on the process's terminal (`/dev/tty`) when stdin is not one, as `gh` asks there.
enum TerminalLine {
    static var isAvailable: Bool {
        let descriptor = open("/dev/tty", O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// Up to 1 KiB of one line, without its newline; nil when there is no terminal or it ended.
    static func read() -> String? {
        let descriptor = open("/dev/tty", O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 1024 {
            let count = systemRead(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
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

/// Canned stdin bytes for tests, handed out a few at a time; empty at the end.
private final class ChunkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: ArraySlice<UInt8>
    private let size: Int

    init(_ bytes: [UInt8], size: Int) {
        self.bytes = bytes[...]
        self.size = size
    }

    func next() -> [UInt8] {
        lock.withLock {
            let chunk = Array(bytes.prefix(size))
            bytes = bytes.dropFirst(size)
            return chunk
        }
    }
}

private func systemRead(_ descriptor: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        return Glibc.read(descriptor, pointer, count)
    #else
        return Darwin.read(descriptor, pointer, count)
    #endif
}

/// The text of stderr's status line as last drawn, empty once erased.
private final class StatusLineShown: @unchecked Sendable {
    private let lock = NSLock()
    private var shown = ""

    /// `body` with the text, under the lock, which it holds while it writes the line.
    func withShown(_ body: (inout String) -> Void) { lock.withLock { body(&shown) } }
}
