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
}

extension InterruptState {
    /// A state whose first signal sets no deadline that ends the test process.
    static func untimed() -> InterruptState {
        InterruptState(firstGrace: .seconds(3600)) { _ in }
    }
}
