import Foundation
import GitHubStandIn
import TestSupport
import Testing

/// What a filesystem that fails late does to the built binary: NFS, CIFS or a FUSE filesystem may report a full
/// disk or a quota only at close(2), and a failing disk may refuse to flush a folder after a rename. A tmpfs
/// cannot fail so, so a small library loaded with LD_PRELOAD (compiled here with the toolchain's C compiler)
/// fails `close` or `fsync` on the one path a test names, as helper-310's shim did.
struct FailingFileSystemEndToEndTests {
    /// The shim: `close` of a descriptor whose path is `FAIL_CLOSE` closes it and fails with EIO; `fsync` of one
    /// whose path is `FAIL_FSYNC` fails with EIO.
    private static let source = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>

        static int named(int descriptor, const char *variable) {
            const char *wanted = getenv(variable);
            char link[64], path[4096];
            if (wanted == NULL || *wanted == 0) return 0;
            snprintf(link, sizeof link, "/proc/self/fd/%d", descriptor);
            ssize_t length = readlink(link, path, sizeof path - 1);
            if (length < 0) return 0;
            path[length] = 0;
            return strcmp(path, wanted) == 0;
        }

        int close(int descriptor) {
            int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "close");
            int failing = named(descriptor, "FAIL_CLOSE");
            int result = real(descriptor);
            if (failing) { errno = EIO; return -1; }
            return result;
        }

        int fsync(int descriptor) {
            int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
            if (named(descriptor, "FAIL_FSYNC")) { errno = EIO; return -1; }
            return real(descriptor);
        }
        """#

    /// The compiled shim, or nil where no C compiler is on PATH.
    private static let shim: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let compilers = path.split(separator: ":").flatMap { folder in ["clang", "cc"].map { "\(folder)/\($0)" } }
        guard let compiler = compilers.first(where: FileManager.default.isExecutableFile(atPath:)) else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-shim-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (source, library) = (folder.appendingPathComponent("fail.c"), folder.appendingPathComponent("fail.so"))
        guard (try? Data(Self.source.utf8).write(to: source)) != nil else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        process.arguments = ["-shared", "-fPIC", "-o", library.path, source.path, "-ldl"]
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? library.path : nil
    }()

    private let folder: String

    init() throws {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-fail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        // As /proc names it, links (a TMPDIR under one) followed.
        folder = made.resolvingSymlinksInPath().path
    }

    /// A folder the disk will not flush after `members --changes` renamed its new snapshot into it: the
    /// snapshot is replaced, and the run says what it found. Before, it said the changes were not recorded and
    /// would be reported again (exit 1), and the next run, reading the replaced snapshot, reported nothing.
    @Test(.enabled(if: shim != nil, "no C compiler (clang or cc) on PATH to build the failing-filesystem shim"))
    func aFolderThatWillNotFlushAfterTheRenameLeavesTheChangesRecorded() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let snapshot = folder + "/members.json"
        try await withStandIn(users: 100) { server in
            func run(failing: Bool) async throws -> RunResult {
                var environment = ["GH_TOKEN": StandInTokens.token(for: "octocat")]
                if failing { (environment["LD_PRELOAD"], environment["FAIL_FSYNC"]) = (Self.shim, folder) }
                return try await BinaryRunner.run(
                    ["members", "acme", "--changes", snapshot, "--format", "tsv", "--api-url", server.baseURL]
                        + ["--no-cache"], environment: environment)
            }
            let first = try await run(failing: true)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stderr.contains("gh-users: recorded the "))
            let newcomer = try #require(server.population.user(login: "jollyotter6"))
            #expect(server.world.edit { $0.setMember(newcomer.login, role: "member", of: "acme") })
            let second = try await run(failing: true)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout == "added\tjollyotter6\t\(newcomer.id)\t\tmember\t\n")
            #expect(!second.stderr.contains("not recorded"), "\(second.stderr)")
            let third = try await run(failing: false)
            #expect(third.status == 0, "\(third.stderr)")
            #expect(third.stdout.isEmpty, "the change was recorded, and is not reported twice")
        }
    }

    /// `list --output FILE` and `list > FILE` whose file fails at close: exit 1, saying so, where it was 0.
    @Test(.enabled(if: shim != nil, "no C compiler (clang or cc) on PATH to build the failing-filesystem shim"))
    func anOutputThatFailsAtCloseIsAFailedWrite() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/users.tsv"
        try await withStandIn(users: 100) { server in
            let shim = try #require(Self.shim)
            let named = try await BinaryRunner.run(
                ["list", "--limit", "5", "--output", output, "--api-url", server.baseURL, "--no-cache"],
                environment: ["LD_PRELOAD": shim, "FAIL_CLOSE": output])
            #expect(named.status == 1)
            #expect(named.stderr == "gh-users: cannot write to the output file '\(output)': input/output error\n")
            try FileManager.default.removeItem(atPath: output)
            let redirected = try await BinaryRunner.shell(
                #"LD_PRELOAD="$SHIM" FAIL_CLOSE="$OUT" "$GH_USERS" list --limit 5 --api-url "$URL" --no-cache > "$OUT""#,
                environment: ["SHIM": shim, "OUT": output, "URL": server.baseURL])
            #expect(redirected.status == 1)
            #expect(redirected.stderr == "gh-users: cannot write to stdout: input/output error\n")
            #expect(try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").count == 5)
        }
    }
}
