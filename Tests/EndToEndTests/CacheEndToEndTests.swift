import Foundation
import GitHubStandIn
import TestSupport
import Testing

/// The conditional-request cache and offline mode, through the built binary.
struct CacheEndToEndTests {
    private func withServer<T>(users: Int = 1500, _ body: (StandInServer) async throws -> T) async throws -> T {
        let server = try StandInServer(configuration: StandInConfiguration(userCount: users))
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    private func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gh-users-e2e-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    private func list(_ server: StandInServer, cache: URL, _ extra: [String] = [], token: String? = nil) async throws
        -> RunResult
    {
        try await BinaryRunner.run(
            ["list", "--limit", "1000", "--format", "ndjson", "--api-url", server.baseURL, "--cache-dir", cache.path]
                + extra,
            environment: token.map { ["GH_TOKEN": $0] } ?? [:]
        )
    }

    /// A HOME or XDG_CACHE_HOME whose bytes are not UTF-8 (`/home/j\xfcrgen`): Foundation reads it with U+FFFD in
    /// their place, and the cache went to a new folder of that name beside the real one (helper-284). Such a value
    /// now names no folder: XDG_CACHE_HOME falls back to HOME, as a relative one does, and without a HOME there is
    /// no cache; no folder is made.
    @Test func aFolderVariableThatIsNotUTF8MakesNoFolder() async throws {
        try await withServer(users: 10) { server in
            try await withDirectory { folder in
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let result = try await BinaryRunner.shell(
                    #"""
                    cd "$FOLDER" && mkdir -p ok "$(printf 'h\377')"
                    unset XDG_CACHE_HOME
                    HOME="$FOLDER/$(printf 'h\377')" "$GH_USERS" show octocat --api-url "$API"; echo "status=$?"
                    HOME="$FOLDER/ok" XDG_CACHE_HOME="$FOLDER/$(printf 'x\376')" "$GH_USERS" cache info --format json
                    """#, environment: ["FOLDER": folder.path, "API": server.baseURL, "GH_TOKEN": "gho_octocat"])
                #expect(result.stdout.contains("status=0"), "\(result.stderr)")
                #expect(result.stdout.contains("\(folder.path)/ok/.cache/gh-users"), "\(result.stdout)")
                // `ok` and the real `h\xff` alone (Foundation lists the latter with U+FFFD too).
                let made = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                #expect(made.count == 2 && made.contains("ok"), "\(made)")
            }
        }
    }

    @Test func aRepeatedListSpendsNoQuotaAndPrintsTheSame() async throws {
        try await withServer { server in
            try await withDirectory { cache in
                let token = "quota-token-1234"
                let before = server.rateLimitRemaining(token: token)
                let first = try await list(server, cache: cache, token: token)
                let afterFirst = server.rateLimitRemaining(token: token)
                server.resetRequests()
                let second = try await list(server, cache: cache, token: token)
                #expect(first.status == 0 && second.status == 0)
                #expect(before - afterFirst == 10)
                #expect(server.rateLimitRemaining(token: token) == afterFirst)
                #expect(second.stdout == first.stdout)
                #expect(server.requests.count == 10)
                #expect(server.requests.allSatisfy { $0.header("if-none-match") != nil })
            }
        }
    }

    /// As GitHub answers: a 304 is free only to a token, and a search comes with no ETag, so it is asked again,
    /// costs its request each time and is not in the cache for `--offline` (the stand-in once tagged searches, and
    /// made a repeated search free).
    @Test func withoutATokenA304CostsARequestAndASearchIsNeverCached() async throws {
        try await withServer { server in
            try await withDirectory { cache in
                _ = try await list(server, cache: cache)
                let before = server.rateLimitRemaining(token: nil)
                #expect(try await list(server, cache: cache).status == 0)
                #expect(server.rateLimitRemaining(token: nil) == before - 10)
                let search = [
                    "search", "type:user", "--limit", "5", "--api-url", server.baseURL, "--cache-dir", cache.path,
                ]
                let token = ["GH_TOKEN": "search-token-1"]
                let first = try await BinaryRunner.run(search, environment: token)
                let again = try await BinaryRunner.run(search, environment: token)
                #expect(first.status == 0 && again.stdout == first.stdout, "\(again.stderr)")
                #expect(server.searchRateLimitRemaining(token: "search-token-1") == 28)
                let offline = try await BinaryRunner.run(search + ["--offline"], environment: token)
                #expect(offline.status == 1 && offline.stderr.contains("is not in the cache"), "\(offline.stderr)")
            }
        }
    }

    @Test func offlineReproducesTheOutputByteForByteWithoutTheNetwork() async throws {
        try await withServer { server in
            try await withDirectory { cache in
                for format in ["ndjson", "json", "tsv", "table", "csv"] {
                    let online = try await list(server, cache: cache, ["--format", format])
                    server.resetRequests()
                    let offline = try await list(server, cache: cache, ["--format", format, "--offline"])
                    #expect(offline.status == 0)
                    #expect(offline.stdout == online.stdout, "\(format)")
                    #expect(server.requests.isEmpty)
                }
                let miss = try await BinaryRunner.run(
                    ["show", "octocat", "--offline", "--api-url", server.baseURL, "--cache-dir", cache.path]
                )
                #expect(miss.status == 1)
                #expect(miss.stdout.isEmpty)
                #expect(
                    miss.stderr
                        == "gh-users: GET /users/octocat is not in the cache, and --offline keeps off the network\n")
                #expect(server.requests.isEmpty)
            }
        }
    }

    @Test func theCacheIsPrivate() async throws {
        try await withServer { server in
            try await withDirectory { cache in
                _ = try await list(server, cache: cache)
                let attributes = try FileManager.default.attributesOfItem(atPath: cache.path)
                #expect(attributes[.posixPermissions] as? Int == 0o700)
                let store = cache.appendingPathComponent("gh-users-responses")
                let files = try FileManager.default.contentsOfDirectory(atPath: store.path)
                #expect(files.count == 11, "ten entries and the CACHEDIR.TAG marker")
                for file in files {
                    let mode = try FileManager.default.attributesOfItem(
                        atPath: store.appendingPathComponent(file).path)[.posixPermissions]
                    #expect(mode as? Int == 0o600)
                }
            }
        }
    }

    @Test func oneTokensAnswersAreNeverServedUnderAnother() async throws {
        try await withServer { server in
            try await withDirectory { cache in
                let first = try await list(server, cache: cache, token: "first-token-abcd")
                #expect(first.status == 0)
                let other = try await list(server, cache: cache, ["--offline"], token: "second-token-efgh")
                #expect(other.status == 1)
                #expect(other.stdout.isEmpty)
                let anonymous = try await list(server, cache: cache, ["--offline"])
                #expect(anonymous.status == 1)
                let same = try await list(server, cache: cache, ["--offline"], token: "first-token-abcd")
                #expect(same.stdout == first.stdout)
                let store = cache.appendingPathComponent("gh-users-responses")
                for file in try FileManager.default.contentsOfDirectory(atPath: store.path) {
                    let bytes = try Data(contentsOf: store.appendingPathComponent(file))
                    #expect(bytes.range(of: Data("first-token-abcd".utf8)) == nil)
                }
            }
        }
    }

    @Test func aCorruptEntryIsRefetchedAndReplaced() async throws {
        try await withServer { server in
            try await withDirectory { cache in
                let first = try await list(server, cache: cache)
                let store = cache.appendingPathComponent("gh-users-responses")
                let files = try FileManager.default.contentsOfDirectory(atPath: store.path).filter {
                    $0.hasSuffix(".entry")
                }.sorted()
                // Cut one entry short and fill another with garbage.
                let cut = store.appendingPathComponent(files[0])
                let data = try Data(contentsOf: cut)
                try data.prefix(data.count / 2).write(to: cut)
                try Data("not a cache entry".utf8).write(to: store.appendingPathComponent(files[1]))
                server.resetRequests()
                let second = try await list(server, cache: cache)
                #expect(second.status == 0)
                #expect(second.stdout == first.stdout)
                #expect(server.requests.filter { $0.header("if-none-match") == nil }.count == 2)
                server.resetRequests()
                let third = try await list(server, cache: cache, ["--offline"])
                #expect(third.stdout == first.stdout)
            }
        }
    }

    @Test func concurrentProcessesShareOneCacheSafely() async throws {
        try await withServer { server in
            try await withDirectory { cache in
                let results = try await withThrowingTaskGroup(of: RunResult.self) { group in
                    for _ in 0..<4 {
                        group.addTask { try await list(server, cache: cache) }
                    }
                    var all: [RunResult] = []
                    for try await result in group { all.append(result) }
                    return all
                }
                #expect(results.allSatisfy { $0.status == 0 })
                #expect(Set(results.map(\.stdout)).count == 1)
                let offline = try await list(server, cache: cache, ["--offline"])
                #expect(offline.status == 0)
                #expect(offline.stdout == results[0].stdout)
                let names = try FileManager.default.contentsOfDirectory(
                    atPath: cache.appendingPathComponent("gh-users-responses").path)
                #expect(names.count == 11, "ten entries and the CACHEDIR.TAG marker")
                #expect(!names.contains { $0.hasPrefix(".tmp-") })
            }
        }
    }

    @Test func theSizeIsBoundedByEvictingTheOldest() async throws {
        try await withServer { server in
            try await withDirectory { cache in
                let result = try await BinaryRunner.run(
                    ["list", "--limit", "1000", "--api-url", server.baseURL, "--cache-dir", cache.path],
                    environment: ["GH_USERS_CACHE_SIZE": "300KB"]
                )
                #expect(result.status == 0)
                let info = try await BinaryRunner.run(
                    ["cache", "info", "--json", "--cache-dir", cache.path],
                    environment: ["GH_USERS_CACHE_SIZE": "300KB"])
                let summary = try #require(
                    try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
                let size = try #require(summary["size_bytes"] as? Int)
                #expect(size <= 300_000)
                #expect((summary["entries"] as? Int ?? 0) >= 1)
                #expect(summary["limit_bytes"] as? Int == 300_000)
                // The newest page survives; the first ones went.
                server.resetRequests()
                let last = try await BinaryRunner.run(
                    ["list", "--limit", "1000", "--api-url", server.baseURL, "--cache-dir", cache.path, "--offline"]
                )
                #expect(last.status == 1)
            }
        }
    }

    @Test func whenTheNetworkIsDownTheCachedCopyAnswersWithAWarning() async throws {
        try await withDirectory { cache in
            let server = try StandInServer(configuration: StandInConfiguration(userCount: 100))
            try server.start()
            let url = server.baseURL
            let online = try await BinaryRunner.run(["show", "octocat", "--api-url", url, "--cache-dir", cache.path])
            server.stop()
            // Held, so that no other test's server is given the port while these runs find nothing there.
            let refusing = try RefusingPort(port: UInt16(server.port))
            defer { withExtendedLifetime(refusing) {} }
            let offline = try await BinaryRunner.run(
                ["show", "octocat", "--api-url", url, "--cache-dir", cache.path, "--retries", "1"]
            )
            #expect(offline.status == 0)
            #expect(offline.stdout == online.stdout)
            #expect(offline.stderr.hasPrefix("gh-users: warning: cannot reach the API (cannot connect to 127.0.0.1:"))
            #expect(offline.stderr.contains("using the copy of GET /users/octocat that GitHub last confirmed "))
            let uncached = try await BinaryRunner.run([
                "show", "kitsune-fox", "--api-url", url, "--cache-dir", cache.path, "--retries", "0",
            ])
            #expect(uncached.status == 1)
            #expect(uncached.stderr.hasPrefix("gh-users: network error: cannot connect"))
        }
    }

    @Test func noCacheLeavesNothingAndTheDefaultCacheIsTheOnlyTrace() async throws {
        try await withServer { server in
            try await withDirectory { home in
                try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
                let bare = try await BinaryRunner.run(
                    ["show", "octocat", "--no-cache", "--api-url", server.baseURL], home: home)
                #expect(bare.status == 0)
                #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty)
                let cached = try await BinaryRunner.run(["show", "octocat", "--api-url", server.baseURL], home: home)
                #expect(cached.status == 0)
                let everything = FileManager.default.enumerator(atPath: home.path)?.allObjects as? [String] ?? []
                #expect(
                    everything.filter { !$0.hasSuffix(".entry") }.sorted() == [
                        ".cache", ".cache/gh-users", ".cache/gh-users/gh-users-responses",
                        ".cache/gh-users/gh-users-responses/CACHEDIR.TAG",
                    ])
            }
        }
    }

    /// A list read online follows GitHub's links (`?per_page=100&since=N`); a run that starts there itself asks
    /// `?since=N&per_page=100`. Both are one page under one key now: before, `--offline` found the page not cached
    /// and a run online paid a 200 for it (helper-343's find 5).
    @Test func aPageReachedByALinkAnswersTheSamePageAskedDirectly() async throws {
        try await withServer(users: 300) { server in
            try await withDirectory { cache in
                let all = try await list(server, cache: cache, ["--per-page", "100"])
                #expect(all.status == 0, "\(all.stderr)")
                let hundredth = try #require(all.stdout.split(separator: "\n").dropFirst(99).first)
                let object = try JSONSerialization.jsonObject(with: Data(hundredth.utf8)) as? [String: Any]
                let since = try #require(object?["id"] as? Int)
                let offline = try await list(
                    server, cache: cache, ["--per-page", "100", "--since", "\(since)", "--offline"])
                #expect(offline.status == 0, "\(offline.stderr)")
                #expect(offline.stdout.split(separator: "\n").count == 200)
            }
        }
    }

    /// A cache folder where no store can be made: `cache info` still reports the empty cache (exit 0), and says on
    /// stderr that every run goes without it (helper-340's E7: it said nothing).
    @Test(.enabled(if: UnwritableFolder.available, "needs a folder that can be locked against whoever runs this"))
    func cacheInfoSaysWhenNoStoreCanBeMade() async throws {
        try await withDirectory { cache in
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            try #require(UnwritableFolder.lock(cache))
            defer { UnwritableFolder.unlock(cache) }
            let info = try await BinaryRunner.run(["cache", "info", "--json", "--cache-dir", cache.path])
            #expect(info.status == 0)
            let record = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
            #expect(record?["entries"] as? Int == 0)
            #expect(info.stderr.hasPrefix("gh-users: warning: cannot create '\(cache.path)/gh-users-responses': "))
            #expect(info.stderr.hasSuffix("; runs that use this folder go without a cache\n"))
            #expect(info.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func cacheInfoAndClear() async throws {
        try await withServer { server in
            try await withDirectory { cache in
                _ = try await list(server, cache: cache)
                let info = try await BinaryRunner.run(["cache", "info", "--format", "table", "--cache-dir", cache.path])
                #expect(info.status == 0)
                let store = cache.appendingPathComponent("gh-users-responses")
                #expect(info.stdout.hasPrefix("Path     \(store.path)\nEntries  10\nSize     "))
                #expect(info.stdout.contains(" of 100 MB"))
                // Asked for a format, a script gets what was removed (before: --json was taken, stdout empty).
                let clear = try await BinaryRunner.run(["cache", "clear", "--cache-dir", cache.path, "--json"])
                #expect(clear.status == 0)
                let record = try JSONSerialization.jsonObject(with: Data(clear.stdout.utf8)) as? [String: Any]
                #expect(record?["removed_entries"] as? Int == 10)
                #expect(record?["path"] as? String == store.path)
                #expect(clear.stderr.hasPrefix("Removed 10 entries ("))
                #expect(try FileManager.default.contentsOfDirectory(atPath: store.path) == ["CACHEDIR.TAG"])
                let again = try await BinaryRunner.run(["cache", "clear", "--cache-dir", cache.path])
                #expect(again.status == 0)
                #expect(again.stdout.isEmpty)
                #expect(again.stderr.hasPrefix("Removed 0 entries ("))
            }
        }
    }
}
