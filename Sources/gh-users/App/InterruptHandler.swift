import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the first SIGINT, SIGTERM or SIGHUP into cancellation of the running command, which then closes its
/// output, says where to resume and exits 128 + the signal's number (130, 143, 129), as a shell reports a
/// process killed by that signal.
///
/// A second signal does not cut the output short: the command is already closing its JSON document, which takes
/// milliseconds, so it gets `grace` to finish before the process exits anyway; a third exits at once, for when
/// something does not stop.
///
/// It is installed before the command starts, and a signal that arrives before there is anything to cancel is
/// remembered and applied as soon as there is, so none is ever lost.
final class InterruptHandler {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private let sources: [any DispatchSourceSignal]
    private let state = InterruptState()

    init(grace: DispatchTimeInterval = .seconds(1)) {
        let state = self.state
        sources = Self.signals.map { number in
            // Ignored at the process level, so that only the Dispatch source sees it.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                switch state.interrupt(signal: number) {
                case 1:
                    break
                case 2:
                    DispatchQueue.global().asyncAfter(deadline: .now() + grace) { _exit(state.signalStatus) }
                default:
                    _exit(state.signalStatus)
                }
            }
            source.resume()
            return source
        }
    }

    /// What to do on the first signal; runs at once if one already came. It runs on a queue of its own, so
    /// that a cancellation that blocked could not keep the second and third signals from being handled.
    func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        state.setAction { DispatchQueue.global().async(execute: action) }
    }

    /// The status to exit with once the command has returned `status`.
    func exitStatus(for status: Int32) -> Int32 {
        state.exitStatus(for: status)
    }

    deinit {
        for source in sources { source.cancel() }
    }
}

final class InterruptState: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var firstSignal: Int32?
    private var action: (@Sendable () -> Void)?

    /// Counts the signal and runs the action if there is one yet.
    func interrupt(signal: Int32 = SIGINT) -> Int {
        let (count, action) = lock.withLock { () -> (Int, (@Sendable () -> Void)?) in
            self.count += 1
            if firstSignal == nil { firstSignal = signal }
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

    /// 128 + the first signal's number; SIGINT's 130 when none came.
    var signalStatus: Int32 {
        128 + (lock.withLock { firstSignal } ?? SIGINT)
    }

    /// A command cancelled by a signal returns `ExitCode.interrupted` (SIGINT's 130); after SIGTERM or SIGHUP that
    /// becomes 143 or 129. Any other status (the command had already finished, or failed otherwise) stands.
    func exitStatus(for status: Int32) -> Int32 {
        guard status == ExitCode.interrupted, lock.withLock({ firstSignal }) != nil else { return status }
        return signalStatus
    }
}
