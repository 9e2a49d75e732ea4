import Foundation
import GitHubStandIn
import TestSupport
import Testing

/// docs/CRAWLING.md, run as written: every ```sh block, in order, in one scratch folder, with `gh-users` on PATH
/// pointing at the stand-in, and what the blocks leave behind checked against the stand-in's own accounts. A
/// block marked `requires=TOOL` runs in the test for that tool, which is skipped (and says so) when the tool is
/// not installed (`Scripts/test-tools` installs them). The Kubernetes manifest is parsed, not run.
///
/// The plain blocks run once for the suite (`PlainBlocks`, about half its cost each time): each tool's test
/// runs its own blocks after them, in a copy of the folder they left, against the same stand-in.
@Suite(PlainBlocks()) struct CrawlingDocTests {
    static let population = 3000

    /// The page's plain blocks as they ran for the suite, then those that need `tool`, run in a copy of their
    /// folder; `check` gets that folder, the stand-in and every block's run.
    private func runPage(
        with tool: String? = nil, _ check: (URL, StandInServer, [BlockRun]) throws -> Void
    ) async throws {
        let plain = try #require(PlainBlocks.current, "the suite runs its plain blocks first")
        guard let tool else {
            for run in plain.runs {
                #expect(run.status == 0, "block at line \(run.block.line) exited \(run.status):\n\(run.stderr)")
            }
            return try check(plain.scratch, plain.server, plain.runs)
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-crawling-\(UUID())")
        try FileManager.default.copyItem(at: plain.scratch, to: scratch)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let blocks = try CrawlingPage.blocks().filter { $0.language == "sh" && $0.requires == tool }
        #expect(!blocks.isEmpty)
        let runs = try await PlainBlocks.run(blocks, in: scratch, server: plain.server, tool: tool)
        for run in runs {
            #expect(run.status == 0, "block at line \(run.block.line) exited \(run.status):\n\(run.stderr)")
        }
        try check(scratch, plain.server, plain.runs + runs)
    }

    private func ids(in file: URL) throws -> [Int] {
        try String(contentsOf: file, encoding: .utf8).lines().compactMap { line in
            (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? Int
        }
    }

    @Test func thePlainCommandsRunAsWrittenAndDoWhatThePageSays() async throws {
        try await runPage { scratch, server, runs in
            let everyone = server.population.users.map(\.id)
            // The newest account's id, found with one search.
            let newest = server.population.users.max { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            #expect(runs.first?.stdout == "\(newest?.id ?? 0)\n")
            // Two nights of `--state`: everything once, and nothing new the second time.
            let users = try ids(in: scratch.appendingPathComponent("users.ndjson"))
            #expect(users == everyone)
            let counted = runs.first { $0.block.text.contains("wc -l < users.ndjson") }
            #expect(counted?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(everyone.count))
            // `--output`: the same accounts, and a state file only its owner can read.
            #expect(try ids(in: scratch.appendingPathComponent("safe.ndjson")) == everyone)
            let state = try FileManager.default.attributesOfItem(
                atPath: scratch.appendingPathComponent("safe.state").path)
            #expect((state[.posixPermissions] as? Int) == 0o600)
            // `search --split`: every match of the query, each once, although it is far over 1,000.
            let matches = server.population.users.filter { $0.type == "User" }.map(\.id)
            #expect(matches.count > 1000)
            let found = try ids(in: scratch.appendingPathComponent("every-user.ndjson"))
            #expect(found.count == Set(found).count)
            #expect(Set(found) == Set(matches))
        }
    }

    @Test(.enabled(if: Tool.find("parallel") != nil, "GNU parallel is not installed (Scripts/test-tools)"))
    func theShardsAddUpToTheWholeCrawl() async throws {
        try await runPage(with: "parallel") { scratch, server, _ in
            let sharded = try ids(in: scratch.appendingPathComponent("sharded.ndjson"))
            #expect(sharded == server.population.users.map(\.id))
            for shard in 1...4 {
                let path = scratch.appendingPathComponent("shard-\(shard).ndjson").path
                #expect(FileManager.default.fileExists(atPath: path), "shard \(shard)")
            }
        }
    }

    @Test(.enabled(if: Tool.find("sqlite3") != nil, "sqlite3 is not installed (Scripts/test-tools)"))
    func theNDJSONLoadsIntoSQLite() async throws {
        try await runPage(with: "sqlite3") { _, server, runs in
            let load = try #require(runs.first { $0.block.requires == "sqlite3" })
            #expect(load.stdout == "\(server.population.users.count)\n")
        }
    }

    @Test(.enabled(if: Tool.find("duckdb") != nil, "DuckDB's CLI is not installed (Scripts/test-tools)"))
    func theNDJSONLoadsIntoDuckDB() async throws {
        try await runPage(with: "duckdb") { _, server, runs in
            let loads = runs.filter { $0.block.requires == "duckdb" }
            #expect(loads.count == 2)
            let organizations = server.population.users.filter { $0.type == "Organization" }.count
            #expect(loads.first?.stdout.contains("Organization") == true)
            #expect(loads.first?.stdout.contains(String(organizations)) == true, "\(loads.first?.stdout ?? "")")
            #expect(loads.last?.stdout.contains("location") == true, "\(loads.last?.stdout ?? "")")
        }
    }

    @Test(.enabled(if: Tool.yamlPython != nil, "PyYAML is not installed (Scripts/test-tools)"))
    func theKubernetesManifestIsAnIndexedJobWhoseCommandParses() async throws {
        let manifest = try #require(try CrawlingPage.blocks().first { $0.language == "yaml" })
        let script = """
            import json, sys, yaml
            job = yaml.safe_load(sys.stdin)
            spec = job["spec"]
            container = spec["template"]["spec"]["containers"][0]
            print(json.dumps({"kind": job["kind"], "api": job["apiVersion"], "mode": spec["completionMode"],
                              "completions": spec["completions"], "restart": spec["template"]["spec"]["restartPolicy"],
                              "args": container["args"][0]}))
            """
        let result = try await BinaryRunner.shell(
            "\"$PYTHON\" -c \"$SCRIPT\" <<'YAML'\n" + manifest.text + "YAML\n",
            environment: ["SCRIPT": script, "PYTHON": Tool.yamlPython?.path ?? "python3"])
        #expect(result.status == 0, "\(result.stderr)")
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(parsed["kind"] as? String == "Job")
        #expect(parsed["api"] as? String == "batch/v1")
        #expect(parsed["mode"] as? String == "Indexed")
        #expect(parsed["restart"] as? String == "Never")
        let command = try #require(parsed["args"] as? String)
        for option in ["--state", "--output", "--since", "--until", "--wait-on-rate-limit"] {
            #expect(command.contains(option), "\(option)")
        }
        // The pod's shell command is valid sh.
        let syntax = try await BinaryRunner.shell("sh -n -c \"$COMMAND\"", environment: ["COMMAND": command])
        #expect(syntax.status == 0, "\(syntax.stderr)")
    }
}

/// One fenced block of docs/CRAWLING.md: its language, the tool it needs (`requires=TOOL` after the language)
/// and the line it starts on.
struct CrawlingBlock: Sendable {
    let language: String
    let requires: String?
    let line: Int
    let text: String
}

struct BlockRun: Sendable {
    let block: CrawlingBlock
    let status: Int32
    let stdout: String
    let stderr: String
}

enum CrawlingPage {
    static func blocks() throws -> [CrawlingBlock] {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("docs/CRAWLING.md").path) {
            directory = directory.deletingLastPathComponent()
            if directory.path == "/" { throw CocoaError(.fileNoSuchFile) }
        }
        let text = try String(contentsOf: directory.appendingPathComponent("docs/CRAWLING.md"), encoding: .utf8)
        var blocks: [CrawlingBlock] = []
        var open: (language: String, requires: String?, line: Int, lines: [Substring])?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let current = open {
                    blocks.append(
                        CrawlingBlock(
                            language: current.language, requires: current.requires, line: current.line,
                            text: current.lines.joined(separator: "\n") + "\n"))
                    open = nil
                } else {
                    let words = line.dropFirst(3).split(separator: " ")
                    let requires = words.dropFirst().first { $0.hasPrefix("requires=") }?.dropFirst(9)
                    open = (String(words.first ?? ""), requires.map(String.init), number + 1, [])
                }
            } else if open != nil {
                open?.lines.append(line)
            }
        }
        return blocks
    }
}

enum Tool {
    /// The tool's path on the test process's PATH; GNU parallel only (moreutils has a `parallel` too).
    static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            guard FileManager.default.isExecutableFile(atPath: candidate.path) else { continue }
            if name == "parallel" && !isGNUParallel(candidate) { continue }
            return candidate
        }
        return nil
    }

    private static func isGNUParallel(_ url: URL) -> Bool {
        (try? SpawnedProcess.run(url.path, ["--version"]))?.output.contains("GNU parallel") ?? false
    }

    /// A python3 that can `import yaml`: the first on PATH may be a pyenv one without it, while Debian's
    /// python3-yaml is for /usr/bin/python3.
    static let yamlPython: URL? = {
        var candidates: [URL] = []
        if let found = find("python3") { candidates.append(found) }
        candidates.append(URL(fileURLWithPath: "/usr/bin/python3"))
        return candidates.first { python in
            (try? SpawnedProcess.run(python.path, ["-c", "import yaml"]))?.status == 0
        }
    }()
}

/// Runs the page's plain blocks once, before the suite's tests, against a stand-in that serves the whole suite;
/// stops it and removes their folder after the last test.
struct PlainBlocks: SuiteTrait, TestScoping {
    struct Run: Sendable {
        let scratch: URL
        let server: StandInServer
        let runs: [BlockRun]
    }

    @TaskLocal static var current: Run?

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try StandInServer(
            configuration: StandInConfiguration(
                userCount: CrawlingDocTests.population, rateLimit: 1_000_000, searchRateLimit: 1_000_000))
        try server.start()
        defer { server.stop() }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-crawling-\(UUID())")
        let bin = scratch.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("gh-users"), withDestinationURL: BinaryRunner.binary)
        let tokens = scratch.appendingPathComponent("tokens")
        try FileManager.default.createDirectory(at: tokens, withIntermediateDirectories: true)
        for shard in 1...4 {
            try "gho_shard\(shard)_token\n".write(
                to: tokens.appendingPathComponent("shard-\(shard)"), atomically: true, encoding: .utf8)
        }
        let blocks = try CrawlingPage.blocks().filter { $0.language == "sh" && $0.requires == nil }
        let runs = try await Self.run(blocks, in: scratch, server: server, tool: nil)
        try await Self.$current.withValue(Run(scratch: scratch, server: server, runs: runs)) { try await function() }
    }

    /// Runs `blocks` in order in `scratch`, each in its own bash with `set -euo pipefail`, the folder's `bin`
    /// (gh-users) and `tool`'s folder on PATH.
    static func run(_ blocks: [CrawlingBlock], in scratch: URL, server: StandInServer, tool: String?) async throws
        -> [BlockRun]
    {
        var path = [scratch.appendingPathComponent("bin").path]
        if let tool, let found = Tool.find(tool) { path.append(found.deletingLastPathComponent().path) }
        path += ["/usr/local/bin", "/usr/bin", "/bin"]
        var runs: [BlockRun] = []
        for block in blocks {
            let result = try await BinaryRunner.shell(
                "set -euo pipefail\ncd \"$SCRATCH\"\n" + block.text,
                environment: [
                    "SCRATCH": scratch.path, "PATH": path.joined(separator: ":"), "GH_USERS_API_URL": server.baseURL,
                    "GH_TOKEN": "gho_crawling_doc", "HOME": scratch.path,
                ],
                timeout: 300)
            runs.append(BlockRun(block: block, status: result.status, stdout: result.stdout, stderr: result.stderr))
        }
        return runs
    }
}
