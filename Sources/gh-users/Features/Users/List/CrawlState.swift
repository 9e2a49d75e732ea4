import AtomicCore
import Foundation
import JSONBytes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a `list --state FILE` crawl stands: the id of the last account written, and with `--output FILE` that
/// file's length once its last complete page was written, and which file that is. On disk it is one small JSON
/// object, `{"version":1,"since":1234,"output_bytes":56789,"output":"/data/users.tsv"}`, so a person can read it
/// and a script can set it.
struct CrawlState: Sendable, Equatable {
    static let version = 1

    /// The last account id written: the next run starts after it.
    var since: Int64
    /// The output file's length after the page that ended at `since`; nil when the crawl wrote to stdout.
    var outputBytes: Int64?
    /// The output file `outputBytes` counts, as an absolute path: a run with another `--output` must not cut
    /// that file back to this length.
    var output: String?

    var encoded: [UInt8] {
        var members: [JSONValue.Member] = [
            .init("version", .integer(Int64(Self.version))), .init("since", .integer(since)),
        ]
        if let outputBytes { members.append(.init("output_bytes", .integer(outputBytes))) }
        if let output { members.append(.init("output", .string(output))) }
        return JSONValue.object(members).bytes + [UInt8(ascii: "\n")]
    }

    /// The state a file holds, or why it is not one: its own words, for the message that names the file.
    static func decode(_ bytes: [UInt8]) -> Result<CrawlState, CrawlStateProblem> {
        guard (try? JSONSerialization.jsonObject(with: Foundation.Data(bytes))) is [String: Any] else {
            return .failure(.init("is not a JSON object"))
        }
        // JSONDecoder refuses a boolean, a fraction or a string where a whole number belongs.
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Foundation.Data(bytes)) else {
            return .failure(.init("does not hold \"version\", \"since\" and \"output_bytes\" as whole numbers"))
        }
        guard fields.version == Self.version else {
            return .failure(.init("has version \(fields.version); this gh-users reads version \(Self.version)"))
        }
        guard fields.since >= 0 else { return .failure(.init("has a negative \"since\"")) }
        if let bytes = fields.outputBytes, bytes < 0 { return .failure(.init("has a negative \"output_bytes\"")) }
        return .success(CrawlState(since: fields.since, outputBytes: fields.outputBytes, output: fields.output))
    }

    private struct Fields: Decodable {
        let version: Int
        let since: Int64
        let outputBytes: Int64?
        let output: String?

        enum CodingKeys: String, CodingKey {
            case version, since, output
            case outputBytes = "output_bytes"
        }
    }
}

/// What is wrong with a state file's contents, in words that follow its name.
struct CrawlStateProblem: Error, Equatable {
    let detail: String

    init(_ detail: String) {
        self.detail = detail
    }
}

/// A state or output file that cannot be used as it is. The message names the file and says what was (not)
/// done; the run stops with status 1 before it sends anything.
struct CrawlFileError: Error, Equatable, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The `--state FILE` on disk. It is read once, before the first request, and replaced after every page: a new
/// file beside it is written, flushed to disk and renamed over it, and the directory is flushed, so a crash or
/// a power cut leaves either the old state or the new one, never half of either. The file is 0600.
struct CrawlStateFile: Sendable {
    let path: String

    /// Far more than any state; stops `--state /dev/zero` from filling memory.
    static let limitBytes = 64 * 1024

    /// The temporary file a replacement is written to first, in the same directory so that rename is atomic.
    var temporaryPath: String { path + ".tmp" }

    /// nil when there is no file yet (the crawl starts at `--since`). Anything else that cannot be read as a
    /// state is an error, and the file is left as it is.
    func load() throws(CrawlFileError) -> CrawlState? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw CrawlFileError(message: "cannot read the state file '\(path)': \(FileDescriptorIO.reason(code))")
        }
        defer { close(descriptor) }
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptorIO.readAll(descriptor, limit: Self.limitBytes)
        } catch {
            throw CrawlFileError(
                message: "cannot read the state file '\(path)': \(FileDescriptorIO.reason(error.code))")
        }
        switch CrawlState.decode(bytes) {
        case .success(let state):
            return state
        case .failure(let problem):
            throw CrawlFileError(
                message: "the state file '\(path)' \(problem.detail), so it is not a gh-users crawl state. "
                    + "It was left as it is: fix it, or remove it to start again from --since.")
        }
    }

    /// Replaces the file atomically with `state`, 0600 whatever the umask or an older file's mode.
    func replace(with state: CrawlState) throws(CrawlFileError) {
        let temporary = temporaryPath
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("create", temporary, errno) }
        var closed = false
        defer { if !closed { close(descriptor) } }
        guard fchmod(descriptor, 0o600) == 0 else { throw failure("protect", temporary, errno) }
        do {
            try FileDescriptorIO.writeAll(descriptor, state.encoded)
        } catch {
            throw failure("write", temporary, error.code)
        }
        guard fsync(descriptor) == 0 else { throw failure("flush", temporary, errno) }
        closed = true
        guard close(descriptor) == 0 else { throw failure("write", temporary, errno) }
        guard rename(temporary, path) == 0 else { throw failure("replace", path, errno) }
        // The rename itself is on disk only once the directory is.
        let directory = open(Self.directory(of: path), O_RDONLY | O_CLOEXEC)
        guard directory >= 0 else { throw failure("flush the directory of", path, errno) }
        defer { close(directory) }
        guard fsync(directory) == 0 || errno == EINVAL else { throw failure("flush the directory of", path, errno) }
    }

    /// The lock file beside the state (`FILE.lock`): one run at a time may use a state, so two overlapping
    /// nightly runs cannot both append the same page. The lock is the kernel's (`flock`), so a run killed with
    /// SIGKILL leaves no stale lock behind, only the empty file.
    var lockPath: String { path + ".lock" }

    /// Takes the state's lock for as long as the returned value lives, or fails at once when another run
    /// holds it.
    func lock() throws(CrawlFileError) -> CrawlStateLock {
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("create the lock beside", path, errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK {
                throw CrawlFileError(
                    message: "another gh-users run is using the state file '\(path)' (it holds '\(lockPath)'); "
                        + "wait for it to end, or give each crawl its own state file")
            }
            throw failure("lock", lockPath, code)
        }
        return CrawlStateLock(descriptor: descriptor)
    }

    private func failure(_ verb: String, _ file: String, _ code: Int32) -> CrawlFileError {
        CrawlFileError(message: "cannot \(verb) the state file '\(file)': \(FileDescriptorIO.reason(code))")
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }
}

/// A held state lock; closing the descriptor releases it.
final class CrawlStateLock: Sendable {
    private let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}

/// `--output FILE`: the crawl's output, owned by gh-users and only ever appended to. Before the first write, a
/// file longer than the state's recorded length is cut back to it: those bytes are a page written before a
/// kill or a power cut took its state with it, and that page is fetched and written again.
final class CrawlOutputFile: OutputSink, @unchecked Sendable {
    let path: String
    private let descriptor: Int32
    /// The file's length before this run wrote anything, after any cut.
    let initialLength: Int64
    private let lock = NSLock()
    private var length: Int64

    /// Opens (or creates) the file for appending. With `truncatingTo`, the file is first cut back to that
    /// length; a file shorter than it has lost data, and is left untouched.
    init(path: String, truncatingTo recorded: Int64?) throws(CrawlFileError) {
        self.path = path
        // A FIFO with no reader blocks open(2) until one comes, which a signal must still interrupt.
        let descriptor = InterruptState.process.blocking {
            open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0o666)
        }
        guard descriptor >= 0 else {
            throw CrawlFileError(message: "cannot open the output file '\(path)': \(FileDescriptorIO.reason(errno))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw CrawlFileError(message: "cannot open the output file '\(path)': \(FileDescriptorIO.reason(code))")
        }
        var length = Int64(info.st_size)
        let regular = Int(info.st_mode) & Int(S_IFMT) == Int(S_IFREG)
        if let recorded {
            guard regular else {
                close(descriptor)
                throw CrawlFileError(
                    message: "the output file '\(path)' is not a regular file, so it cannot be cut back to the "
                        + "\(recorded) bytes the state file recorded")
            }
            guard length >= recorded else {
                close(descriptor)
                throw CrawlFileError(
                    message: "the output file '\(path)' holds \(length) bytes, fewer than the \(recorded) the state "
                        + "file recorded: data written earlier was lost. Nothing was changed; restore the file, or "
                        + "remove the state file to start the crawl again.")
            }
            if length > recorded {
                guard ftruncate(descriptor, off_t(recorded)) == 0 else {
                    let code = errno
                    close(descriptor)
                    throw CrawlFileError(
                        message: "cannot cut the output file '\(path)' back to \(recorded) bytes: "
                            + FileDescriptorIO.reason(code))
                }
                length = recorded
            }
        }
        self.descriptor = descriptor
        self.initialLength = length
        self.length = length
    }

    deinit {
        close(descriptor)
    }

    /// How long the file is after everything written so far.
    var currentLength: Int64 { lock.withLock { length } }

    func write(_ bytes: [UInt8]) throws {
        do {
            try FileDescriptorIO.writeAll(descriptor, bytes)
        } catch {
            throw OutputWriteError(
                message: "cannot write to the output file '\(path)': \(FileDescriptorIO.reason(error.code))")
        }
        lock.withLock { length += Int64(bytes.count) }
    }

    /// Puts everything written so far on disk, so that a state recording this length never outlives the data.
    func sync() throws(CrawlFileError) {
        guard fsync(descriptor) == 0 || errno == EINVAL else {
            throw CrawlFileError(
                message: "cannot flush the output file '\(path)' to disk: \(FileDescriptorIO.reason(errno))")
        }
    }
}
