import Data
import Foundation

/// The API origins that answered over HTTP/1.1 in an earlier run, kept as `http1-origins` in the response
/// cache's own folder (`gh-users-responses`, private), one origin (`https://host:port`) a line, so that the next
/// run spreads its first requests over connections of their own at once (`URLSessionTransport`'s
/// `remembersHTTP1`) rather than learning it again from the first answer. Nothing is written outside that folder,
/// so a shared `--cache-dir` (`/tmp`) holds no file of gh-users's another user could plant a link at; the file is
/// written only once the cache made the folder (a run that caches nothing, as under `--no-cache`, still reads it).
/// A run that learns otherwise adds or removes its origin; losing the file costs one slower start, so failures to
/// read or write it are ignored.
struct HTTPVersionMemory: Sendable {
    static let fileName = "http1-origins"
    /// Origins kept, the most recent last: a few API hosts at most, so a file that grew otherwise is cut.
    static let maximumOrigins = 16
    /// A file larger than this is no file of ours and is read as empty.
    static let maximumBytes = 16 << 10

    let file: OwnedFile
    let origin: String

    /// nil where there is no cache folder, or the API root is not https (plain http is HTTP/1.1 anyway).
    init?(cache: CacheLocation, apiRoot: URL) {
        guard let directory = cache.directory, apiRoot.scheme?.lowercased() == "https", let host = apiRoot.host,
            !host.isEmpty
        else { return nil }
        file = OwnedFile(
            path: directory.appendingPathComponent(DiskResponseCache.storeName).appendingPathComponent(Self.fileName)
                .path, kind: "HTTP version memory", option: "--cache-dir", limitBytes: Self.maximumBytes)
        origin = "https://\(host.lowercased()):\(apiRoot.port ?? 443)"
    }

    var speaksHTTP1: Bool { origins().contains(origin) }

    /// Written as every file gh-users owns is (`OwnedFile.replace`): atomically, 0600.
    func record(speaksHTTP1: Bool) {
        var kept = origins().filter { $0 != origin }
        if speaksHTTP1 { kept.append(origin) }
        kept = Array(kept.suffix(Self.maximumOrigins))
        // Only into the cache's folder as the cache made it: a directory of the runner's that no one else may
        // write to. It is never made here.
        var folder = stat()
        guard lstat(OwnedFile.directory(of: file.target), &folder) == 0, folder.st_mode & S_IFMT == S_IFDIR,
            FileInfo.unsafety(folder) == nil
        else { return }
        try? file.replace(with: Array(kept.map { $0 + "\n" }.joined().utf8))
    }

    /// `record`, for the transport to call when a run learns the host's version.
    func recorder() -> @Sendable (_ speaksHTTP1: Bool) -> Void {
        { record(speaksHTTP1: $0) }
    }

    /// What the file says; nothing where it is missing, not a regular file (a FIFO is never waited on) or
    /// larger than any file of ours.
    private func origins() -> [String] {
        guard let bytes = try? file.read() else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("https://") }
    }
}
