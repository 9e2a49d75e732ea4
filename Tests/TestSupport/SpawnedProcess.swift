import Foundation
import TestProcessSetup

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn`, for the tests that run binaries. Not Foundation's `Process`: on
/// Linux its `run()` reads 256 bytes of every `/proc/self/fd` entry that `readdir` returns (swift-corelibs-
/// foundation pull request 5472, Swift 6.3.1), past the end of glibc's buffer when an entry sits at its tail,
/// and crashed this test process with "Bad pointer dereference" in about one full run in five.
///
/// The child gets standard input from /dev/null, its stdout and stderr on the given descriptors, the given
/// folder, no other descriptor of ours, default signal dispositions and an empty signal mask, as a shell
/// would start it.
package final class SpawnedProcess: @unchecked Sendable {
    package let pid: pid_t
    private let lock = NSLock()
    private var status: Int32?
    private var endedBySignal = false

    package struct SpawnError: Error, CustomStringConvertible {
        package let code: Int32
        package var description: String { "posix_spawn failed: " + String(cString: strerror(code)) }
    }

    package init(
        executable: String, arguments: [String], environment: [String: String], directory: String,
        stdout: Int32, stderr: Int32
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        gh_users_spawn_add_chdir(&actions, directory)
        gh_users_spawn_add_close_from(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        var noSignal = sigset_t()
        sigemptyset(&noSignal)
        posix_spawnattr_setsigmask(&attributes, &noSignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let code = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard code == 0 else { throw SpawnError(code: code) }
        pid = child
    }

    /// Whether the child has not been reaped yet (after that its pid may name another process).
    package var isRunning: Bool { lock.withLock { status == nil } }

    /// Calls `handler` once, on a thread of its own, with the exit status, or the signal that ended the child
    /// (as `Process.terminationStatus` gives them).
    package func onExit(_ handler: @escaping @Sendable (Int32) -> Void) {
        let pid = self.pid
        Thread.detachNewThread { [self] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            let signal = raw & 0x7F
            let result = signal == 0 ? (raw >> 8) & 0xFF : signal
            lock.withLock { (status, endedBySignal) = (result, signal != 0) }
            handler(result)
        }
    }

    /// Once reaped (after `onExit`'s handler was given it), the status as a shell reports it: the exit status,
    /// or 128 + the signal that ended the child.
    package var shellStatus: Int32? {
        lock.withLock { status.map { endedBySignal ? 128 + $0 : $0 } }
    }

    /// Once reaped, the signal that ended the child; nil when it exited.
    package var endingSignal: Int32? {
        lock.withLock { endedBySignal ? status : nil }
    }

    /// Sends `signal` while the child is still ours.
    package func send(_ signal: Int32) {
        lock.withLock {
            if status == nil { _ = kill(pid, signal) }
        }
    }
}

extension SpawnedProcess {
    /// Runs `executable` (a path) to its end, with this process's environment unless one is given, and gives its
    /// exit status and what it wrote on stdout; stderr is dropped. Waits on this thread: for a test's look at a
    /// tool (is it there, what version) before its work.
    package static func run(
        _ executable: String, _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-spawned-\(UUID())")
        let out = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw SpawnError(code: errno) }
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer {
            close(out)
            if null >= 0 { close(null) }
            unlink(file.path)
        }
        let child = try SpawnedProcess(
            executable: executable, arguments: arguments, environment: environment,
            directory: FileManager.default.currentDirectoryPath, stdout: out, stderr: null < 0 ? out : null)
        var raw: Int32 = 0
        while waitpid(child.pid, &raw, 0) == -1 && errno == EINTR {}
        let signal = raw & 0x7F
        let output = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return (signal == 0 ? (raw >> 8) & 0xFF : signal, output)
    }

    /// `run` awaited without holding one of the test process's few threads; its exit status.
    package static func status(_ executable: String, _ arguments: [String]) async throws -> Int32 {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { throw SpawnError(code: errno) }
        defer { close(null) }
        let child = try SpawnedProcess(
            executable: executable, arguments: arguments, environment: ProcessInfo.processInfo.environment,
            directory: FileManager.default.currentDirectoryPath, stdout: null, stderr: null)
        return await withCheckedContinuation { continuation in
            child.onExit { continuation.resume(returning: $0) }
        }
    }
}
