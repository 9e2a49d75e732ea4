import Foundation

/// Where the response cache lives and how large it may grow, from flags and the environment, without side effects.
struct CacheLocation: Sendable, Equatable {
    static let defaultLimitBytes: Int64 = 100_000_000

    /// nil when there is nowhere to put it (no `--cache-dir`, `XDG_CACHE_HOME` or `HOME`).
    let directory: URL?
    let limitBytes: Int64

    /// `--cache-dir`, else `$XDG_CACHE_HOME/gh-users` (an absolute path, as the XDG spec requires), else
    /// `$HOME/.cache/gh-users`. `GH_USERS_CACHE_SIZE` bounds it (`100MB` by default; B, KB, MB, GB, or KiB…).
    static func resolve(cacheDir: String?, environment: [String: String]) throws(UsageError) -> CacheLocation {
        var directory: URL?
        if let cacheDir {
            directory = URL(fileURLWithPath: cacheDir, isDirectory: true)
        } else if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            directory = URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(
                "gh-users", isDirectory: true)
        } else if let home = environment["HOME"], !home.isEmpty {
            directory = URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".cache/gh-users", isDirectory: true)
        }
        var limit = defaultLimitBytes
        if let text = environment["GH_USERS_CACHE_SIZE"], !text.isEmpty {
            guard let parsed = parseSize(text) else {
                throw UsageError(
                    message: "invalid GH_USERS_CACHE_SIZE '\(text)': give a size such as 50MB, 1GB or 500000",
                    command: nil
                )
            }
            limit = parsed
        }
        return CacheLocation(directory: directory, limitBytes: limit)
    }

    /// "100MB", "1.5 GB", "512KiB", "4096": decimal units are powers of 1000, binary ones of 1024.
    static func parseSize(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        guard let number = Double(digits), number.isFinite, number > 0 else { return nil }
        let multipliers: [String: Double] = [
            "": 1, "b": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9,
            "kib": 1024, "mib": 1_048_576, "gib": 1_073_741_824,
        ]
        guard let multiplier = multipliers[unit] else { return nil }
        let bytes = number * multiplier
        guard bytes >= 1, bytes < Double(Int64.max) else { return nil }
        return Int64(bytes)
    }
}
