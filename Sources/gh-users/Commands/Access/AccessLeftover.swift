import AtomicCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a resumed `access --state` map finds in the file stdout appends to (`>> FILE`) past the length the state
/// recorded (`output_bytes`): the records a stop left between writing a repository and saving the state, which
/// the rerun reads again. Nothing is cut on a guess. The rerun holds those bytes and compares them with the
/// first it writes: its own records of that repository begin with them to the byte, and only the rest is
/// written after them; anything else (another run's lines, a note, records GitHub has changed since) stops the
/// run with nothing written and the file and the state as they were.
///
/// The file is known by its content: `output_tail`, a fingerprint of the bytes just before the recorded length,
/// finds it renamed, copied or moved to another disk; a file at the recorded path without them lost or changed
/// what the state counts. At 0 bytes there is no content to know it by: the file is the state's at its path with
/// its device and inode (`output_inode`), and another file's bytes (the map's copied, moved to another disk,
/// renamed) are kept only where they begin this run's records, else it is another output (`guessed`).
struct AccessLeftover {
    let state: AccessState
    /// `output_bytes`: the file's length once the records the state counts were written.
    let recorded: Int64
    /// At 0 bytes, stdout's file is not the state's (`isStateOutput`), and its bytes are held only to be kept if
    /// they begin this run's records: any others are another file's, after which the map starts.
    var guessed = false
    /// More than one repository's records of 100,000 people: no stop's leftover.
    static let most: Int64 = 256 << 20
    /// How many bytes before a recorded length its fingerprint covers.
    static let tailBytes: Int64 = 4_096

    /// FNV-1a (64 bits) of the up to `tailBytes` bytes before `length` of the file open on `descriptor`, in
    /// hexadecimal; nil for an empty file (nothing before 0 tells one file from another), or one that cannot be
    /// read.
    static func fingerprint(_ descriptor: Int32, before length: Int64) -> String? {
        let start = max(length - tailBytes, 0)
        guard length > 0, let bytes = FileDescriptorIO.read(descriptor, from: start, upTo: Int(length - start)),
            bytes.count == Int(length - start)
        else { return nil }
        let hash = bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// Whether stdout's file, at `path`, is the output the state records: by its content where the state has a
    /// fingerprint (renamed, copied or moved to another disk, it is; another file at its path, empty or not, is
    /// not). At 0 bytes, by its path and its device and inode (in an older state by its path alone). Throws when
    /// it is at that path but no longer holds what the state counts. (Device and inode alone would not do: a
    /// removed file's inode is reused.)
    func isStateOutput(_ path: String, stateShown: String) throws(LocalFileError) -> Bool {
        let named = state.output == path
        let length = Self.length()
        let same =
            recorded > 0
            ? state.outputTail.map { Self.fingerprint(Self.reader, before: recorded) == $0 } ?? named
            : named && (state.outputInode.map { $0 == Self.identity(of: nil) } ?? true)
        let held = length >= recorded && same
        guard !held, named, recorded > 0 else { return held }
        throw LocalFileError(
            message: "the file stdout appends to, \(TerminalSanitizer.quotedPath(path)), "
                + (length < recorded
                    ? "holds \(length) bytes, fewer than the \(recorded) the state file \(stateShown) records"
                    : "no longer holds, before its byte \(recorded), the records the state file \(stateShown) counts")
                + ": records written before were lost or changed. Both were left as they are: restore the file, "
                + "append the rest of the map to another file (>> OTHER), or remove both to read the map again")
    }

    /// A note when this run writes the map's rest to another file (`toFile`), a pipe or the terminal, while the
    /// state's own file, still at its recorded path, holds bytes a stop left past what the state counts: this
    /// run writes them again. The cut that removes them is named only where this run's records go to a file of
    /// their own (a pipe's may go on into that file: `| tee -a`).
    func strayNote(stateShown: String, toFile: Bool) -> String? {
        guard let path = state.output else { return nil }
        // Not waiting on a FIFO someone left at the path, with the state locked.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int64(info.st_size) > recorded,
            recorded > 0
                ? state.outputTail != nil && Self.fingerprint(descriptor, before: recorded) == state.outputTail
                : state.outputInode != nil && Self.identity(of: info) == state.outputInode
        else { return nil }
        return TerminalSanitizer.sanitize(
            "gh-users: \(TerminalSanitizer.quotedPath(path)), where the state file \(stateShown) counts the map so "
                + "far, holds \(Int64(info.st_size) - recorded) bytes past it that a stop left, which this run writes "
                + (!toFile
                    ? "again: the map up to the stop is its first \(recorded) bytes."
                    // At 0 bytes the file is known by its inode alone, which a new file may have taken.
                    : recorded == 0
                        ? "again here, if the stopped run wrote them: then remove them from it."
                        : "again here: remove them from it (truncate -s \(recorded) \(ShellWord.quote(path)))."))
            + "\n"
    }

    /// The bytes past the recorded length of stdout's file (the state's output), which the first records the
    /// run writes must begin with; empty when there are none. One whose length falls inside a line, or past
    /// which lie more bytes than a repository's records, is refused as it is.
    func bytes(_ path: String, stateShown: String) throws(LocalFileError) -> [UInt8] {
        let length = Self.length()
        guard length > recorded else { return [] }
        let last =
            recorded == 0 ? UInt8(ascii: "\n") : FileDescriptorIO.read(Self.reader, from: recorded - 1, upTo: 1)?.first
        let problem =
            length - recorded > Self.most
            ? "they are \(length - recorded) bytes, more than one repository's records can be"
            : last != UInt8(ascii: "\n") ? "the recorded length falls inside a line" : nil
        guard problem == nil, let bytes = FileDescriptorIO.read(Self.reader, from: recorded) else {
            throw refusal(path, stateShown: stateShown, length: length, reason: problem ?? "they cannot be read")
        }
        return bytes
    }

    /// The run's refusal of the `length - recorded` bytes past the recorded length, for `reason`.
    func refusal(_ path: String, stateShown: String, length: Int64, reason: String) -> LocalFileError {
        LocalFileError(
            message:
                "the file stdout appends to, \(TerminalSanitizer.quotedPath(path)), holds \(length) bytes, more than the \(recorded) the state file \(stateShown) "
                + "records, and the \(length - recorded) bytes past them are not the records this run reads "
                + "again: \(reason). Nothing was written, and both were left as they are. If those bytes are the "
                + "stopped run's (GitHub's answer changed since) or not wanted, cut the file back to \(recorded) "
                + "bytes (truncate -s \(recorded) \(ShellWord.quote(path))), then run again; otherwise give this run another state file "
                + "and output")
    }

    /// Another file's bytes (`guessed`), held to be kept where they begin this run's records; none where they are
    /// more than a repository's records could be (another file, then). One that cannot be read is refused: it may
    /// be the map's start, copied.
    func guessedBytes(_ path: String, stateShown: String) throws(LocalFileError) -> [UInt8] {
        let length = Self.length()
        guard length > 0, length <= Self.most else { return [] }
        guard let bytes = FileDescriptorIO.read(Self.reader, from: 0), bytes.count == Int(length) else {
            throw LocalFileError(
                message: "the file stdout appends to, \(TerminalSanitizer.quotedPath(path)), cannot be read, so this "
                    + "run cannot tell whether it begins with the map the state file \(stateShown) counts (copied) or "
                    + "is another file. Nothing was asked, and both were left as they are: make it readable, or "
                    + "append to another file")
        }
        return bytes
    }

    /// The refusal of another file (`guessed`) whose bytes begin with this run's first line but not with its
    /// first records.
    func copiedRefusal(_ path: String, stateShown: String) -> LocalFileError {
        LocalFileError(
            message: "the file stdout appends to, \(TerminalSanitizer.quotedPath(path)), is not the one the state "
                + "file \(stateShown) names, and begins with this run's first line but not with its first records: "
                + "it may be the stopped map's start, copied here before GitHub's answer changed. Nothing was "
                + "written, and both were left as they are: if it is, remove those bytes from it (the state counts "
                + "none of them); if it is another file, append to it with another state file")
    }

    /// The refusal of another file (`guessed`) whose bytes are not this run's first records, ending inside a
    /// line that the map's first record would join.
    func unendedRefusal(_ path: String) -> LocalFileError {
        LocalFileError(
            message: "the file stdout appends to, \(TerminalSanitizer.quotedPath(path)), is not the one the state "
                + "names, and ends inside a line (its last byte is no line end) that is not this run's first "
                + "records: this run's first record would join it. Nothing was written, and both were left as they "
                + "are: end or remove that line, or append to another file")
    }

    /// The first bytes the run writes, `first`, begin with the `held` bytes the stop left, of `repository` (nil
    /// when the map had no more records to write): the rest of `first` to write after them, or the refusal.
    func rest(of first: [UInt8]?, held: [UInt8], repository: String?, path: String, stateShown: String) -> Result<
        ArraySlice<UInt8>, LocalFileError
    > {
        if let first, first.starts(with: held) { return .success(first[held.count...]) }
        let named = repository.map { TerminalSanitizer.sanitize($0) }
        let reason =
            first == nil
            ? named.map {
                "this run has no records to write of \($0), which follows the last repository the state counts"
            }
                ?? "this run has no records to write after the last repository the state counts"
            : "they differ from this run's records of \(named ?? "the next repository"), the repository after the last "
                + "one the state counts"
        return .failure(
            refusal(path, stateShown: stateShown, length: recorded + Int64(held.count), reason: reason))
    }

    /// The descriptor stdout's file is read through.
    private static var reader: Int32 { OutputLock.stdoutReader.descriptor ?? STDOUT_FILENO }

    /// The length of stdout's file now: 0 where it cannot be told.
    private static func length() -> Int64 {
        var info = stat()
        return fstat(STDOUT_FILENO, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// The regular file stdout appends to, as a state records it: its length (or `before`, a length the state
    /// keeps), the fingerprint of the bytes before that length, and at 0 bytes its device and inode; nil what
    /// cannot be told.
    static func stdoutNow(before kept: Int64? = nil) -> (bytes: Int64?, tail: String?, inode: String?) {
        var info = stat()
        guard fstat(STDOUT_FILENO, &info) == 0 else { return (kept, nil, nil) }
        let bytes = kept ?? Int64(info.st_size)
        return (bytes, fingerprint(reader, before: bytes), bytes == 0 ? identity(of: info) : nil)
    }

    /// As `stdoutNow()`, once `path`, the file the state names, is found to be stdout's still, at the `recorded`
    /// bytes or more: a file replaced while the map was written (`sed -i`, `mv`) had every later record go where
    /// no state finds it, and the state then said the map was whole (helper-343's find 1).
    /// A file cut and written over past that length (`cat other > FILE`) no longer holds the bytes the state's
    /// `output_tail` fingerprints, and stops the map too (helper-347's Q2).
    static func stdoutNow(at path: String, after state: AccessState) throws(LocalFileError) -> (
        bytes: Int64?, tail: String?, inode: String?
    ) {
        let recorded = state.outputBytes
        var departure = FileDescriptorIO.departure(of: path, from: STDOUT_FILENO, length: recorded)
        if departure == nil, let recorded, let tail = state.outputTail, let now = fingerprint(reader, before: recorded),
            now != tail
        {
            departure = "was written over before the \(recorded) bytes the state counts"
        }
        if let departure {
            var error = LocalFileError(
                message: CrawlOutputFile.departed(TerminalSanitizer.quotedPath(path), departure, stopped: "map").message
            )
            error.resumable = false
            throw error
        }
        return stdoutNow()
    }

    /// "DEV:INO" of a regular file's `info`, or of stdout's when nil.
    static func identity(of info: stat?) -> String? {
        var now = stat()
        guard let info = info ?? (fstat(STDOUT_FILENO, &now) == 0 ? now : nil), info.st_mode & S_IFMT == S_IFREG
        else { return nil }
        return "\(UInt64(info.st_dev)):\(UInt64(info.st_ino))"
    }
}

/// An `access --state` rerun whose first records do not begin with the bytes a stop left past the state
/// (`AccessLeftover`): nothing was written, and the map stops, exit 1.
struct AccessLeftoverRefusal: Error {
    let message: String
}

extension AccessStateFile {
    /// The bytes this run writes first, `first` (nil when it has none to write for `repository`, or none at all
    /// after the state's last one), checked against what a stop left past the state: the rest to write after
    /// them, said on stderr, or the refusal. `first` itself while nothing was left.
    mutating func goOn(
        with first: [UInt8]?, of repository: String?, io: IOStreams, path: String?
    ) throws(AccessLeftoverRefusal) -> ArraySlice<UInt8> {
        guard !held.isEmpty, let path, let leftover else { return first?[...] ?? [] }
        let result = leftover.rest(of: first, held: held, repository: repository, path: path, stateShown: file.shown)
        // Another file's bytes that are not this run's records: the map starts after them, on a line of its own.
        if leftover.guessed, case .failure = result {
            // A repository of no records tells nothing yet: the next one's, or what ends the map, will.
            if first == nil, repository != nil { return [] }
            guard held.last == UInt8(ascii: "\n") else {
                throw AccessLeftoverRefusal(message: leftover.unendedRefusal(path).message)
            }
            // Bytes that begin with this run's first line (csv's header, its first record) are the map's start
            // copied here, read again after GitHub's answer changed: refused, as the map's own file's would be.
            if let first, let end = first.firstIndex(of: UInt8(ascii: "\n")), held.starts(with: first[...end]) {
                throw AccessLeftoverRefusal(message: leftover.copiedRefusal(path, stateShown: file.shown).message)
            }
            // Another file: the state names it, at its length now, before the map is written after what it holds.
            do throws(LocalFileError) {
                try file.replace(with: state.encoded)
            } catch {
                throw AccessLeftoverRefusal(message: error.message)
            }
            held = []
            if let strayNote { io.writeErr(strayNote) }
            return first?[...] ?? []
        }
        switch result {
        case .success(let rest):
            // Where the state on disk stands: a guess may have passed repositories of no records unsaved.
            let place = leftover.state.after.map { "the records of \($0)" } ?? "the map's start"
            io.writeErr(
                TerminalSanitizer.sanitize(
                    "gh-users: the last \(held.count) bytes of \(TerminalSanitizer.quotedPath(path)), written past "
                        + "\(place) by the run that stopped, are this run's first records to the byte: kept, and "
                        + "the map goes on after them.") + "\n")
            held = []
            return rest
        case .failure(let refusal):
            throw AccessLeftoverRefusal(message: refusal.message)
        }
    }
}

extension AccessStateFile {
    /// What to remove from a map that ends inside a line so that the rerun appends to it whole: what follows the
    /// last repository the state records, all of it where the state records none, or, where the state records
    /// the map as whole, the map and the state (the file was cut after that run ended).
    static func cutRemedy(_ state: AccessState, shown: String, recorded: Bool) -> String {
        guard recorded else { return "the unfinished last line" }
        if state.complete {
            return "both it and the state file \(shown), whose map was read to its end (the file was cut after that "
                + "run wrote it whole; the rerun writes the map again)"
        }
        guard let after = state.after else {
            return "all that the interrupted run wrote, a csv header too (its state records no repository yet, so "
                + "the rerun writes the map from its first repository)"
        }
        return "what follows the records of \(TerminalSanitizer.sanitize(after)), the last repository the state "
            + "records (the rerun writes the next one whole)"
    }

    /// Whether stderr goes to stdout's file `stdoutFile` too (`>> FILE 2>&1`), which would put the run's messages
    /// among the records: refused before anything is asked or the token checked, and said on the terminal. With
    /// none (cron, `setsid`), it goes into the file only where the next run is sure to refuse it, a map stopped
    /// whose state at `statePath` counts that file's bytes; elsewhere it would stay among the records unseen.
    static func sharesStderr(_ statePath: String, stdoutFile: String?, io: IOStreams) -> Bool {
        guard let stdoutFile,
            let refusal = OutputLock.stderrRefusal(forStdout: TerminalSanitizer.quotedPath(stdoutFile))
        else { return false }
        let line = "gh-users: \(refusal.message)"
        guard !OutputLock.tellTerminal(line) else { return true }
        let loaded = try? file(statePath).load(as: AccessState.kindName, remedy: "", AccessState.decode)
        if let state = loaded ?? nil, !state.complete, let recorded = state.outputBytes,
            (try? AccessLeftover(state: state, recorded: recorded).isStateOutput(stdoutFile, stateShown: "")) == true
        {
            io.writeErr(line + "\n")
        }
        return true
    }
}
