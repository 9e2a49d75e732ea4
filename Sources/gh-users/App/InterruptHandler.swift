import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the first Ctrl-C into cancellation of the running command, which then closes its output, says where
/// to resume and exits 130. A second Ctrl-C exits at once, for when something does not stop.
///
/// It is installed before the command starts, and an interrupt that arrives before there is anything to
/// cancel is remembered and applied as soon as there is, so no Ctrl-C is ever lost.
final class InterruptHandler {
    private let source: any DispatchSourceSignal
    private let state = InterruptState()

    init() {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let state = self.state
        source.setEventHandler {
            if state.interrupt() > 1 { _exit(130) }
        }
        source.resume()
        self.source = source
    }

    /// What to do on Ctrl-C; runs at once if one already came.
    func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        state.setAction(action)
    }

    deinit {
        source.cancel()
    }
}

final class InterruptState: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var action: (@Sendable () -> Void)?

    /// Counts the interrupt and runs the action if there is one yet.
    func interrupt() -> Int {
        let (count, action) = lock.withLock { () -> (Int, (@Sendable () -> Void)?) in
            self.count += 1
            return (self.count, self.action)
        }
        action?()
        return count
    }

    func setAction(_ action: @escaping @Sendable () -> Void) {
        let pending = lock.withLock { () -> Bool in
            self.action = action
            return count > 0
        }
        if pending { action() }
    }
}
