import Foundation
import TestSupport
import Testing

@testable import AtomicCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 20 item 4: making control characters visible costs time linear in the text, however many there are.
/// Not a timed assertion: the time for 8N characters is compared with the time for N in the same run, so a slow
/// or busy machine slows both. Linear work grows 8 times; the old quadratic work grew 64 times or more (20 s for
/// 800k escape characters). Both texts are larger than a processor cache, so its effect does not skew the ratio,
/// and the tests run one at a time.
@Suite(.serialized) struct SanitizerCostTests {
    /// How many times longer `work` takes on 8 times `count` units than on `count`.
    private func growth(of work: (String) -> Void, unit: String, count: Int) -> Double {
        let small = String(repeating: unit, count: count)
        let large = String(repeating: unit, count: count * 8)
        return Growth.ratio(small: { work(small) }, large: { work(large) })
    }

    @Test(arguments: ["\u{1B}", "\u{0}", "\n", "\u{202E}", "\u{9B}"])
    func sanitisingGrowsLinearly(unit: String) {
        let ratio = growth(of: { _ = TerminalSanitizer.sanitize($0, escapeBackslash: true) }, unit: unit, count: 20_000)
        #expect(ratio < 32, "8 times the text took \(ratio) times as long")
    }

    @Test func aSanitisedTextIsExact() {
        let text = "a\u{1B}[31mb\\c\td\ne\u{202E}f\u{0}g✓"
        #expect(TerminalSanitizer.sanitize(text) == "a\\e[31mb\\c\\td\\ne\u{FFFD}f\\0g✓")
        #expect(TerminalSanitizer.sanitize(text, escapeBackslash: true) == "a\\e[31mb\\\\c\\td\\ne\u{FFFD}f\\0g✓")
        #expect(TerminalSanitizer.sanitize(String(repeating: "\u{1B}", count: 100_000)).utf8.count == 200_000)
    }

    @Test func cuttingToAWidthGrowsLinearly() {
        let ratio = growth(
            of: { _ = DisplayWidth.truncate(TerminalSanitizer.sanitize($0), toWidth: 300) }, unit: "\u{1B}",
            count: 20_000)
        #expect(ratio < 32, "8 times the text took \(ratio) times as long")
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
