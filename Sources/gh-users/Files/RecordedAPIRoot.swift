import Foundation

/// The API root a file records (`"api_url"`) so that it is not taken for another server's: a `--changes`
/// snapshot (another server's ids are other people) and a `--state` (another server's records would be appended
/// to the same output as if they went on with the first's). A file written before the root was recorded has
/// none, is taken as it is, and records it when it is next written.
enum RecordedAPIRoot {
    /// The API root as a file records it: the scheme and host in lower case, the port unless it is the scheme's
    /// own, and the path without a final slash (`https://api.github.com`, `https://HOST/api/v3`). Never a user
    /// name, password, query or fragment: a root has none (`ConnectionSettings`), and none is copied.
    static func of(_ root: URL) -> String {
        guard let parts = URLComponents(url: root, resolvingAgainstBaseURL: false), let scheme = parts.scheme,
            let host = parts.host
        else { return "" }
        let own = ["http": 80, "https": 443][scheme.lowercased()]
        let port = parts.port.flatMap { $0 == own ? nil : $0 }
        var path = parts.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        return scheme.lowercased() + "://" + host.lowercased() + (port.map { ":\($0)" } ?? "") + path
    }

    /// Why a file that recorded `recorded` is not this run's, which talks to `now` (as `of` gives it), in words
    /// that follow the file's name: "was made against the API at …, not against …, which this run uses (…)". The
    /// file's root is masked (it may not be gh-users's, and hold a password) and quoted on one line, cut short
    /// (`LocalFileError.held`). nil when the file recorded no root, or this one, however written
    /// (`https://GHE.example.com/api/v3/`).
    static func mismatch(recorded: String?, now: String) -> String? {
        guard let recorded, recorded != now, URL(string: recorded).map(Self.of) != now else { return nil }
        let shown = LocalFileError.held(ConnectionSettings.masked(recorded))
        return "was made against the API at \(shown), not against \(now), which this run uses (--api-url, "
            + "GH_USERS_API_URL or GH_HOST)"
    }
}
