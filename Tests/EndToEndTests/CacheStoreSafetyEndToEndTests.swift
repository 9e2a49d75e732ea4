import Foundation
import GitHubStandIn
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Items 13 to 18 of the hardening issue, through the built binary: the cache folder, tokens, and API URLs.
/// stdout, stderr and the exit status are checked separately.
struct HardeningEndToEndTests {
    private func withServer<T>(_ body: (StandInServer) async throws -> T) async throws -> T {
        let server = try StandInServer(configuration: StandInConfiguration(userCount: 400))
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    private func withFolder<T>(mode: Int? = nil, _ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gh-users-e2e-hardening-\(UUID().uuidString)")
        if let mode {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // After creation, so the umask cannot take the sticky or group bits away.
            #expect(chmod(folder.path, mode_t(mode)) == 0)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    private func mode(_ path: String) throws -> Int {
        var info = stat()
        try #require(lstat(path, &info) == 0)
        return Int(info.st_mode) & 0o7777
    }

    private func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    private func store(_ folder: URL) -> URL {
        folder.appendingPathComponent("gh-users-responses")
    }

    private func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n")
    }

    // MARK: - 13. Only chmod what we created

    @Test(arguments: [0o755, 0o1777])
    func anExistingCacheDirKeepsItsModeAndOnlyTheSubfolderIsEverCleared(original: Int) async throws {
        try await withServer { server in
            try await withFolder(mode: original) { folder in
                try Data("someone else's".utf8).write(to: folder.appendingPathComponent("notes.entry"))
                let shown = try await BinaryRunner.run(
                    ["show", "octocat", "--api-url", server.baseURL, "--cache-dir", folder.path])
                #expect(shown.status == 0)
                #expect(shown.stdout.hasPrefix("octocat\t"))
                #expect(shown.stderr.isEmpty)
                #expect(try mode(folder.path) == original)
                #expect(try names(folder) == ["gh-users-responses", "notes.entry"])
                #expect(try mode(store(folder).path) == 0o700)
                #expect(try names(store(folder)).count == 2, "the marker and one entry")

                let cleared = try await BinaryRunner.run(["cache", "clear", "--cache-dir", folder.path])
                #expect(cleared.status == 0)
                #expect(cleared.stdout.isEmpty)
                #expect(cleared.stderr.hasPrefix("Removed 1 entry ("))
                #expect(try names(folder) == ["gh-users-responses", "notes.entry"])
                #expect(try names(store(folder)) == ["CACHEDIR.TAG"])
                #expect(try mode(folder.path) == original)
            }
        }
    }

    // MARK: - 14. Refuse a cache that others can write

    @Test func aPlantedEntryIsNotServedAfterAGenuine304() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let arguments = ["show", "octocat", "--api-url", server.baseURL, "--cache-dir", folder.path]
                let genuine = try await BinaryRunner.run(arguments)
                #expect(genuine.status == 0)
                #expect(genuine.stdout.contains("monalisa octocat"))
                let entries = try names(store(folder)).filter { $0.hasSuffix(".entry") }
                try #require(entries.count == 1)
                let entry = store(folder).appendingPathComponent(entries[0])
                // Another user's forgery: the same validators, a body of the same length, a different name.
                let original = try Data(contentsOf: entry)
                let forged = try #require(
                    String(data: original, encoding: .utf8)?.replacingOccurrences(
                        of: "monalisa octocat", with: "MALLORY PLANTED!"))
                try Data(forged.utf8).write(to: entry)

                // Were the forgery private, it would be trusted: this is what a 304 serves.
                server.resetRequests()
                let trusted = try await BinaryRunner.run(arguments)
                #expect(trusted.stdout.contains("MALLORY PLANTED!"))
                #expect(server.requests.first?.header("if-none-match") != nil)

                // Writable by others, as a planted file would be: ignored, said once, and fetched afresh.
                #expect(chmod(entry.path, 0o666) == 0)
                server.resetRequests()
                let refused = try await BinaryRunner.run(arguments)
                #expect(refused.status == 0)
                #expect(refused.stdout == genuine.stdout)
                #expect(!refused.stdout.contains("MALLORY"))
                #expect(
                    refused.stderr
                        == "gh-users: warning: ignoring the cache entry '\(entry.path)', and any other like it: "
                        + "other users can write to it (mode 666)\n")
                #expect(server.requests.count == 1)
                #expect(server.requests.first?.header("if-none-match") == nil)
                // The genuine answer replaced the suspect entry.
                #expect(try mode(entry.path) == 0o600)
            }
        }
    }

    @Test func aStoreOthersCanWriteIsIgnoredWithOneWarningForTheWholeRun() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let arguments = [
                    "list", "--limit", "300", "--api-url", server.baseURL, "--cache-dir", folder.path,
                ]
                let first = try await BinaryRunner.run(arguments)
                #expect(first.status == 0)
                #expect(chmod(store(folder).path, 0o777) == 0)
                server.resetRequests()
                let second = try await BinaryRunner.run(arguments)
                #expect(second.status == 0)
                #expect(second.stdout == first.stdout)
                #expect(
                    second.stderr
                        == "gh-users: warning: '\(store(folder).path)' is not safe to use: other users can write to "
                        + "it (mode 777); remove it by hand, or give --cache-dir another folder; going on without the "
                        + "cache\n")
                #expect(server.requests.count == 3)
                #expect(server.requests.allSatisfy { $0.header("if-none-match") == nil })
            }
        }
    }

    // MARK: - 15. Say when the cache cannot work

    @Test(arguments: ["file", "/proc/self"])
    func aCacheDirThatCannotWorkIsOneWarningAndTheCommandGoesOn(kind: String) async throws {
        try await withServer { server in
            try await withFolder { scratch in
                var cacheDir = kind
                var expected = "gh-users: warning: cannot create a folder in '/proc/self': no such file or directory; "
                if kind == "file" {
                    cacheDir = scratch.path
                    try Data("not a folder".utf8).write(to: scratch)
                    expected = "gh-users: warning: the cache directory '\(cacheDir)' is not a directory; "
                }
                let result = try await BinaryRunner.run(
                    ["list", "--limit", "300", "--api-url", server.baseURL, "--cache-dir", cacheDir])
                #expect(result.status == 0)
                #expect(lines(result.stdout).count == 300)
                #expect(result.stderr == expected + "going on without the cache\n")
            }
        }
    }

    @Test func orphanedTemporaryFilesAreSweptOnceOld() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let base = ["--api-url", server.baseURL, "--cache-dir", folder.path]
                #expect(try await BinaryRunner.run(["show", "octocat"] + base).status == 0)
                // As a `kill -9` between write and rename leaves them: one an hour ago, one just now.
                let old = store(folder).appendingPathComponent(".tmp-abc-1-1")
                let young = store(folder).appendingPathComponent(".tmp-abc-2-2")
                for file in [old, young] { try Data("partial".utf8).write(to: file) }
                try FileManager.default.setAttributes(
                    [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: old.path)
                // The next run that stores an answer sweeps what no running write can own.
                let next = try await BinaryRunner.run(["show", "kitsune-fox"] + base)
                #expect(next.status == 0)
                #expect(next.stderr.isEmpty)
                #expect(!FileManager.default.fileExists(atPath: old.path))
                #expect(FileManager.default.fileExists(atPath: young.path))
            }
        }
    }

    // MARK: - 16. Tokens with control characters

    @Test func aTokenWithALineBreakIsAUsageErrorThatNamesTheVariableNotTheValue() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.run(
                ["show", "octocat", "--api-url", server.baseURL, "--debug"],
                environment: ["GH_TOKEN": "ghp_secretvalue42\nX-Injected: 1"])
            #expect(result.status == 64)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "Error: GH_TOKEN holds a line break; it should hold the token alone, on one line\n"
                    + "See 'gh-users --help'.\n")
            #expect(server.requests.isEmpty)
        }
    }

    @Test func aTokenFileWithANulIsRefusedByNameAndOneWithAByteOrderMarkWorks() async throws {
        try await withServer { server in
            try await withFolder(mode: 0o700) { folder in
                let bad = folder.appendingPathComponent("bad-token")
                try Data("ghp_secret\u{0}value".utf8).write(to: bad)
                let refused = try await BinaryRunner.run(
                    ["show", "octocat", "--api-url", server.baseURL, "--token-file", bad.path])
                #expect(refused.status == 64)
                #expect(refused.stdout.isEmpty)
                #expect(refused.stderr.hasPrefix("Error: the token file '\(bad.path)' holds a control character"))
                #expect(!refused.stderr.contains("ghp_secret"))
                #expect(server.requests.isEmpty)

                let marked = folder.appendingPathComponent("bom-token")
                try Data([0xEF, 0xBB, 0xBF] + Array("ghp_bomToken77\r\n".utf8)).write(to: marked)
                #expect(chmod(marked.path, 0o600) == 0)
                let used = try await BinaryRunner.run(
                    ["show", "octocat", "--api-url", server.baseURL, "--token-file", marked.path, "--no-cache"])
                #expect(used.status == 0)
                #expect(used.stderr.isEmpty)
                #expect(server.requests.first?.header("authorization") == "Bearer ghp_bomToken77")
            }
        }
    }

    // MARK: - 17. Token files that are pipes

    @Test(arguments: [
        ("stdin", #"printf 'ghp_pipedToken1\n' | "$GH_USERS" show octocat --token-file /dev/stdin"#),
        ("process substitution", #""$GH_USERS" show octocat --token-file <(printf 'ghp_pipedToken1')"#),
        (
            "fifo",
            #"mkfifo -m 600 token.fifo && { printf 'ghp_pipedToken1\n' > token.fifo & } && "#
                + #""$GH_USERS" show octocat --token-file token.fifo"#
        ),
    ])
    func aTokenFileThatIsAPipeIsRead(kind: String, script: String) async throws {
        try await withServer { server in
            let result = try await BinaryRunner.shell(
                script + " --no-cache --api-url \(server.baseURL)", timeout: 30)
            #expect(result.status == 0, "\(kind)")
            #expect(result.stdout.hasPrefix("octocat\t"))
            #expect(result.stderr.isEmpty)
            #expect(server.requests.first?.header("authorization") == "Bearer ghp_pipedToken1")
        }
    }

    @Test func aTokenFileThatCannotBeReadSaysWhy() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.run(
                ["show", "octocat", "--api-url", server.baseURL, "--token-file", "/nonexistent/token"])
            #expect(result.status == 64)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "Error: cannot read the token file '/nonexistent/token': no such file or directory\n"
                    + "See 'gh-users --help'.\n")
            #expect(server.requests.isEmpty)
        }
    }

    // MARK: - 18. API URLs

    @Test func anUppercaseSchemeWorks() async throws {
        try await withServer { server in
            let upper = server.baseURL.replacingOccurrences(of: "http://", with: "HTTP://")
            let result = try await BinaryRunner.run(
                ["show", "octocat", "--api-url", upper, "--no-cache"], environment: ["GH_TOKEN": "ghp_token1234"])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("octocat\t"))
            #expect(result.stderr.isEmpty)
            #expect(server.requests.first?.header("authorization") == "Bearer ghp_token1234")
        }
    }

    @Test func aPortAbove65535IsAUsageError() async throws {
        let result = try await BinaryRunner.run(["show", "octocat", "--api-url", "http://127.0.0.1:99999"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "Error: invalid API URL 'http://127.0.0.1:99999': the port must be from 1 to 65535\n"
                + "See 'gh-users --help'.\n")
    }

    @Test func aLoopbackGHHostIsExplainedInsteadOfTimingOut() async throws {
        try await withServer { server in
            let host = "127.0.0.1:\(server.port)"
            let result = try await BinaryRunner.run(
                ["show", "octocat", "--timeout", "5"], environment: ["GH_HOST": host], timeout: 30)
            #expect(result.status == 64)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "Error: GH_HOST=\(host) would mean GitHub Enterprise at https://\(host)/api/v3, over https; "
                    + "for a server on this machine give its URL instead, such as --api-url http://\(host) "
                    + "(or GH_USERS_API_URL)\nSee 'gh-users --help'.\n")
            #expect(server.requests.isEmpty)
        }
    }
}
