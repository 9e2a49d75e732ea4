import Foundation
import GitHubStandIn
import TestSupport

/// What one run of the binary produced.
struct RunResult: Sendable {
    /// As a shell reports it: the exit status, or 128 + the number of the signal that ended the process.
    let status: Int32
    /// The signal that ended the process, nil when it exited.
    var signal: Int32?
    let stdout: String
    let stderr: String
    let seconds: Double
}

/// Runs the built `gh-users` with a clean environment (nothing of the caller's tokens leaks in), capturing
/// stdout and stderr separately through files so that large outputs cannot deadlock a pipe.
enum BinaryRunner {
    /// The binary under test: `GH_USERS_BINARY` when set (`Scripts/run-tests` points it at the release build,
    /// the binary users run, because some bugs live only in optimised code), else the debug build beside the
    /// test bundle. A `GH_USERS_BINARY` that is not an executable stops the run rather than quietly testing
    /// another binary.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["GH_USERS_BINARY"], !path.isEmpty {
            let url = URL(fileURLWithPath: path)
            guard FileManager.default.isExecutableFile(atPath: url.path) else {
                fatalError("GH_USERS_BINARY=\(path) is not an executable file")
            }
            return url
        }
        let besideBundle = Bundle.main.bundleURL.appendingPathComponent("gh-users")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
        // Fall back to the package's own debug build folder.
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(".build/debug/gh-users")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return besideBundle
    }()

    /// `interruptAfter` sends `signal` (SIGINT, as Ctrl-C would) that many seconds after the process has written
    /// its first byte to stdout or stderr (so it is surely running, however loaded the machine); `signals` of
    /// them 5 ms apart, as an impatient second Ctrl-C would. `home` replaces the throwaway home folder (and
    /// drops XDG_CACHE_HOME), so a test can look at what a run leaves there.
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        timeout: TimeInterval = 60,
        interruptAfter: TimeInterval? = nil,
        signal: Int32 = SIGINT,
        signals: Int = 1,
        home: URL? = nil
    ) async throws -> RunResult {
        try await runProcess(
            executable: binary,
            arguments: arguments,
            environment: environment,
            timeout: timeout,
            interrupt: interruptAfter.map { Interrupt(after: $0, signal: signal, count: signals) },
            home: home
        )
    }

    private struct Interrupt {
        let after: TimeInterval
        let signal: Int32
        let count: Int
    }

    /// Bash that starts `command` (which runs `"$GH_USERS"` with its redirections) in the background and waits for
    /// it, then prints `STATUS PEAK`: its exit status and its peak RSS in KB, read from /proc while it runs
    /// (VmHWM only grows, so the last reading is the peak).
    static func watchingPeakRSS(_ command: String) -> String {
        """
        \(command) & pid=$!
        peak=0
        while kill -0 $pid 2> /dev/null; do
            while read -r key value _; do
                [ "$key" = "VmHWM:" ] && peak=$value
            done < /proc/$pid/status 2> /dev/null
            sleep 0.05
        done
        wait $pid
        echo "$? $peak"
        """
    }

    /// Runs a bash snippet with `$GH_USERS` set to the binary, for pipelines such as `| head -1`.
    static func shell(_ script: String, environment: [String: String] = [:], timeout: TimeInterval = 60) async throws
        -> RunResult
    {
        var environment = environment
        environment["GH_USERS"] = binary.path
        return try await runProcess(
            executable: URL(fileURLWithPath: "/bin/bash"),
            arguments: ["-c", script],
            environment: environment,
            timeout: timeout,
            interrupt: nil,
            home: nil
        )
    }

    private static func size(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }

    private static func runProcess(
        executable: URL,
        arguments: [String],
        environment: [String: String],
        timeout: TimeInterval,
        interrupt: Interrupt?,
        home: URL?
    ) async throws -> RunResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        // Appending, as a shell's `>>` gives it: `list --state` refuses a stdout a rerun's `>` would empty.
        let outDescriptor = open(outURL.path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard outDescriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        let outHandle = FileHandle(fileDescriptor: outDescriptor, closeOnDealloc: true)
        let errHandle = try FileHandle(forWritingTo: errURL)

        var base = [
            "PATH": "/usr/bin:/bin",
            "HOME": scratch.path,
            "XDG_CACHE_HOME": scratch.appendingPathComponent("cache").path,
            "LANG": "C.UTF-8",
        ]
        if let home {
            base["HOME"] = home.path
            base["XDG_CACHE_HOME"] = nil
        }
        base.merge(environment) { $1 }

        let started = ContinuousClock.now
        // The time is taken when the process ends, not when this task resumes: a busy test thread pool must not
        // make a quick run look slow.
        let (status, signal, elapsed): (Int32, Int32?, Duration) = try await withCheckedThrowingContinuation {
            continuation in
            let process: SpawnedProcess
            do {
                // Files a shell snippet writes (`2>stderr.txt`) land in the scratch folder, never in the checkout.
                process = try SpawnedProcess(
                    executable: executable.path, arguments: arguments, environment: base, directory: scratch.path,
                    stdout: outHandle.fileDescriptor, stderr: errHandle.fileDescriptor)
            } catch {
                continuation.resume(throwing: error)
                return
            }
            process.onExit { _ in
                let ended = ContinuousClock.now - started
                continuation.resume(returning: (process.shellStatus ?? -1, process.endingSignal, ended))
            }
            if let interrupt {
                DispatchQueue.global().async {
                    while process.isRunning, BinaryRunner.size(outURL) + BinaryRunner.size(errURL) == 0 {
                        usleep(10_000)
                    }
                    DispatchQueue.global().asyncAfter(deadline: .now() + interrupt.after) {
                        for sent in 0..<interrupt.count where process.isRunning {
                            // 5 ms apart: soon enough to come while the first is still being handled, late
                            // enough not to be merged with it into one pending signal.
                            if sent > 0 { usleep(5_000) }
                            process.send(interrupt.signal)
                        }
                    }
                }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { process.send(SIGKILL) }
        }
        try outHandle.close()
        try errHandle.close()
        let stdout = try String(contentsOf: outURL, encoding: .utf8)
        let stderr = try String(contentsOf: errURL, encoding: .utf8)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return RunResult(status: status, signal: signal, stdout: stdout, stderr: stderr, seconds: seconds)
    }
}

/// Runs `body` against a stand-in of `users` accounts on 127.0.0.1 (port 0), stopped when it returns.
func withStandIn<T>(users: Int, latency: Int = 0, _ body: (StandInServer) async throws -> T) async throws -> T {
    let server = try StandInServer(configuration: StandInConfiguration(userCount: users, latencyMilliseconds: latency))
    try server.start()
    defer { server.stop() }
    return try await body(server)
}
