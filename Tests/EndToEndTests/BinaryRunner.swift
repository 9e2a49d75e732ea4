import Foundation

/// What one run of the binary produced.
struct RunResult: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String
    let seconds: Double
}

/// Runs the built `gh-users` with a clean environment (nothing of the caller's tokens leaks in), capturing
/// stdout and stderr separately through files so that large outputs cannot deadlock a pipe.
enum BinaryRunner {
    static let binary: URL = {
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

    /// `interruptAfter` sends SIGINT that many seconds after the process has written its first byte to stdout
    /// or stderr (so it is surely running, however loaded the machine), as Ctrl-C would. `home` replaces the
    /// throwaway home folder (and drops XDG_CACHE_HOME), so a test can look at what a run leaves there.
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        timeout: TimeInterval = 60,
        interruptAfter: TimeInterval? = nil,
        home: URL? = nil
    ) async throws -> RunResult {
        try await runProcess(
            executable: binary,
            arguments: arguments,
            environment: environment,
            timeout: timeout,
            interruptAfter: interruptAfter,
            home: home
        )
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
            interruptAfter: nil,
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
        interruptAfter: TimeInterval?,
        home: URL?
    ) async throws -> RunResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // Files a shell snippet writes (`2>stderr.txt`) land in the scratch folder, never in the checkout.
        process.currentDirectoryURL = scratch
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
        process.environment = base
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle

        let started = ContinuousClock.now
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in
                continuation.resume(returning: finished.terminationStatus)
            }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
                return
            }
            let pid = process.processIdentifier
            if let interruptAfter {
                DispatchQueue.global().async {
                    while process.isRunning, BinaryRunner.size(outURL) + BinaryRunner.size(errURL) == 0 {
                        usleep(10_000)
                    }
                    DispatchQueue.global().asyncAfter(deadline: .now() + interruptAfter) {
                        if process.isRunning { kill(pid, SIGINT) }
                    }
                }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if process.isRunning { kill(pid, SIGKILL) }
            }
        }
        try outHandle.close()
        try errHandle.close()
        let stdout = try String(contentsOf: outURL, encoding: .utf8)
        let stderr = try String(contentsOf: errURL, encoding: .utf8)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return RunResult(status: status, stdout: stdout, stderr: stderr, seconds: seconds)
    }
}
