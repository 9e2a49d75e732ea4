import AtomicCore
import Data
import Foundation

/// Where the response cache lives and how large it may grow, from flags and the environment, without side effects.
struct CacheLocation: Sendable, Equatable {
    static let defaultLimitBytes: Int64 = 100_000_000

    /// nil when there is nowhere to put it (no `--cache-dir`, `XDG_CACHE_HOME` or `HOME`).
    let directory: URL?
    let limitBytes: Int64

    /// `--cache-dir`, else `$XDG_CACHE_HOME/gh-users` (an absolute path, as the XDG spec requires), else
    /// `$HOME/.cache/gh-users` where HOME is an absolute path to a folder that exists: a service account's
    /// `/nonexistent` was made, parents and all, and a relative one was taken in the current folder (helper-334).
    /// `GH_USERS_CACHE_SIZE` bounds it (`100MB` by default; B, KB, MB, GB, or KiB…).
    static func resolve(cacheDir: String?, environment: [String: String]) throws(UsageError) -> CacheLocation {
        var directory: URL?
        // Where the folder came from, for a refusal: what to change.
        var source = "--cache-dir"
        if let cacheDir {
            directory = URL(fileURLWithPath: cacheDir, isDirectory: true)
        } else if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            directory = URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(
                "gh-users", isDirectory: true)
            source = "XDG_CACHE_HOME"
        } else if let home = environment["HOME"], home.hasPrefix("/"), isFolder(home) {
            directory = URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".cache/gh-users", isDirectory: true)
            source = "HOME"
        }
        // A folder reached through a link another user made in a shared folder (`/tmp`) is refused, as `--state`
        // and `--output` refuse one: gh-users would otherwise fill a folder of their choosing. So is such a folder
        // itself, the store's way in: its maker could move the store away from `cache clear` (helper-353's P-3).
        let store = directory?.appendingPathComponent(DiskResponseCache.storeName).path
        if let directory, let link = store.flatMap({ OwnedFile.resolve($0).untrustedLink }) {
            let shown = TerminalSanitizer.quotedPath(directory.path)
            let theirs = link == directory.path && FileDescriptorIO.readLink(link) == nil
            throw UsageError(
                message: "the cache folder \(shown) "
                    + (theirs
                        ? "was made by another user in a folder anyone may write to: gh-users keeps nothing there, "
                            + "as it goes through no folder of theirs there"
                        : "is reached through the \(SharedFolder.refused(link))")
                    + ". Nothing was read or changed: give --cache-dir another folder"
                    + (source == "--cache-dir" ? "" : " (this one comes from \(source))"),
                command: nil)
        }
        var limit = defaultLimitBytes
        if let text = environment["GH_USERS_CACHE_SIZE"], !text.isEmpty {
            guard let parsed = ByteSize.parse(text) else {
                throw UsageError.setting(
                    "invalid GH_USERS_CACHE_SIZE '\(text)': give bytes, or a size such as 50MB, 512M or 1GB")
            }
            limit = parsed
        }
        return CacheLocation(directory: directory, limitBytes: limit)
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
