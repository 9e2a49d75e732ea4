import AtomicCore
import Foundation
import Testing

@testable import gh_users

/// stdout as a pipe whose reader is scripted: `takes` every byte at once or none, and a pipe `capacity` bytes
/// long that takes a write whole or not at all, as a pipe takes one of up to PIPE_BUF.
private final class TalliedPipe: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var held = 0
    private let takes: Bool
    private let capacity: Int

    init(takes: Bool, capacity: Int = .max) {
        self.takes = takes
        self.capacity = capacity
    }

    func write(_ bytes: [UInt8]) throws {
        try lock.withLock {
            guard held + bytes.count <= capacity else { throw OutputWriteError.cut("Broken pipe", written: 0) }
            held += bytes.count
        }
    }
    var unreadBytes: Int? { lock.withLock { takes ? 0 : held } }
}

/// What a `--state` run to a pipe records: only the places whose bytes the reader took (mutation round 11).
struct PipeTallyTests {
    private let noWait: @Sendable (Duration) async -> Void = { _ in }

    /// A reader that took every byte and is still there has taken every place, the last one too: the state
    /// records the last page written, and a rerun does not write it again (M11-114, M11-115, M11-117).
    @Test func aReaderThatTookEverythingHasTakenTheLastPlace() async throws {
        let tally = try #require(PipeTally<Int>.of(TalliedPipe(takes: true)))
        try tally.write(Array(repeating: 0x61, count: 100))
        #expect(tally.written(1).isEmpty)
        try tally.write(Array(repeating: 0x62, count: 100))
        #expect(tally.written(2).isEmpty)
        let drained = await tally.drain(waiting: true, limit: .seconds(5), sleep: noWait)
        #expect(drained.taken == [1, 2])
        #expect(drained.all)
        #expect(tally.lastTaken == 2)
    }

    /// While the run goes on, a place counts as taken once the reader has read `readAhead` bytes past it, and
    /// not a byte sooner.
    @Test func aPlaceIsTakenOnceTheReaderIsReadAheadPastIt() throws {
        let tally = try #require(PipeTally<Int>.of(TalliedPipe(takes: true)))
        try tally.write(Array(repeating: 0x61, count: 10))
        #expect(tally.written(1).isEmpty)
        try tally.write(Array(repeating: 0x62, count: PipeTally<Int>.readAhead - 1))
        #expect(tally.written(2).isEmpty)
        try tally.write([0x63])
        #expect(tally.written(3) == [1])
        #expect(tally.lastTaken == 1)
    }

    /// A reader that took nothing has taken no place: the run says not all of its output was read (M11-116).
    @Test func aReaderThatTookNothingHasTakenNoPlace() async throws {
        let tally = try #require(PipeTally<Int>.of(TalliedPipe(takes: false)))
        try tally.write(Array(repeating: 0x61, count: 100))
        #expect(tally.written(1).isEmpty)
        let drained = await tally.drain(waiting: false, limit: .seconds(5), sleep: noWait)
        #expect(drained.taken.isEmpty)
        #expect(!drained.all)
        #expect(tally.lastTaken == nil)
    }

    /// A page is written in pieces of at most PIPE_BUF, so a pipe that fills part-way holds whole pieces and the
    /// failure says how many bytes went out: 8,192 of 10,000 here, not none (M11-113).
    @Test func aWriteCutPartWaySaysHowMuchOfItWentOut() throws {
        let tally = try #require(PipeTally<Int>.of(TalliedPipe(takes: false, capacity: 9_000)))
        #expect {
            try tally.write(Array(repeating: 0x61, count: 10_000))
        } throws: { error in
            (error as? OutputWriteError)?.written == 2 * PipeTally<Int>.atomicSize
        }
    }
}
