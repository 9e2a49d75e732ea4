import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `Scripts/try`, the README's first command, run with the binaries the tests built.
struct TryScriptEndToEndTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static let script = root.appendingPathComponent("Scripts/try").path

    /// The environment that runs `Scripts/try` with the binary under test (the release build in CI) and the
    /// stand-in built beside the test bundle, on a port and with a cache of the test's own.
    private static func environment(cache: URL) throws -> [String: String] {
        let bin = cache.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("gh-users"), withDestinationURL: BinaryRunner.binary)
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("github-standin"),
            withDestinationURL: Bundle.main.bundleURL.appendingPathComponent("github-standin"))
        return [
            "TRY_BIN": bin.path,
            "TRY_CACHE": cache.path,
            // Free now, and below the ephemeral range, where another test's client connection could take it.
            "TRY_PORT": String(try LoopbackListener.freePort()),
        ]
    }

    /// The demo, then the README's offline command, which answers the demo's first request from the cache; the
    /// demo token lets `me` and a `--full` of more than the 60 anonymous requests run, and the user's own token
    /// is never sent.
    @Test func theDemoAndTheReadmesOfflineCommandAgreeAndATokenIsGiven() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("try-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        var environment = try Self.environment(cache: cache)
        environment["GH_TOKEN"] = "ghp_mine_never_sent"
        let demo = try await BinaryRunner.shell(#"bash "\#(Self.script)""#, environment: environment)
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stderr.contains("+ Scripts/try me --format table"))
        #expect(demo.stdout.contains("Scopes     repo, user"), "\(demo.stdout)")
        // stargazers, listed to the repository's owner and collaborators and refused to anyone else, in one line
        // (exit 4).
        #expect(demo.stderr.contains("+ Scripts/try stargazers octocat/Hello-World --limit 5 --format table"))
        #expect(demo.stdout.contains("LOGIN") && demo.stdout.contains("STARRED"), "\(demo.stdout)")
        let refusal = demo.stderr.split(separator: "\n").drop { !$0.hasPrefix("+ TRY_TOKEN=gho_kitsune-fox") }
        #expect(refusal.dropFirst().first?.contains("only to its admins and collaborators") == true, "\(demo.stderr)")
        #expect(refusal.dropFirst(2).first?.hasPrefix("(exit status 4:") == true, "\(demo.stderr)")
        // --changes across changes to the world (Scripts/try --world): who joined, whose role changed, who left;
        // who starred and who took a star back.
        #expect(demo.stderr.contains("+ Scripts/try --world join github eager-falcon-20"), "\(demo.stderr)")
        for change in ["+ eager-falcon-20", "! Yamada-Taro", "− kitsune-fox", "+ Tidy-Falcon-33"] {
            #expect(demo.stdout.contains(change), "\(change): \(demo.stdout)")
        }
        // The access map, and what a team's grant and a new collaborator changed in it.
        #expect(demo.stderr.contains("+ Scripts/try access github --format table"), "\(demo.stderr)")
        #expect(demo.stderr.contains("+ Scripts/try --world grant github/justice-league github/docs maintain"))
        let access = demo.stdout.split(separator: "\n").filter { $0.hasPrefix("added ") || $0.hasPrefix("changed ") }
        #expect(access.contains { $0.contains("github/docs") && $0.contains("RapidFalcon31") }, "\(demo.stdout)")
        #expect(access.contains { $0.contains("github/docs") && $0.contains("Happy-Otter-5") }, "\(demo.stdout)")

        let offline = try await BinaryRunner.shell(
            #"bash "\#(Self.script)" list --limit 5 --offline"#, environment: environment)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout.split(separator: "\n").count == 5)

        let full = try await BinaryRunner.shell(
            #"bash "\#(Self.script)" list --limit 70 --full --format ndjson --no-cache"#, environment: environment)
        #expect(full.status == 0, "\(full.stderr)")
        #expect(full.stdout.split(separator: "\n").count == 70)
        let me = try await BinaryRunner.shell(#"bash "\#(Self.script)" me --json"#, environment: environment)
        #expect(me.status == 0, "\(me.stderr)")
        #expect(me.stdout.contains(#""login": "octocat""#), "the demo token signs in as octocat, not as ghp_mine")
    }

    @Test func aSecondRunCanAnswerOfflineFromTheScriptsOwnCache() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("try-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = try Self.environment(cache: cache)
        let script = Self.script
        let online = try await BinaryRunner.shell(
            #"bash "\#(script)" list --limit 3 && find "$HOME" -mindepth 1 -not -name stdout -not -name stderr"#,
            environment: environment)
        #expect(online.status == 0, "\(online.stderr)")
        let lines = online.stdout.split(separator: "\n")
        #expect(lines.prefix(3).map { $0.split(separator: "\t")[0] } == ["1", "2", "3"])
        // Nothing of the run lands in the home folder: the cache is the script's own.
        #expect(lines.count == 3, "\(online.stdout)")
        #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent("gh-users").path))
        #expect(!online.stderr.contains(FileManager.default.homeDirectoryForCurrentUser.path + "/.cache"))

        let offline = try await BinaryRunner.shell(
            #"bash "\#(script)" list --limit 3 --offline"#, environment: environment)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout == lines.prefix(3).joined(separator: "\n") + "\n")
    }

    /// A folder for one test: the script's cache, and a folder to call it from.
    private struct Sandbox {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("try-\(UUID().uuidString)")
        var cache: URL { root.appendingPathComponent("cache") }
        var here: URL { root.appendingPathComponent("here") }
        /// The script's temporary files go here, so that one left behind is seen.
        var temporary: URL { root.appendingPathComponent("tmp") }

        init() throws {
            for folder in [here, temporary] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
        }

        func environment() throws -> [String: String] {
            var environment = try TryScriptEndToEndTests.environment(cache: cache)
            environment["TMPDIR"] = temporary.path
            return environment
        }

        /// `Scripts/try` with `arguments` (shell words), called from `here`.
        func run(_ arguments: String, _ environment: [String: String]) async throws -> RunResult {
            try await BinaryRunner.shell(
                #"cd "\#(here.path)" && bash "\#(TryScriptEndToEndTests.script)" \#(arguments)"#,
                environment: environment)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        /// Ends the stand-in `--serve` left serving, if one is still recorded (a test that threw before its
        /// `--stop`): SIGKILL, which it cannot ignore, to the process id the script wrote, so none outlives
        /// the test. Nothing is waited for.
        func killServed(_ environment: [String: String]) {
            guard let port = environment["TRY_PORT"] else { return }
            let record = cache.appendingPathComponent("try-standin-\(port).pid")
            guard let text = try? String(contentsOf: record, encoding: .utf8),
                let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0
            else { return }
            kill(pid, SIGKILL)
        }
    }

    /// gh-users runs where the script was called: `--state` and `--output` given as relative paths are there, not
    /// in the repository.
    @Test func relativePathsAreWhereTheScriptWasCalledFrom() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let name = "try-\(UUID().uuidString)"
        defer {
            for leftover in [name + ".state", name + ".tsv"] {
                try? FileManager.default.removeItem(at: Self.root.appendingPathComponent(leftover))
            }
        }
        let result = try await sandbox.run(
            "list --limit 3 --state \(name).state --output \(name).tsv", try sandbox.environment())
        #expect(result.status == 0, "\(result.stderr)")
        let output = try String(contentsOf: sandbox.here.appendingPathComponent(name + ".tsv"), encoding: .utf8)
        #expect(output.split(separator: "\n").count == 3)
        #expect(FileManager.default.fileExists(atPath: sandbox.here.appendingPathComponent(name + ".state").path))
        #expect(!FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(name + ".tsv").path))
    }

    /// Each call's stand-in goes with the call, and says that a write goes with it; `--serve` keeps one serving,
    /// so a follow is still there for `follows`, until `--stop`.
    @Test func aStandInThatServesRemembersAWriteUntilItIsStopped() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let environment = try sandbox.environment()
        let listed = try await sandbox.run("list --limit 2 --format tsv --fields login", environment)
        let login = try #require(listed.stdout.split(separator: "\n").last.map(String.init))
        let once = try await sandbox.run("follow \(login)", environment)
        #expect(once.status == 0, "\(once.stderr)")
        #expect(
            once.stderr.contains(
                "Scripts/try: this stand-in stops now, and what the command changed goes with it; 'Scripts/try "
                    + "--serve' keeps one serving between calls"))
        #expect(try await sandbox.run("follows octocat \(login)", environment).status == 1)

        // Whatever throws from here on, the stand-in `--serve` starts does not outlive the test (declared after
        // the sandbox's removal, so it runs before it, while the process id is still on disk).
        defer { sandbox.killServed(environment) }
        let serve = try await sandbox.run("--serve", environment)
        #expect(serve.status == 0, "\(serve.stderr)")
        let followed = try await sandbox.run("follow \(login)", environment)
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(!followed.stderr.contains("stops now"))
        let follows = try await sandbox.run("follows octocat \(login)", environment)
        #expect(follows.status == 0, "\(follows.stderr)")
        #expect(follows.stdout == "octocat\t\(login)\ttrue\n")
        // A collaborator already there is given the permission at once (204, no invitation to accept): exit 0,
        // where the script stopped with exit 1 and not a word.
        for permission in ["read", "write"] {
            let world = "--world collaborator octocat/Hello-World RapidFalcon31 \(permission)"
            let changed = try await sandbox.run(world, environment)
            #expect(changed.status == 0 && changed.stderr.contains("the stand-in took it"), "\(changed.stderr)")
        }
        let stop = try await sandbox.run("--stop", environment)
        #expect(stop.status == 0)
        #expect(stop.stderr.hasPrefix("Scripts/try: stopped the stand-in on 127.0.0.1:"))
        // Stopped: the next call starts a stand-in of its own, which knows nothing of the follow.
        #expect(try await sandbox.run("follows octocat \(login)", environment).status == 1)
        // Its process id and log go with it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.cache.path).filter { $0.hasPrefix("try-") }
                .isEmpty)
    }

    /// The demo against a served stand-in, whose world the user changed first, leaves that world as it was: the
    /// members, the stargazers with their dates, the access map and the collaborators. Before, it undid its
    /// changes by setting the world's first state back (a star taken back and given again, dated that day; a
    /// member the user had added taken out).
    @Test func theDemoLeavesAServedWorldAsItWas() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let environment = try sandbox.environment()
        defer { sandbox.killServed(environment) }
        #expect(try await sandbox.run("--serve", environment).status == 0)
        for change in ["join github eager-falcon-20", "star octocat/Hello-World Tidy-Falcon-33"] {
            #expect(try await sandbox.run("--world " + change, environment).status == 0)
        }
        let views = [
            "members github", "stargazers octocat/Hello-World --all", "access github",
            "collaborators github/docs --all",
        ].map { $0 + " --format tsv --no-cache" }
        func world() async throws -> [String] {
            var seen: [String] = []
            for view in views { seen.append(try await sandbox.run(view, environment).stdout) }
            return seen
        }
        let before = try await world()
        #expect(before.allSatisfy { !$0.isEmpty })
        let demo = try await sandbox.run("", environment)
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(try await world() == before)
        #expect(try await sandbox.run("--stop", environment).status == 0)
    }

    /// `github-standin --rate-limit N` gives each token N GraphQL points as well as N requests, so GraphQL's spent
    /// bucket can be rehearsed by hand: `access github` needs more than 2 points and is exit 5 (before: 5,000).
    @Test func theStandInsRateLimitCapsGraphQLPointsToo() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let environment = try sandbox.environment()
        let run = try await BinaryRunner.shell(
            #"""
            cd "\#(sandbox.here.path)"
            "$TRY_BIN/github-standin" --port 0 --rate-limit 2 > log 2>&1 &
            for _ in $(seq 400); do grep -qs listening log && break; sleep 0.05; done
            export GH_USERS_API_URL=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' log) GH_TOKEN=gho_octocat
            "$TRY_BIN/gh-users" access github --json > /dev/null
            echo "status $?"
            kill %1
            """#, environment: environment)
        #expect(run.stdout == "status 5\n", "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.hasPrefix("gh-users: GraphQL: API rate limit already exceeded"), "\(run.stderr)")
    }

    /// An interrupt in the demo's refused step ends the demo with its status, as in any other step: that step
    /// kept its status to say it, and the demo went on to change the world (exit 0). gh-users is a stand-in here
    /// that ends as an interrupted gh-users does, in that step alone.
    @Test func anInterruptInTheRefusedStepEndsTheDemo() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        var environment = try sandbox.environment()
        let bin = sandbox.root.appendingPathComponent("interrupting")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let wrapper = bin.appendingPathComponent("gh-users")
        let script =
            "#!/bin/bash\n[ \"$GH_TOKEN\" = gho_kitsune-fox ] && exit 130\nexec \"\(BinaryRunner.binary.path)\" \"$@\"\n"
        try Data(script.utf8).write(to: wrapper)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        let standIn = URL(fileURLWithPath: environment["TRY_BIN"] ?? "").appendingPathComponent("github-standin")
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("github-standin"), withDestinationURL: standIn.resolvingSymlinksInPath())
        environment["TRY_BIN"] = bin.path
        let demo = try await sandbox.run("", environment)
        #expect(demo.status == 130, "\(demo.stderr)")
        #expect(demo.stderr.contains("+ TRY_TOKEN=gho_kitsune-fox"), "\(demo.stderr)")
        #expect(!demo.stderr.contains("+ Scripts/try --world"), "\(demo.stderr)")
    }

    /// Ctrl-C reaches the whole foreground process group, as a terminal sends it: the script exits 130 as
    /// gh-users does, says where to go on from, stops its stand-in and leaves no temporary file.
    @Test func ctrlCExitsAsGhUsersDoesAndLeavesNothingBehind() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let environment = try sandbox.environment()
        // Job control gives the script a process group of its own, which the signal is sent to.
        let interrupted = try await BinaryRunner.shell(
            #"""
            set -m
            cd "\#(sandbox.here.path)"
            bash "\#(Self.script)" list --all --per-page 1 --no-cache --format tsv > out 2> err &
            job=$!
            # Every wait is a bounded number of polls, so none can hang the test; none is timed.
            for _ in $(seq 1200); do [ -s out ] && break; kill -0 $job 2>/dev/null || break; sleep 0.05; done
            kill -INT -- -$job 2>/dev/null
            for _ in $(seq 1200); do kill -0 $job 2>/dev/null || break; sleep 0.05; done
            if kill -0 $job 2>/dev/null; then
                echo "still running after the interrupt"
                kill -KILL -- -$job
            fi
            wait $job
            echo "status $?"
            cat err
            """#, environment: environment)
        #expect(interrupted.stdout.hasPrefix("status 130\n"), "\(interrupted.stdout)")
        #expect(interrupted.stdout.contains("gh-users: interrupted\n"), "\(interrupted.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.temporary.path).isEmpty)
        // The stand-in was stopped and waited for: its port is free for the next call at once.
        let next = try await sandbox.run("list --limit 1 --no-cache", environment)
        #expect(next.status == 0, "\(next.stderr)")
    }
}
