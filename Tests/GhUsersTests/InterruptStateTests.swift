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
        let state = InterruptState()
        let cancelled = Counter()
        #expect(state.interrupt() == 1)
        #expect(cancelled.count == 0)
        state.setAction { cancelled.increment() }
        #expect(cancelled.count == 1)
    }

    @Test func laterInterruptsRunTheActionAndAreCounted() {
        let state = InterruptState()
        let cancelled = Counter()
        state.setAction { cancelled.increment() }
        #expect(cancelled.count == 0)
        #expect(state.interrupt() == 1)
        #expect(state.interrupt() == 2)
        #expect(cancelled.count == 2)
    }
}
