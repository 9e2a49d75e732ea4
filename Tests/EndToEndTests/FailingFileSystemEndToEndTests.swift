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

    /// The C compiler on PATH, clang or cc; nil where there is none.
    private static let compiler: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let compilers = path.split(separator: ":").flatMap { folder in ["clang", "cc"].map { "\(folder)/\($0)" } }
        return compilers.first(where: FileManager.default.isExecutableFile(atPath:))
    }()

    private let folder: String

    init() throws {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-fail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        // As /proc names it, links (a TMPDIR under one) followed.
        folder = made.resolvingSymlinksInPath().path
    }

    /// The shim, compiled into the test's folder (removed with it); a compiler that fails is the test's failure.
    private func shim() throws -> String {
        let (source, library) = (folder + "/fail.c", folder + "/fail.so")
        try Data(Self.source.utf8).write(to: URL(fileURLWithPath: source))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.compiler))
        process.arguments = ["-shared", "-fPIC", "-o", library, source, "-ldl"]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(Self.compiler ?? "") could not build the shim")
        return library
    }

    /// A folder the disk will not flush after `members --changes` renamed its new snapshot into it: the
    /// snapshot is replaced, and the run says what it found. Before, it said the changes were not recorded and
    /// would be reported again (exit 1), and the next run, reading the replaced snapshot, reported nothing.
    @Test(.enabled(if: compiler != nil, "no C compiler (clang or cc) on PATH to build the failing-filesystem shim"))
    func aFolderThatWillNotFlushAfterTheRenameLeavesTheChangesRecorded() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (snapshot, library) = (folder + "/members.json", try shim())
        try await withStandIn(users: 100) { server in
            func run(failing: Bool) async throws -> RunResult {
                var environment = ["GH_TOKEN": StandInTokens.token(for: "octocat")]
                if failing { (environment["LD_PRELOAD"], environment["FAIL_FSYNC"]) = (library, folder) }
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
    @Test(.enabled(if: compiler != nil, "no C compiler (clang or cc) on PATH to build the failing-filesystem shim"))
    func anOutputThatFailsAtCloseIsAFailedWrite() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (output, library) = (folder + "/users.tsv", try shim())
        try await withStandIn(users: 100) { server in
            let named = try await BinaryRunner.run(
                ["list", "--limit", "5", "--output", output, "--api-url", server.baseURL, "--no-cache"],
                environment: ["LD_PRELOAD": library, "FAIL_CLOSE": output])
            #expect(named.status == 1)
            #expect(named.stderr == "gh-users: cannot write to the output file '\(output)': input/output error\n")
            try FileManager.default.removeItem(atPath: output)
            let redirected = try await BinaryRunner.shell(
                #"LD_PRELOAD="$SHIM" FAIL_CLOSE="$OUT" "$GH_USERS" list --limit 5 --api-url "$URL" --no-cache > "$OUT""#,
                environment: ["SHIM": library, "OUT": output, "URL": server.baseURL])
            #expect(redirected.status == 1)
            #expect(redirected.stderr == "gh-users: cannot write to stdout: input/output error\n")
            #expect(try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").count == 5)
            // A write command that succeeded (helper-312: it was never closed, exit 0).
            let target = try #require(server.population.users.first { $0.login == "Yamada-Taro" }).login
            let follow = try await BinaryRunner.shell(
                #"LD_PRELOAD="$SHIM" FAIL_CLOSE="$OUT" "$GH_USERS" follow --yes --format tsv --api-url "$URL" "#
                    + target + #" > "$OUT""#,
                environment: ["SHIM": library, "OUT": output, "URL": server.baseURL, "GH_TOKEN": Self.token])
            #expect(follow.status == 1)
            #expect(
                follow.stderr.hasSuffix("gh-users: cannot write to stdout: input/output error\n"), "\(follow.stderr)")
        }
    }

    private static let token = StandInTokens.token(for: "octocat")

    /// stdout to a file that cannot be put on disk (fsync fails, as NFS may with a full disk) is not counted as
    /// written: `members --changes` leaves its snapshot as it was, so the next run reports the change again,
    /// and `list --state` leaves its state before the page. Before (helper-312), both counted the output first
    /// and learnt of the failure only at close.
    @Test(.enabled(if: compiler != nil, "no C compiler (clang or cc) on PATH to build the failing-filesystem shim"))
    func aStdoutFileThatCannotBeFlushedIsNotCountedAsWritten() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (library, snapshot, log) = (try shim(), folder + "/members.json", folder + "/changes.tsv")
        try await withStandIn(users: 100) { server in
            let environment = [
                "SHIM": library, "LOG": log, "SNAP": snapshot, "URL": server.baseURL, "GH_TOKEN": Self.token,
            ]
            func changes(failing: Bool) async throws -> RunResult {
                try await BinaryRunner.shell(
                    (failing ? #"LD_PRELOAD="$SHIM" FAIL_FSYNC="$LOG" "# : "")
                        + #""$GH_USERS" members acme --changes "$SNAP" --format tsv --api-url "$URL" --no-cache "#
                        + #">> "$LOG""#, environment: environment)
            }
            #expect(try await changes(failing: false).status == 0)
            let recorded = try Data(contentsOf: URL(fileURLWithPath: snapshot))
            let newcomer = try #require(server.population.user(login: "jollyotter6"))
            #expect(server.world.edit { $0.setMember(newcomer.login, role: "member", of: "acme") })
            let failed = try await changes(failing: true)
            #expect(failed.status == 1)
            #expect(failed.stderr.hasPrefix("gh-users: cannot flush stdout to disk: input/output error\n"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) == recorded)
            #expect(try await changes(failing: false).status == 0)
            let added = "added\tjollyotter6\t\(newcomer.id)\t\tmember\t\n"
            #expect(try String(contentsOfFile: log, encoding: .utf8) == added + added, "reported again")

            let (state, users) = (folder + "/s.json", folder + "/users.tsv")
            let crawl = try await BinaryRunner.shell(
                #"LD_PRELOAD="$SHIM" FAIL_FSYNC="$OUT" "$GH_USERS" list --limit 5 --state "$STATE" --api-url "$URL" "#
                    + #"--no-cache >> "$OUT""#, environment: environment.merging(["OUT": users, "STATE": state]) { $1 })
            #expect(crawl.status == 1)
            #expect(crawl.stderr.hasPrefix("gh-users: cannot flush stdout to disk: input/output error\n"))
            #expect(try String(contentsOfFile: state, encoding: .utf8).contains(#""since":0,"#))
        }
    }
}
