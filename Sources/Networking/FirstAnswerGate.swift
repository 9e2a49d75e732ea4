import Foundation

/// Until a transport's first HTTPS answer has come, only the first few requests go; the others wait for it.
/// Those few go on one connection (`URLSessionTransport`'s HTTPS session keeps one a host), where libcurl holds
/// them until it is up and multiplexes them over HTTP/2; the answer then shows whether the server speaks HTTP/1.1,
/// over which the ones queued on that connection go one after another and the rest go to a pool instead.
///
/// The first request through `pass()` leads; it calls `open()` when its attempt ends, whatever the outcome, and
/// every waiter goes on then. A gate made with `ahead` > 1 lets that many go before the answer (the leader and
/// `ahead` - 1 more), and holds only the ones after them. A waiter that is cancelled stops waiting at once
/// (`pass()` then throws `CancellationError`).
package final class FirstAnswerGate: @unchecked Sendable {
    private enum State {
        case closed
        case opening([UInt64: CheckedContinuation<Void, any Error>])
        case open
    }

    private let lock = NSLock()
    private var state = State.closed
    private var nextWaiter: UInt64 = 0
    private let ahead: Int
    private var wentAhead = 0

    package init(ahead: Int = 1) {
        self.ahead = max(1, ahead)
    }

    /// Whether the gate has opened: an answer came, or the first request ended without one.
    package var isOpen: Bool { lock.withLock { if case .open = state { true } else { false } } }

    /// Returns true for the request that leads (it must call `open()` when its attempt ends), false for one that
    /// may go now, after waiting for the leader's answer if it had not come.
    package func pass() async throws -> Bool {
        let (leads, waiter): (Bool, UInt64?) = lock.withLock {
            switch state {
            case .closed:
                state = .opening([:])
                wentAhead = 1
                return (true, nil)
            case .opening where wentAhead < ahead:
                wentAhead += 1
                return (false, nil)
            case .opening:
                nextWaiter += 1
                return (false, nextWaiter)
            case .open:
                return (false, nil)
            }
        }
        guard let waiter else { return leads }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: (any Error)?? = lock.withLock {
                    guard case .opening(var waiters) = state else { return .some(nil) }
                    if Task.isCancelled { return .some(CancellationError()) }
                    waiters[waiter] = continuation
                    state = .opening(waiters)
                    return .none
                }
                switch resumeNow {
                case .some(nil): continuation.resume()
                case .some(let error?): continuation.resume(throwing: error)
                case .none: break
                }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, any Error>? = lock.withLock {
                guard case .opening(var waiters) = state, let continuation = waiters.removeValue(forKey: waiter) else {
                    return nil
                }
                state = .opening(waiters)
                return continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
        return false
    }

    /// The leader's attempt ended: everyone waiting goes on, and no one waits again.
    package func open() {
        let waiters: [CheckedContinuation<Void, any Error>] = lock.withLock {
            defer { state = .open }
            guard case .opening(let waiters) = state else { return [] }
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }
}
