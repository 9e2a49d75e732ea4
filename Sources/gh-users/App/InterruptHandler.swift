import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the first Ctrl-C into cancellation of the running command, which then closes its output, says where
/// to resume and exits 130. A second Ctrl-C exits at once, for when something does not stop.
final class InterruptHandler {
    private let source: any DispatchSourceSignal

    init(onInterrupt: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let count = InterruptCount()
        source.setEventHandler {
            if count.increment() > 1 { _exit(130) }
            onInterrupt()
        }
        source.resume()
        self.source = source
    }

    deinit {
        source.cancel()
    }
}

private final class InterruptCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
