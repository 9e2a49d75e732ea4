import Foundation
import GitHubStandIn
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The cache folder through the built binary: only what gh-users created is changed, a store others can
/// write is refused, a cache that cannot work is one warning, and stale temporary files go.
/// stdout, stderr and the exit status are checked separately.
struct CacheStoreSafetyEndToEndTests: EndToEndSuite {
    let accounts = 400

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

    /// An entry with `text` replaced by `forgery`, and its first line's checksum (FNV-1a, 64 bits, of the rest of
    /// the file, in 16 hex digits) made to match, as a forger would.
    private func forge(_ entry: Data, replacing text: String, with forgery: String) throws -> Data {
        let bytes = [UInt8](entry)
        let firstLineEnd = try #require(bytes.firstIndex(of: UInt8(ascii: "\n")))
        let first = String(decoding: bytes[..<firstLineEnd], as: UTF8.self)
        try #require(first.hasPrefix("gh-users-cache 2 "))
        let rest = String(decoding: bytes[(firstLineEnd + 1)...], as: UTF8.self)
            .replacingOccurrences(of: text, with: forgery)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in rest.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let digits = String(hash, radix: 16)
        let checksum = String(repeating: "0", count: 16 - digits.count) + digits
        return Data(("gh-users-cache 2 " + checksum + "\n" + rest).utf8)
    }

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
                // Another user's forgery: the same validators, a body of the same length, a different name, and
                // the checksum computed again. It guards against damage, not forgery: anyone can compute it.
                let original = try Data(contentsOf: entry)
                let forged = try forge(original, replacing: "monalisa octocat", with: "MALLORY PLANTED!")
                #expect(forged.count == original.count && forged != original)
                try forged.write(to: entry)

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
                        + "it (mode 777); remove it by hand, or use another cache folder; going on without the cache\n")
                #expect(server.requests.count == 3)
                #expect(server.requests.allSatisfy { $0.header("if-none-match") == nil })
            }
        }
    }

    /// An entry its user cannot open (another user's 0600 file in their store) is passed over with the warning
    /// the docs promise, where it was passed over without a word (helper-283). Run as `nobody`: root reads any file.
    @Test(.asAnotherUser)
    func anEntryThatCannotBeOpenedIsPassedOverWithAWarning() async throws {
        try await withServer { server in
            try await withFolder { folder in
                #expect(try AnotherUser.give(folder))
                let show =
                    AnotherUser.prefix + #" "$GH_USERS" show octocat --api-url "$API" --cache-dir "$DIR" --format json"#
                let environment = ["API": server.baseURL, "DIR": folder.path]
                let first = try await BinaryRunner.shell(show, environment: environment)
                #expect(first.status == 0, "\(first.stderr)")
                let entries = try names(store(folder)).filter { $0.hasSuffix(".entry") }
                #expect(entries.count == 1)
                for entry in entries { #expect(chown(store(folder).path + "/" + entry, 0, 0) == 0) }
                let second = try await BinaryRunner.shell(show, environment: environment)
                #expect(second.status == 0)
                #expect(second.stdout == first.stdout)
                #expect(
                    second.stderr.contains("gh-users: warning: ignoring the cache entry ")
                        && second.stderr.hasSuffix(", and any other like it: permission denied\n"), "\(second.stderr)")
            }
        }
    }

    /// A cache folder its user may not write to is one warning for the whole run, which goes on without the
    /// cache. `ResponseCacheTests`' case of it is skipped as root, who writes anywhere (helper-293): here the
    /// binary runs as `nobody`, in a folder of its own with mode 500.
    @Test(.asAnotherUser)
    func aReadOnlyCacheFolderIsOneWarningForTheRun() async throws {
        try await withServer { server in
            try await withFolder { folder in
                #expect(try AnotherUser.give(folder))
                #expect(chmod(folder.path, 0o500) == 0)
                let list = AnotherUser.prefix + #" "$GH_USERS" list --limit 300 --api-url "$API" --cache-dir "$DIR""#
                let result = try await BinaryRunner.shell(
                    list, environment: ["API": server.baseURL, "DIR": folder.path])
                #expect(result.status == 0)
                #expect(lines(result.stdout).count == 300)
                #expect(
                    result.stderr
                        == "gh-users: warning: cannot create a folder in '\(folder.path)': permission denied; "
                        + "going on without the cache\n")
                #expect(try names(folder).isEmpty)
            }
        }
    }

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

    /// A umask that takes the owner's own bits (0277 makes a new folder 0500) leaves the store gh-users makes
    /// 0700 all the same: the owner can write the entries it keeps. (helper-328: dropping the
    /// fchmod went unseen: root, which runs the tests, writes a 0500 folder all the same.)
    @Test func aStoreMadeUnderAUmaskThatTakesTheOwnersBitsIsTheOwners() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-dc1-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            chmod(folder.appendingPathComponent("gh-users-responses").path, 0o700)
            try? FileManager.default.removeItem(at: folder)
        }
        try await withStandIn(users: 100) { server in
            let shown = try await BinaryRunner.shell(
                #"umask 0277; "$GH_USERS" show octocat --api-url "$API" --cache-dir "$DIR""#,
                environment: ["API": server.baseURL, "DIR": folder.path])
            #expect(shown.status == 0, "\(shown.stderr)")
            var info = stat()
            try #require(lstat(folder.appendingPathComponent("gh-users-responses").path, &info) == 0)
            #expect(Int(info.st_mode) & 0o7777 == 0o700)
            // So are the folders it makes above it, ~/.cache too: before, 0500, which every later run could not
            // write into, whatever its umask (helper-334).
            let home = folder.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            let underHome = try await BinaryRunner.shell(
                #"umask 0277; unset XDG_CACHE_HOME; HOME="$DIR/home" "$GH_USERS" show octocat --api-url "$API""#,
                environment: ["API": server.baseURL, "DIR": folder.path])
            #expect(underHome.status == 0, "\(underHome.stderr)")
            for made in [".cache", ".cache/gh-users"] {
                try #require(lstat(home.appendingPathComponent(made).path, &info) == 0)
                #expect(Int(info.st_mode) & 0o7777 == 0o700, "\(made)")
            }
        }
    }
}
