import Foundation
import TestSupport
import Testing

@testable import AtomicCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 20 item 4: making control characters visible costs work linear in the text, however many there are.
/// Counted, not timed: the heap bytes allocated meanwhile (`AllocationCount`). Built in place, the result takes
/// at most some tens of bytes per byte of text (40 for an escape character, built at -Onone); built by appending to a
/// `String.UnicodeScalarView`, which copied the whole view each time (20 s for 800k escape characters), it took
/// about N²/2 bytes for N characters: 400 MB for the 20,000 here, 6,700 to 20,000 bytes per byte of text.
struct SanitizerCostTests {
    /// The bytes `work` allocates per byte of a text of `count` times `unit`.
    private func bytesPerByte(of work: (String) -> Void, unit: String, count: Int) throws -> Int {
        let text = String(repeating: unit, count: count)
        let counted = try AllocationCount.during { work(text) }
        return counted.bytes / text.utf8.count
    }

    @Test(arguments: ["\u{1B}", "\u{0}", "\n", "\u{202E}", "\u{9B}"])
    func sanitisingGrowsLinearly(unit: LoggedText) throws {
        let perByte = try bytesPerByte(
            of: { _ = TerminalSanitizer.sanitize($0, escapeBackslash: true) }, unit: unit.text, count: 20_000)
        #expect(perByte <= 256, "sanitising allocated \(perByte) bytes per byte of text")
    }

    @Test func aSanitisedTextIsExact() {
        let text = "a\u{1B}[31mb\\c\td\ne\u{202E}f\u{0}g✓"
        #expect(TerminalSanitizer.sanitize(text) == "a\\e[31mb\\c\\td\\ne\u{FFFD}f\\0g✓")
        #expect(TerminalSanitizer.sanitize(text, escapeBackslash: true) == "a\\e[31mb\\\\c\\td\\ne\\u{202e}f\\0g✓")
        #expect(TerminalSanitizer.sanitize(String(repeating: "\u{1B}", count: 100_000)).utf8.count == 200_000)
    }

    /// tsv loses no character: a right-to-left mark in a Hebrew name is named by its code point, which reads back
    /// as the mark, as the backslash before it is doubled (before: U+FFFD, which cannot be undone).
    @Test func tsvNamesAnInvisibleMarkAndLosesNothing() {
        let name = "\u{5D3}\u{5D5}\u{5D3}\u{200F} (David)\u{200E}\\u{200f}"
        let cell = TerminalSanitizer.sanitize(name, escapeBackslash: true)
        #expect(cell == "\u{5D3}\u{5D5}\u{5D3}\\u{200f} (David)\\u{200e}\\\\u{200f}")
        #expect(!cell.unicodeScalars.contains { $0.properties.generalCategory == .format })
        #expect(TerminalSanitizer.sanitize(name).unicodeScalars.filter { $0 == "\u{FFFD}" }.count == 2)
        // One record stays one line for every reader: Python's splitlines ends a line at U+2028 and U+2029.
        #expect(TerminalSanitizer.sanitize("a\u{2028}b\u{2029}c", escapeBackslash: true) == "a\\u{2028}b\\u{2029}c")
    }

    /// A cell is sanitised, then cut to its column: the cut measures each character once, and copies no longer
    /// text than the width it keeps.
    @Test func cuttingToAWidthGrowsLinearly() throws {
        let perByte = try bytesPerByte(
            of: { _ = DisplayWidth.truncate(TerminalSanitizer.sanitize($0), toWidth: 300) }, unit: "\u{1B}",
            count: 20_000)
        #expect(perByte <= 256, "sanitising and cutting allocated \(perByte) bytes per byte of text")
    }
}

/// Issue 19 item 12: a failed write to stdout is a failure, unless the reader left.
struct FileDescriptorSinkTests {
    /// A pipe's reader leaving is seen before anything more is written; a file or /dev/null never says so.
    @Test func aPipeWhoseReaderLeftSaysSoAndAFileDoesNot() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[1]) }
        let sink = FileDescriptorSink(descriptor: ends[1])
        #expect(!sink.readerHasLeft)
        close(ends[0])
        #expect(sink.readerHasLeft)
        let null = open("/dev/null", O_WRONLY)
        try #require(null >= 0)
        defer { close(null) }
        #expect(!FileDescriptorSink(descriptor: null).readerHasLeft)
    }

    /// A socket's peer (systemd's journal, `StandardOutput=socket`) is seen as a pipe's reader is: what it has not
    /// taken is counted, nothing once it read everything, and one that leaves with bytes unread left (before: no
    /// count, so `--changes` recorded changes a peer never took, exit 0; helper-365).
    @Test func aSocketsPeerIsSeenAsAPipesReaderIs() async throws {
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { close(ends[0]) }
        let sink = FileDescriptorSink(descriptor: ends[0])
        try sink.write(Array("one\ntwo\n".utf8))
        #expect((sink.unreadBytes ?? 0) >= 8)
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(read(ends[1], &buffer, buffer.count) == 8)
        #expect(sink.unreadBytes == 0)
        #expect(await sink.waitForReader(grace: .milliseconds(20)) == .tookAll)
        try sink.write(Array("three\n".utf8))
        #expect((sink.unreadBytes ?? 0) > 0)
        close(ends[1])
        #expect(await sink.waitForReader(grace: .milliseconds(20)) == .left)
    }

    /// A reader that takes everything in one read and leaves a moment later (`| head -1`) left; one that took
    /// everything and stays took it all, and so did a file.
    @Test func aReaderThatLeavesAfterTakingEverythingLeftEarly() async throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[1]) }
        let sink = FileDescriptorSink(descriptor: ends[1])
        try sink.write(Array("one\ntwo\n".utf8))
        #expect(sink.unreadBytes == 8)
        let reader = ends[0]
        let leaves = Thread {
            var buffer = [UInt8](repeating: 0, count: 64)
            _ = read(reader, &buffer, buffer.count)
            usleep(20_000)
            close(reader)
        }
        leaves.start()
        #expect(await sink.waitForReader(grace: .seconds(5)) == .left)

        var stays: [Int32] = [0, 0]
        try #require(pipe(&stays) == 0)
        defer { close(stays[0]) }
        defer { close(stays[1]) }
        let kept = FileDescriptorSink(descriptor: stays[1])
        try kept.write(Array("one\n".utf8))
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(read(stays[0], &buffer, buffer.count) == 4)
        #expect(kept.unreadBytes == 0)
        #expect(await kept.waitForReader(grace: .milliseconds(50)) == .tookAll)

        let null = open("/dev/null", O_WRONLY)
        try #require(null >= 0)
        defer { close(null) }
        #expect(FileDescriptorSink(descriptor: null).unreadBytes == nil)
        #expect(await FileDescriptorSink(descriptor: null).waitForReader() == .tookAll)
    }

    /// A pipe its opener left non-blocking (O_NONBLOCK) fills: the write waits for the reader, as to a blocking
    /// one, rather than fail on EAGAIN (before: "resource temporarily unavailable" after 64 KiB, helper-334).
    @Test func aNonBlockingPipeThatFillsIsWaitedFor() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        #expect(fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) == 0)
        let (writer, sent) = (ends[1], [UInt8](repeating: 0x61, count: 1 << 20))
        // A write that fails closes the pipe as one that ends: the reader counts what came.
        let writes = Thread {
            try? FileDescriptorSink(descriptor: writer).write(sent)
            close(writer)
        }
        writes.start()
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while case let count = read(ends[0], &buffer, buffer.count), count > 0 { received += count }
        #expect(received == sent.count)
    }

    /// So does a read of stdin that finds nothing there yet.
    @Test func aNonBlockingInputWithNothingYetIsWaitedFor() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        #expect(fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK) == 0)
        let writer = ends[1]
        let later = Thread {
            usleep(50_000)
            _ = write(writer, "octocat\n", 8)
            close(writer)
        }
        later.start()
        #expect(try InputReadError.readChunk(ends[0]) == Array("octocat\n".utf8))
    }

    /// `>&-`: a descriptor that is not open says so before anything is written; an open one does not.
    @Test func aClosedDescriptorIsNotOpen() throws {
        let null = open("/dev/null", O_WRONLY)
        try #require(null >= 0)
        defer { close(null) }
        #expect(FileDescriptorSink(descriptor: null).isOpen)
        // A number far above any descriptor this process opens, so that no other test can open it meanwhile.
        #expect(!FileDescriptorSink(descriptor: 900_000).isOpen)
    }

    @Test func aFullDeviceIsAWriteErrorThatSaysWhy() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(
            throws: OutputWriteError(
                message: "cannot write to file descriptor \(descriptor): no space left on device", written: 0)
        ) {
            try FileDescriptorSink(descriptor: descriptor).write(Array("id\tlogin\n".utf8))
        }
    }

    @Test func aClosedPipeIsAQuietEnd() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        #expect(throws: OutputClosedError()) {
            try FileDescriptorSink(descriptor: ends[1]).write(Array("x\n".utf8))
        }
    }
}

/// Output moved to a file (`--output FILE`) reaches no terminal, even when stdout is one (TERM=dumb:
/// stdoutIsTerminal without stdoutIsTTY); otherwise csv written into the file would be sanitized for a terminal
/// (an ESC in the data written as the text "\e"). helper-330: dropping that line in writingOutput(to:) went unseen.
struct OutputMovedToAFileTests {
    @Test func outputMovedToAFileIsNoTerminalWhateverStdoutIs() {
        var (io, _, _) = IOStreams.test(stdoutTTY: false)
        io.stdoutIsTerminal = true
        let moved = io.writingOutput(to: CapturedOutput())
        #expect(!moved.stdoutIsTerminal)
        #expect(!moved.stdoutIsTTY)
    }
}
