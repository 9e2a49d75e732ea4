import Foundation
import Testing

@testable import gh_users

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}

struct InterruptStateTests {
    @Test func anInterruptBeforeThereIsACommandIsNotLost() {
        let state = InterruptState.untimed()
        let cancelled = Counter()
        #expect(state.interrupt() == 1)
        #expect(cancelled.count == 0)
        state.setAction { cancelled.increment() }
        #expect(cancelled.count == 1)
    }

    @Test func laterInterruptsRunTheActionAndAreCounted() {
        let state = InterruptState.untimed()
        let cancelled = Counter()
        state.setAction { cancelled.increment() }
        #expect(cancelled.count == 0)
        #expect(state.interrupt() == 1)
        #expect(state.interrupt() == 2)
        #expect(cancelled.count == 2)
    }

    /// A command busy with work that never waits (a render) does not see its cancellation: the first signal
    /// still ends the process, once the grace is over, with the signal's status.
    @Test func theFirstSignalEndsACommandThatNeverWaits() {
        let ended = DispatchSemaphore(value: 0)
        let status = Counter()
        let state = InterruptState(firstGrace: .milliseconds(20)) { code in
            for _ in 0..<code { status.increment() }
            ended.signal()
        }
        let busy = Counter()
        state.setAction { busy.increment() }  // Cancelling: the work below goes on regardless.
        _ = state.interrupt(signal: SIGTERM)
        #expect(ended.wait(timeout: .now() + 60) == .success)
        #expect(status.count == 143)
        #expect(busy.count == 1)
    }

    @Test func aForcedExitRemovesTheFilesARunOwes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-cleanup-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let owed = folder.appendingPathComponent("owed").path
        let done = folder.appendingPathComponent("done").path
        for path in [owed, done] { _ = FileManager.default.createFile(atPath: path, contents: Data()) }
        let cleanup = ExitCleanup()
        _ = cleanup.add(owed)
        cleanup.remove(cleanup.add(done))
        cleanup.removeFiles()
        #expect(!FileManager.default.fileExists(atPath: owed))
        #expect(FileManager.default.fileExists(atPath: done))
    }

    @Test func aHeldLockIsOwedUntilItIsReleased() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-cleanup-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let owned = OwnedFile(
            path: folder.appendingPathComponent("snapshot").path, kind: "snapshot file", option: "--changes",
            limitBytes: 1000)
        var lock: OwnedFileLock? = try owned.lock()
        #expect(ExitCleanup.process.owes(owned.lockPath))
        withExtendedLifetime(lock) {}
        lock = nil
        #expect(!ExitCleanup.process.owes(owned.lockPath))
    }

    /// A forced exit's "interrupted" line waits for no one: to a full pipe nobody reads (a stopped terminal's
    /// stderr alike) it is left unsaid, where its blocking write kept the process from ever ending (helper-304).
    /// The line goes out whole once there is room.
    @Test func theInterruptedLineIsLeftUnsaidToAFullStderr() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { _ = (close(ends[0]), close(ends[1])) }
        // Filled without blocking, then made blocking again, as a shell's pipe is.
        let flags = fcntl(ends[1], F_GETFL)
        _ = fcntl(ends[1], F_SETFL, flags | O_NONBLOCK)
        let chunk = [UInt8](repeating: 0x61, count: 4096)
        while chunk.withUnsafeBytes({ write(ends[1], $0.baseAddress, $0.count) }) > 0 {}
        _ = fcntl(ends[1], F_SETFL, flags)
        let said = Counter()
        let done = DispatchSemaphore(value: 0)
        let writer = ends[1]
        DispatchQueue.global().async {
            if InterruptState.sayInterrupted(to: writer) { said.increment() }
            done.signal()
        }
        // Before, the write blocked here for good; a minute is far past any scheduling delay.
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(said.count == 0)
        var drain = [UInt8](repeating: 0, count: 1 << 20)
        _ = drain.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
        #expect(InterruptState.sayInterrupted(to: ends[1]))
    }
}

extension InterruptState {
    /// A state whose first signal sets no deadline that ends the test process.
    static func untimed() -> InterruptState {
        InterruptState(firstGrace: .seconds(3600)) { _ in }
    }
}
