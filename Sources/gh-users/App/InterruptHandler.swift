import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the first SIGINT, SIGTERM or SIGHUP into cancellation of the running command, which then closes its
/// output and says where to resume; then the process ends by that signal, at its default action, so a shell
/// reports 128 + its number (130, 143, 129) and knows the signal ended it: bash stops a script's loop at a Ctrl-C
/// only when the command died of SIGINT ("wait and cooperative exit"), as Python and Go programs do, and a
/// service manager takes a SIGTERM death for a clean stop (helper-365: exit 143 was a failed unit).
///
/// Cancellation reaches a command only where it waits (a request, a rate-limit wait); work that never waits
/// (rendering a very large page) would not see it. So the first signal also sets a deadline (`firstGrace`,
/// 10 s, far past a normal close, which takes milliseconds): a command that has not returned by then is ended
/// with the same status, its temporary and lock files removed (`ExitCleanup`). A second signal does not cut the output short: the command is already closing its JSON
/// document, which takes milliseconds, so it gets `grace` to finish before the process exits anyway; a third
/// exits at once, for when something does not stop.
///
/// It is installed before the command starts, and a signal that arrives before there is anything to cancel is
/// remembered and applied as soon as there is, so none is ever lost. A signal the process inherited as ignored
/// (`nohup`'s SIGHUP, SIGINT for a background job of a script) is left ignored (`ignoredAtStart`).
///
/// The handler only writes the signal's number to a pipe, and a thread of its own reads it there. A Dispatch
/// signal source is no good here: on Linux it blocks the signal in whichever thread caught it and raises it again
/// for that thread alone, so a first signal that lands on a thread blocked in open(2) or read(2) of a FIFO or pipe
/// stays pending there, unseen (measured: `timeout 10 gh-users --token-file FIFO` never stopped). Cancellation
/// cannot end such a call either, so a signal that comes while one is under way (`InterruptState.blocking`)
/// ends the process at once.
final class InterruptHandler {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The pipe's write end, for the handler (which may only make async-signal-safe calls); -1 until installed.
    nonisolated(unsafe) fileprivate static var signalPipe: Int32 = -1

    private let state: InterruptState

    init(grace: DispatchTimeInterval = .seconds(1), state: InterruptState = .process) {
        self.state = state
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            // Past `ResourceLimits`, which leaves room for it; said, not trapped, all the same.
            let message = Array(
                "gh-users: cannot create the signal pipe: \(FileDescriptorIO.reason(errno)); nothing was done\n".utf8)
            _ = message.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            _exit(1)
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A flood of signals must never block the handler: past the pipe's 64 KiB, more are dropped.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        Self.signalPipe = ends[1]
        let reader = ends[0]
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                let count = read(reader, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                Self.handle(signal: Int32(byte), state: state, grace: grace)
            }
        }
        for number in Self.signals where !Self.ignoredAtStart(number) {
            let handler: @convention(c) (Int32) -> Void = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                let saved = errno
                _ = write(InterruptHandler.signalPipe, &byte, 1)
                errno = saved
            }
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = handler
            #else
                action.__sigaction_u.__sa_handler = handler
            #endif
            // Restarted, so that no other call (libcurl's, Foundation's) sees EINTR it does not expect.
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// Whether `number` came ignored from the process that started this one: `nohup` ignores SIGHUP, and a shell
    /// without job control ignores SIGINT (and SIGQUIT) for a command it runs in the background. Such a signal
    /// stays ignored, as GNU's coding standards ask and `nohup sleep` shows: catching it would stop a run its
    /// starter meant to survive the signal.
    static func ignoredAtStart(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        #if canImport(Glibc)
            let disposition = current.__sigaction_handler.sa_handler
        #else
            let disposition = current.__sigaction_u.__sa_handler
        #endif
        return disposition.map { unsafeBitCast($0, to: Int.self) } == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private static func handle(signal number: Int32, state: InterruptState, grace: DispatchTimeInterval) {
        let (count, blocked) = state.interruptNoting(signal: number)
        if blocked { state.exitBlocked() }
        switch count {
        case 1:
            break
        case 2:
            DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
                ExitCleanup.process.exit(bySignal: state.signalStatus)
            }
        default:
            ExitCleanup.process.exit(bySignal: state.signalStatus)
        }
    }

    /// What to do on the first signal; runs at once if one already came. It runs on a queue of its own, so
    /// that a cancellation that blocked could not keep the second and third signals from being handled.
    func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        state.setAction { DispatchQueue.global().async(execute: action) }
    }

    /// Ends the process once the command has returned `status`: by the signal that cancelled it, else with the
    /// status.
    func exit(after status: Int32) -> Never {
        let final = state.exitStatus(for: status)
        if state.endsBySignal(final) { ExitCleanup.process.exit(bySignal: final) }
        ExitCleanup.process.exit(final)
    }
}

final class InterruptState: @unchecked Sendable {
    /// The process's own, which `InterruptHandler` feeds and blocking reads and opens consult.
    static let process = InterruptState(firstGrace: .seconds(10)) { status in
        sayInterrupted()
        ExitCleanup.process.exit(bySignal: status)
    }

    /// "gh-users: interrupted" on `descriptor`, if it takes it now; false if it was left unsaid. The process is
    /// ending: a stderr that is a full pipe or a stopped terminal would keep it from ending for as long as its
    /// reader pleases (helper-304: a SIGTERM never ended a run whose stderr nobody read). A pipe or terminal
    /// that polls writable takes a line this short whole.
    @discardableResult
    static func sayInterrupted(to descriptor: Int32 = STDERR_FILENO) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard poll(&poller, 1, 0) > 0, poller.revents & Int16(POLLOUT) != 0 else { return false }
        let message = Array("gh-users: interrupted\n".utf8)
        return message.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == message.count
    }

    private let lock = NSLock()
    /// How long a command has, after the first signal, to return before the process ends anyway.
    private let firstGrace: DispatchTimeInterval
    /// Ends the process with a status: `ExitCleanup`'s files removed, then `_exit`; for the deadline, after saying
    /// so. Injected for tests.
    let terminate: @Sendable (Int32) -> Void
    private var count = 0
    /// Calls under way that may block for as long as the other end of a pipe or FIFO pleases.
    private var blockingCalls = 0
    private var firstSignal: Int32?
    private var action: (@Sendable () -> Void)?

    init(firstGrace: DispatchTimeInterval, terminate: @escaping @Sendable (Int32) -> Void) {
        self.firstGrace = firstGrace
        self.terminate = terminate
    }

    /// Counts the signal and runs the action if there is one yet.
    func interrupt(signal: Int32 = SIGINT) -> Int {
        interruptNoting(signal: signal).count
    }

    /// `interrupt`, and whether a blocking call was under way when the signal came.
    func interruptNoting(signal: Int32) -> (count: Int, blocked: Bool) {
        let (count, blocked, action) = lock.withLock { () -> (Int, Bool, (@Sendable () -> Void)?) in
            self.count += 1
            if firstSignal == nil { firstSignal = signal }
            return (self.count, blockingCalls > 0, self.action)
        }
        if count == 1 {
            // A command busy with work that never waits does not see its cancellation: it gets firstGrace.
            DispatchQueue.global().asyncAfter(deadline: .now() + firstGrace) { [self] in
                terminate(signalStatus)
            }
        }
        action?()
        return (count, blocked)
    }

    /// Runs `body`, an open(2) or read(2) that may block on a FIFO, a pipe or a terminal for as long as the
    /// other end pleases, where cancelling the command could not reach it. A signal that comes meanwhile, or
    /// came before, ends the process at once with its status (`exitBlocked`); nothing has been written by
    /// then that needs closing.
    func blocking<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        let signalled = lock.withLock { () -> Bool in
            blockingCalls += 1
            return count > 0
        }
        if signalled { exitBlocked() }
        defer { lock.withLock { blockingCalls -= 1 } }
        return try body()
    }

    /// Ends the process with the first signal's status, saying so as an interrupted command does.
    func exitBlocked() -> Never {
        Self.sayInterrupted()
        ExitCleanup.process.exit(bySignal: signalStatus)
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

    /// Whether `status`, the one the process ends with, is the first signal's (128 + its number).
    func endsBySignal(_ status: Int32) -> Bool {
        lock.withLock { firstSignal }.map { 128 + $0 == status } ?? false
    }

    /// A command cancelled by a signal returns `ExitCode.interrupted` (SIGINT's 130); after SIGTERM or SIGHUP that
    /// becomes 143 or 129. Any other status (the command had already finished, or failed otherwise) stands.
    func exitStatus(for status: Int32) -> Int32 {
        guard status == ExitCode.interrupted, lock.withLock({ firstSignal }) != nil else { return status }
        return signalStatus
    }
}

/// Files a run has made and removes when it ends (a replacement's temporary file, a lock file), for a run
/// that a signal ends before it could: removed, then `_exit`.
final class ExitCleanup: @unchecked Sendable {
    static let process = ExitCleanup()

    private let lock = NSLock()
    private var paths: [Int: String] = [:]
    private var nextKey = 0

    /// Remembers `path` for removal at a forced exit; the key forgets it again.
    func add(_ path: String) -> Int {
        lock.withLock {
            nextKey += 1
            paths[nextKey] = path
            return nextKey
        }
    }

    func remove(_ key: Int) {
        _ = lock.withLock { paths.removeValue(forKey: key) }
    }

    /// Whether `path` would be removed at a forced exit.
    func owes(_ path: String) -> Bool {
        lock.withLock { paths.values.contains(path) }
    }

    /// Removes every file still remembered, and forgets them.
    func removeFiles() {
        let pending = lock.withLock { () -> [String] in
            defer { paths = [:] }
            return Array(paths.values)
        }
        for path in pending { unlink(path) }
    }

    /// The files removed, then the process ends with `status` at once.
    func exit(_ status: Int32) -> Never {
        removeFiles()
        _exit(status)
    }

    /// The files removed, then the process ends by the signal `status` stands for (128 + its number), at its
    /// default action, which ends a process; with `status` should the signal not end it.
    func exit(bySignal status: Int32) -> Never {
        removeFiles()
        let number = status - 128
        signal(number, SIG_DFL)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, number)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        raise(number)
        _exit(status)
    }
}
