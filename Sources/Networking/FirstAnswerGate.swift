import Foundation

/// Until a session's first answer has come, one request goes and the others wait for it. libcurl (under URLSession
/// on Linux) opens a connection for every request that starts before one is up, since swift-corelibs-foundation
/// never sets `CURLOPT_PIPEWAIT`: `show` of 50 logins at `--concurrency 8` opened 8 connections and 8 TLS
/// handshakes over HTTP/2 where one carries them all (issue 29, measured with `Scripts/bench --network`). Once an
/// answer came, the connection is up and the rest multiplex on it (HTTP/2), or open their own (HTTP/1.1).
///
/// The first request through `pass()` leads; it calls `open()` when its attempt ends, whatever the outcome, and
/// every waiter goes on then. A waiter that is cancelled stops waiting at once (`pass()` then throws
/// `CancellationError`).
package final class FirstAnswerGate: @unchecked Sendable {
    private enum State {
        case closed
        case opening([UInt64: CheckedContinuation<Void, any Error>])
        case open
    }

    private let lock = NSLock()
    private var state = State.closed
    private var nextWaiter: UInt64 = 0

    package init() {}

    /// Whether the gate has opened: an answer came, or the first request ended without one.
    package var isOpen: Bool { lock.withLock { if case .open = state { true } else { false } } }

    /// Returns true for the request that leads (it must call `open()` when its attempt ends), false for one that
    /// may go now, after waiting for the leader's answer if it had not come.
    package func pass() async throws -> Bool {
        let (leads, waiter): (Bool, UInt64?) = lock.withLock {
            switch state {
            case .closed:
                state = .opening([:])
                return (true, nil)
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
