import AtomicCore
import Data
import Domain
import Foundation
import Testing

@testable import gh_users

struct CacheLocationTests {
    @Test func flagThenXDGThenHome() throws {
        let home = FileManager.default.temporaryDirectory.path
        let environment = ["XDG_CACHE_HOME": "/xdg", "HOME": home]
        #expect(try CacheLocation.resolve(cacheDir: "/flag", environment: environment).directory?.path == "/flag")
        #expect(try CacheLocation.resolve(cacheDir: nil, environment: environment).directory?.path == "/xdg/gh-users")
        #expect(
            try CacheLocation.resolve(cacheDir: nil, environment: ["HOME": home]).directory?.path
                == home + "/.cache/gh-users")
        // The XDG spec ignores a relative XDG_CACHE_HOME.
        #expect(
            try CacheLocation.resolve(cacheDir: nil, environment: ["XDG_CACHE_HOME": "rel", "HOME": home]).directory?
                .path == home + "/.cache/gh-users")
        #expect(try CacheLocation.resolve(cacheDir: nil, environment: [:]).directory == nil)
    }

    /// A HOME that is relative, or no folder (a service account's `/nonexistent`, a file), names no cache: before,
    /// gh-users made `/nonexistent/.cache/gh-users`, and `rel/.cache/gh-users` in the current folder (helper-334).
    @Test(arguments: ["rel/home", "/nonexistent-gh-users-home", "/etc/hostname"])
    func aHomeThatIsNoFolderNamesNoCache(home: String) throws {
        #expect(try CacheLocation.resolve(cacheDir: nil, environment: ["HOME": home]).directory == nil)
    }

    @Test func theSizeLimitDefaultsToAHundredMegabytes() throws {
        #expect(try CacheLocation.resolve(cacheDir: nil, environment: [:]).limitBytes == 100_000_000)
        #expect(
            try CacheLocation.resolve(cacheDir: nil, environment: ["GH_USERS_CACHE_SIZE": "2GB"]).limitBytes
                == 2_000_000_000)
        #expect(throws: UsageError.self) {
            try CacheLocation.resolve(cacheDir: nil, environment: ["GH_USERS_CACHE_SIZE": "lots"])
        }
    }

    @Test(arguments: [
        ("4096", Int64(4096)), ("300KB", 300_000), ("1.5 MB", 1_500_000), ("512KiB", 524_288), ("1GiB", 1_073_741_824),
        ("100mb", 100_000_000), ("7b", 7), ("64M", 64 << 20), ("2k", 2_048),
    ])
    func parsesSizes(text: String, bytes: Int64) {
        #expect(ByteSize.parse(text) == bytes)
    }

    @Test(arguments: ["", "MB", "-5MB", "0", "5 parsecs", "1e3", "nan", "99999999999999999999GB", "0.1", "1.5", "2T"])
    func refusesNonsenseSizes(text: String) {
        #expect(ByteSize.parse(text) == nil)
    }
}

struct CacheRoutingTests {
    private func route(_ arguments: String) -> Route {
        CommandRouter().route(arguments.split(separator: " ").map(String.init))
    }

    @Test func cacheActionsAndOptions() {
        var global = CommonOptions()
        global.cacheDirectory = "/tmp/x"
        #expect(route("cache info --cache-dir /tmp/x") == .cache(CacheOptions(action: .info), global))
        #expect(route("cache clear") == .cache(CacheOptions(action: .clear), CommonOptions()))
    }

    @Test func cacheModes() {
        var offline = CommonOptions()
        offline.cacheMode = .offline
        #expect(route("list --offline") == .listUsers(ListUsersOptions(), offline))
        var disabled = CommonOptions()
        disabled.cacheMode = .disabled
        #expect(route("list --no-cache") == .listUsers(ListUsersOptions(), disabled))
    }

    @Test(arguments: ["list --offline --no-cache", "cache info extra", "cache purge", "list --cache-dir="])
    func cacheUsageErrors(arguments: String) {
        guard case .usageError = route(arguments) else {
            Issue.record("expected a usage error for \(arguments)")
            return
        }
    }

    @Test func cacheSizesReadLikeTheLimit() {
        #expect(CacheRenderer.size(0) == "0 B")
        #expect(CacheRenderer.size(998_279) == "998 kB")
        #expect(CacheRenderer.size(1_500_000) == "1.5 MB")
        #expect(CacheRenderer.size(100_000_000) == "100 MB")
        // A unit's thousand is the next unit's one (helper-331's mutation C4: "1000 B", "1000 kB").
        #expect(CacheRenderer.size(1000) == "1.0 kB")
        #expect(CacheRenderer.size(1_000_000) == "1.0 MB")
    }
}

struct CacheInfoRenderingTests {
    private let summary = CacheSummary(
        path: #"/tmp/a "quoted": path"#, entries: 3, bytes: 1_500, limitBytes: 100_000_000, orphanedTemporaryFiles: 2)

    private func context(_ format: OutputFormat) -> RenderContext {
        RenderContext(format: format, isTTY: format == .table, colorEnabled: false, width: 80, now: Date())
    }

    @Test func jsonIsMadeByAnEncoderWhateverThePathHolds() throws {
        let text = CacheRenderer.render(summary, context: context(.json))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["path"] as? String == summary.path)
        #expect(object["orphaned_temporary_files"] as? Int == 2)
        #expect(text.hasPrefix("{\n  \"path\": "))
        let line = CacheRenderer.render(summary, context: context(.ndjson))
        #expect(line.split(separator: "\n").count == 1)
    }

    @Test func orphansAreCountedInEveryFormat() {
        #expect(CacheRenderer.render(summary, context: context(.tsv)).hasSuffix("\t2\n"))
        #expect(CacheRenderer.render(summary, context: context(.csv)).contains("orphaned_temporary_files"))
        #expect(CacheRenderer.render(summary, context: context(.table)).contains("Orphans  2 temporary files"))
        let clean = CacheSummary(path: "/c", entries: 0, bytes: 0, limitBytes: 1)
        #expect(!CacheRenderer.render(clean, context: context(.table)).contains("Orphans"))
    }

    /// A path is the environment's (`XDG_CACHE_HOME`, `--cache-dir`): the table shows an escape in it as text, and tsv
    /// writes a backslash doubled, as every tsv cell (helper-331's mutations C2 and C3).
    @Test func aPathsEscapesReachNoTerminalAndTSVStaysReadable() {
        let odd = CacheSummary(path: "/tmp/\u{1B}[31mred\\x", entries: 0, bytes: 0, limitBytes: 1)
        let table = CacheRenderer.render(odd, context: context(.table))
        #expect(!table.contains("\u{1B}"))
        #expect(table.hasPrefix("Path     /tmp/\\e[31mred\\x\n"), "\(table)")
        #expect(CacheRenderer.render(odd, context: context(.tsv)).hasPrefix("/tmp/\\e[31mred\\\\x\t"))
    }

    /// Issue 19 item 13: csv is data when piped, so a path is written as it is, quoted where it must be.
    @Test func csvCarriesThePathExactlyWhenPiped() {
        let odd = CacheSummary(path: "/tmp/a\nb \"c\"\\d", entries: 0, bytes: 0, limitBytes: 1)
        let text = CacheRenderer.render(odd, context: context(.csv))
        #expect(text.hasSuffix("\r\n\"/tmp/a\nb \"\"c\"\"\\d\",0,0,1,0\r\n"))
    }

    /// Issue 20 item 19: one orphan is one file, and the table ends without a blank line.
    @Test func aTableEndsWithItsLastLineAndCountsAreSingularForOne() {
        let one = CacheSummary(path: "/c", entries: 1, bytes: 1, limitBytes: 1, orphanedTemporaryFiles: 1)
        let text = CacheRenderer.render(one, context: context(.table))
        #expect(text.contains("Orphans  1 temporary file of an interrupted write; the next write removes it once"))
        #expect(text.hasSuffix("old\n"))
        #expect(!text.hasSuffix("\n\n"))
        #expect(Counted.text(1, "entry", plural: "entries") == "1 entry")
        #expect(Counted.text(0, "entry", plural: "entries") == "0 entries")
        #expect(Counted.text(2, "file") == "2 files")
    }
}
