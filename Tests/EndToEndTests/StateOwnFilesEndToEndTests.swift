import Foundation
import GitHubStandIn
import Testing

/// Output sent to a state's or a snapshot's own files: the file itself (by its name, a symbolic link or a hard
/// link), its `.lock` or its `.tmp`. gh-users replaces, removes or renames those, so what it wrote there would be
/// lost: every such run is a usage error (exit 64) before anything is locked, asked or written.
struct StateOwnFilesEndToEndTests {
    static let token = "ghp_stateownfiles"
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-own-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func read(_ name: String) -> String? {
        try? String(contentsOfFile: path(name), encoding: .utf8)
    }

    private func withServer<T>(users: Int, _ body: (StandInServer) async throws -> T) async throws -> T {
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await withStandIn(users: users, body)
    }

    private func run(_ arguments: [String], _ server: StandInServer) async throws -> RunResult {
        try await BinaryRunner.run(
            arguments + ["--api-url", server.baseURL, "--no-cache"], environment: ["GH_TOKEN": Self.token])
    }

    /// A bash snippet run in the test's folder, with `$GH_USERS`, `$API` and the token set.
    private func shell(_ script: String, _ server: StandInServer) async throws -> RunResult {
        try await BinaryRunner.shell(
            "cd \"$FOLDER\" && " + script,
            environment: ["FOLDER": folder.path, "API": server.baseURL, "GH_TOKEN": Self.token])
    }

    /// `setup`, then `gh-users COMMAND` against the stand-in with `redirect`, then its exit status: `status=N`.
    private func gh(
        _ command: String, after setup: String = "", redirect: String = "", _ server: StandInServer
    ) async throws -> RunResult {
        try await shell(
            setup + "\"$GH_USERS\" \(command) --api-url \"$API\" --no-cache \(redirect); echo \"status=$?\"", server)
    }

    /// How `--output` names one of the state's files.
    enum Naming: String, CaseIterable, Sendable {
        case same, symbolicLink, hardLink, lock, temporary, relativeSame
    }

    /// Before, `--output same.json` with `--state same.json` was exit 0 and left only the state: the records were
    /// renamed away. A state that is there (from an earlier crawl of another output) and one that is not are both
    /// refused; the files are as they were and the stand-in heard nothing.
    // A hard link needs the state to exist: no case without it, which would assert nothing (helper-293).
    @Test(
        arguments: Naming.allCases.flatMap { naming in
            [false, true].filter { naming != .hardLink || $0 }.map { (naming, $0) }
        })
    func outputNamingTheStatesOwnFilesIsAUsageError(naming: Naming, stateExists: Bool) async throws {
        try await withServer(users: 50) { server in
            if stateExists {
                let first = try await run(
                    ["list", "--limit", "5", "--state", path("same.json"), "--output", path("first.tsv")], server)
                #expect(first.status == 0, "\(first.stderr)")
            }
            let output: String
            switch naming {
            case .same: output = path("same.json")
            case .relativeSame: output = folder.path + "/./sub/../same.json"
            case .lock: output = path("same.json.lock")
            case .temporary: output = path("same.json.tmp")
            case .symbolicLink:
                try FileManager.default.createSymbolicLink(atPath: path("link.tsv"), withDestinationPath: "same.json")
                output = path("link.tsv")
            case .hardLink:
                try FileManager.default.linkItem(atPath: path("same.json"), toPath: path("hard.tsv"))
                output = path("hard.tsv")
            }
            if naming == .relativeSame {
                try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true)
            }
            let state = read("same.json")
            let requests = server.requests.count
            let result = try await run(
                ["list", "--limit", "5", "--state", path("same.json"), "--output", output], server)
            #expect(result.status == 64, "\(result.stderr)")
            #expect(
                result.stderr.contains("of the state file '\(path("same.json"))'")
                    || result.stderr.contains(
                        "is the state file '\(path("same.json"))' itself"),
                "\(result.stderr)")
            #expect(result.stderr.contains("write the output to another file"), "\(result.stderr)")
            #expect(read("same.json") == state)
            #expect(read("same.json.lock") == nil)
            #expect(read("same.json.tmp") == nil)
            #expect(server.requests.count == requests)
        }
    }

    /// stdout appended to the state or the snapshot (`>> FILE`) is the same hole, for `list --state`, `access
    /// --state` and `--changes`: exit 64, the file as it was, nothing asked.
    @Test(arguments: [
        "list --limit 5 --state own.json",
        "access my-org --state own.json",
        "access my-org --changes own.json",
        "followers octocat --changes own.json",
        "stargazers octocat/Hello-World --changes own.json",
    ])
    func stdoutAppendedToTheStateIsAUsageError(command: String) async throws {
        try await withServer(users: 50) { server in
            let result = try await gh(command, after: "echo before > own.json; ", redirect: ">> own.json", server)
            #expect(result.stdout == "status=64\n", "\(result.stderr)")
            #expect(result.stderr.contains("stdout is the "), "\(result.stderr)")
            #expect(read("own.json") == "before\n")
            #expect(read("own.json.lock") == nil)
            #expect(server.requests.isEmpty)
        }
    }

    /// The hole as it was found: a crawl's state, then a run appending its stdout to it was exit 0 and left only the
    /// state, the records renamed away.
    @Test func aCrawlAppendingItsStdoutToItsOwnStateIsAUsageError() async throws {
        try await withServer(users: 50) { server in
            let first = try await gh("list --limit 5 --state own.json", redirect: "> /dev/null", server)
            #expect(first.stdout == "status=0\n", "\(first.stderr)")
            let state = read("own.json")
            let result = try await gh("list --limit 5 --state own.json", redirect: ">> own.json", server)
            #expect(result.stdout == "status=64\n", "\(result.stderr)")
            #expect(result.stderr.contains("stdout is the state file 'own.json' itself"), "\(result.stderr)")
            #expect(read("own.json") == state)
            #expect(server.requests.count == 1)
        }
    }

    /// Another file than the state's is written as ever: the check names only the state's own files.
    @Test func anotherOutputBesideTheStateIsWritten() async throws {
        try await withServer(users: 50) { server in
            let result = try await run(
                ["list", "--limit", "5", "--state", path("same.json"), "--output", path("same.json.tsv")], server)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(read("same.json.tsv")?.split(separator: "\n").count == 5)
        }
    }

    /// A `FILE.lock` with data in it is not one gh-users made (its own are always empty): before, the run took it
    /// as its lock and removed it at the end. Now it is exit 1, naming it, with the file as it was and nothing
    /// asked. An empty one, as a killed run leaves, is still taken and removed.
    @Test(arguments: [
        "list --limit 5 --state keep --output x.tsv",
        "followers octocat --changes keep",
        "access my-org --state keep",
    ])
    func aLockFileWithDataIsNeverTakenOrRemoved(command: String) async throws {
        try await withServer(users: 50) { server in
            let result = try await gh(command, after: "echo data > keep.lock; ", server)
            #expect(result.stdout.hasSuffix("status=1\n"), "\(result.stderr)")
            #expect(
                result.stderr.contains("its lock file '\(path("keep.lock"))' holds 5 bytes"), "\(result.stderr)")
            #expect(read("keep.lock") == "data\n")
            #expect(read("keep") == nil)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func anEmptyLockFileLeftByAKilledRunIsTakenAndRemoved() async throws {
        try await withServer(users: 50) { server in
            #expect(FileManager.default.createFile(atPath: path("keep.lock"), contents: nil))
            let result = try await run(
                ["list", "--limit", "5", "--state", path("keep"), "--output", path("x.tsv")], server)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(read("keep.lock") == nil)
            #expect(read("x.tsv")?.split(separator: "\n").count == 5)
        }
    }

    /// A snapshot another user made first in a shared sticky folder (as /tmp is) is refused and left as it is:
    /// before, a forged one made every `--changes` run report people who never joined or left (a review's attack,
    /// with Linux's `protected_regular` off, as it is on many machines).
    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func aSnapshotAnotherUserMadeInASharedFolderIsRefused() async throws {
        try await withServer(users: 50) { server in
            #expect(chmod(folder.path, 0o1777) == 0)
            let first = try await run(["members", "github", "--changes", path("n.json")], server)
            #expect(first.status == 0, "\(first.stderr)")
            let recorded = try #require(read("n.json"))
            #expect(chown(path("n.json"), 65_534, 65_534) == 0)
            let planted = try await run(["members", "github", "--changes", path("n.json")], server)
            #expect(planted.status == 1)
            #expect(planted.stdout.isEmpty)
            let refusal = "belongs to another user and is in a folder anyone may write to"
            #expect(planted.stderr.contains(refusal), "\(planted.stderr)")
            #expect(read("n.json") == recorded)
            // `--output /dev/stdout` is resolved to the file and opened by its name, which another user can
            // plant: refused as that file is (a review wrote into a planted file so when the exemption was by path).
            #expect(FileManager.default.createFile(atPath: path("out.tsv"), contents: Data("theirs\n".utf8)))
            #expect(chown(path("out.tsv"), 65_534, 65_534) == 0)
            let shell = try await BinaryRunner.shell(
                "\"$GH_USERS\" list --limit 3 --output /dev/stdout --api-url \"$API\" --no-cache >> \"$FILE\"",
                environment: ["API": server.baseURL, "FILE": path("out.tsv")])
            #expect(shell.status == 1)
            #expect(shell.stderr.contains("belongs to another user"), "\(shell.stderr)")
            #expect(read("out.tsv") == "theirs\n")
        }
    }

    /// A FIFO another user made in a shared sticky folder, given as `--output` or `--token-file`, is refused at
    /// once, as a state or snapshot there is. Before, open(2) waited for its other end: the run hung until killed
    /// (status 137 here), for as long as that user liked (a review's attack on a cron job's `/tmp` output).
    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func aFIFOAnotherUserMadeInASharedFolderIsRefusedAtOnce() async throws {
        try await withServer(users: 50) { server in
            #expect(chmod(folder.path, 0o1777) == 0)
            #expect(mkfifo(path("fifo"), 0o666) == 0 && chown(path("fifo"), 65_534, 65_534) == 0)
            let refusal = "belongs to another user and is in a folder anyone may write to"
            let output = try await run(["list", "--limit", "2", "--output", path("fifo")], server)
            #expect(output.status == 1, "\(output.stderr)")
            #expect(output.stderr.contains("the output file '\(path("fifo"))' " + refusal), "\(output.stderr)")
            let token = try await run(["show", "octocat", "--token-file", path("fifo")], server)
            #expect(token.status == 64, "\(token.stderr)")
            #expect(token.stderr.contains(refusal), "\(token.stderr)")
            #expect(server.requests.isEmpty)
            // One's own FIFO is still written to, once a reader opens it.
            #expect(chown(path("fifo"), geteuid(), getegid()) == 0)
            // `shell`'s `cd` goes into the background with `cat`: the paths are whole.
            let reader = try await shell(
                "cat \"$FOLDER/fifo\" > \"$FOLDER/got\" & \"$GH_USERS\" list --limit 2 --output \"$FOLDER/fifo\" "
                    + "--api-url \"$API\" --no-cache; wait", server)
            #expect(reader.status == 0, "\(reader.stderr)")
            #expect(read("got")?.split(separator: "\n").count == 2)
        }
    }
}
