import AtomicCore
import Data
import Domain
import Foundation
import JSONBytes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an `access ORG --state FILE` run stands: which map it is (the organization and the filters), how its
/// output is written, the last repository whose records were written, and what the run so far found. On disk
/// it is one small JSON object, `{"version":1,"api_url":"https://api.github.com","command":"access","of":"my-org",
/// "filters":{},"format":"tsv","after":"my-org/app","repositories":12,"records":340,"unreadable":[],"missing":[],
/// "complete":false}`, replaced after each repository that writes records (one that writes none waits for the
/// next) and when the run ends. `api_url` and `viewer_id` were added without a new version: a state without
/// them (an older gh-users's) goes on, and gets them when next written.
struct AccessState: Equatable {
    static let version = 1
    static let kindName = "a gh-users access state"

    var organization: String
    /// As `AccessSnapshot.filters`: another set of filters is another map.
    var filters: [String: String]
    var format: OutputFormat
    var fields: [String]?
    /// The API root the map is read from (`RecordedAPIRoot.of`); nil in a state written before it was recorded.
    var apiURL: String?
    /// The account id of the token whose view the map is (GraphQL's `viewer`): the repositories it could read,
    /// the two-factor states it was shown. nil before the membership was first read, or in an older state.
    var viewer: Int64?
    /// "ORG/NAME" of the last repository written, in the map's order; nil before the first.
    var after: String?
    /// Repositories written so far, GitHub's refusals among them; not those `missing`, which are not there.
    var repositories = 0
    /// "ORG/NAME" of every repository whose collaborators GitHub refused so far.
    var unreadable: [String] = []
    /// "ORG/NAME" of every repository `--repo` named that was not there.
    var missing: [String] = []
    /// Records written so far: none yet, and CSV's header is still to come.
    var records = 0
    /// The length of the file stdout appends to (`>> FILE`) once those records were written: a rerun compares
    /// what a stop left past it with its own first records (`AccessLeftover`). nil on a pipe, and in a state of
    /// an older gh-users.
    var outputBytes: Int64?
    /// That file's absolute path: a rerun appending to another file (the map's rest in its own) cuts nothing.
    var output: String?
    /// A fingerprint of the bytes just before `outputBytes` (`AccessLeftover.fingerprint`), by which a rerun
    /// knows the file wherever it is now; nil at 0 bytes, and in an older state.
    var outputTail: String?
    /// At 0 bytes, which have no fingerprint, the file's device and inode ("DEV:INO"): renamed, it is still known.
    var outputInode: String?
    /// The map was read to its end.
    var complete = false

    /// The map and the output in words: `access my-org (permission=write) --format tsv`.
    var description: String {
        let shown = filters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "access \(organization)" + (shown.isEmpty ? "" : " (" + shown.joined(separator: ", ") + ")")
    }

    /// How `recorded`'s map or output differs from this run's, one phrase per difference.
    func differences(from recorded: AccessState) -> [String] {
        var phrases: [String] = []
        if recorded.organization.lowercased() != organization.lowercased() || recorded.filters != filters {
            phrases.append(
                "the map of 'gh-users \(LocalFileError.held(recorded.description))', not of 'gh-users \(description)'")
        }
        // How the output is written, worded as a crawl's state words it.
        phrases += CrawlOutputSettings(format: format, fields: fields)
            .differences(from: CrawlOutputSettings(format: recorded.format, fields: recorded.fields))
        return phrases
    }

    var encoded: [UInt8] {
        var members: [JSONValue.Member] = [.init("version", .integer(Int64(Self.version)))]
        if let apiURL { members.append(.init("api_url", .string(apiURL))) }
        if let viewer { members.append(.init("viewer_id", .integer(viewer))) }
        members += [
            .init("command", .string("access")), .init("of", .string(organization)),
            .init("filters", .object(filters.sorted { $0.key < $1.key }.map { .init($0.key, .string($0.value)) })),
            .init("format", .string(format.rawValue)),
        ]
        if let fields { members.append(.init("fields", .array(fields.map(JSONValue.string)))) }
        members += [
            .init("after", after.map(JSONValue.string) ?? .null),
            .init("repositories", .integer(Int64(repositories))),
            .init("records", .integer(Int64(records))),
        ]
        if let outputBytes, let output {
            members += [.init("output_bytes", .integer(outputBytes)), .init("output", .string(output))]
            if let outputTail { members.append(.init("output_tail", .string(outputTail))) }
            if let outputInode { members.append(.init("output_inode", .string(outputInode))) }
        }
        members += [
            .init("unreadable", .array(unreadable.map(JSONValue.string))),
            .init("missing", .array(missing.map(JSONValue.string))), .init("complete", .bool(complete)),
        ]
        return JSONValue.object(members).bytes + [UInt8(ascii: "\n")]
    }

    /// What a state's counts may be: JSON's exact integers.
    static let counts = 0...(Int(1) << 53)

    static func decode(_ bytes: [UInt8]) -> Result<AccessState, FileContentProblem> {
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Foundation.Data(bytes)),
            fields.command == "access"
        else {
            // Another command's file is named before this (`FileContentProblem.reading`).
            return .failure(
                FileContentProblem(
                    "does not hold \"version\" (\(Self.version)), \"api_url\" (a string or absent), \"command\" "
                        + "(\"access\"), \"of\", \"filters\" (an object of strings), \"format\", \"after\", "
                        + "\"repositories\", \"records\", \"unreadable\", \"missing\" and \"complete\", with "
                        + "\"output_bytes\" (a number), \"output\", \"output_tail\" and \"output_inode\" (strings) absent or as said"
                ))
        }
        if let problem = FileContentProblem.version(fields.version, expected: Self.version) { return .failure(problem) }
        guard let format = OutputFormat(rawValue: fields.format), CrawlOutputSettings.formats.contains(format) else {
            return .failure(
                FileContentProblem("has the format \"\(fields.format)\"; it is written as tsv, csv or ndjson"))
        }
        if let problem = FileContentProblem.repeatedField(fields.fields) { return .failure(problem) }
        // No run counts past 2^53 (JSON's exact integers); one past it was tampered with, and adding to it
        // overflowed: the run crashed without a word, its state never advanced, its records written again each run.
        guard !fields.of.isEmpty, counts.contains(fields.repositories), counts.contains(fields.records),
            fields.after.map({ $0.lowercased().hasPrefix(fields.of.lowercased() + "/") }) ?? true,
            (fields.outputBytes ?? 0) >= 0
        else {
            return .failure(
                FileContentProblem(
                    "has an empty \"of\", a \"repositories\" or \"records\" that is negative or past 2^53, a "
                        + "negative \"output_bytes\", or an \"after\" that is not a repository of \"of\" (ORG/NAME)"))
        }
        return .success(
            AccessState(
                organization: fields.of, filters: fields.filters, format: format, fields: fields.fields,
                apiURL: fields.apiURL, viewer: fields.viewer, after: fields.after, repositories: fields.repositories,
                unreadable: fields.unreadable, missing: fields.missing, records: fields.records,
                outputBytes: fields.outputBytes, output: fields.output,
                outputTail: fields.outputTail, outputInode: fields.outputInode, complete: fields.complete))
    }

    private struct Fields: Decodable {
        let version: Int
        let command: String
        let of: String
        let filters: [String: String]
        let format: String
        let fields: [String]?
        let after: String?
        let repositories: Int
        let records: Int
        let unreadable: [String]
        let missing: [String]
        let complete: Bool
        /// Not in a state written before the API root was recorded.
        let apiURL: String?
        /// Not in a state written before the token's account was recorded.
        let viewer: Int64?
        /// Not in a state written before the output's length was recorded, nor on a pipe.
        let outputBytes: Int64?
        let output: String?
        let outputTail: String?
        let outputInode: String?

        enum CodingKeys: String, CodingKey {
            case version, command, of, filters, format, fields, after, repositories, records, unreadable, missing
            case complete
            case apiURL = "api_url"
            case viewer = "viewer_id"
            case outputBytes = "output_bytes"
            case output
            case outputTail = "output_tail"
            case outputInode = "output_inode"
        }
    }
}

/// The `--state FILE` of `access` on disk, locked for the run: read before the first request, written before
/// it, and replaced after each repository's records are written (see `OwnedFile`: atomic, 0600).
struct AccessStateFile {
    let file: OwnedFile
    private(set) var state: AccessState
    /// Past `state`: `count` repositories that wrote nothing, saved with the next that writes, by `saveUnsaved()`,
    /// or once they are a tenth of those read (100 at least), so that a kill loses little of a long run of them.
    private var unsaved: (state: AccessState, count: Int)?
    /// The output holds records of the run so far: no CSV header again.
    let continuesOutput: Bool
    /// What a stop left past the state's records in its file, which this run's first records must begin with
    /// (`goOn`); empty when nothing was left.
    var held: [UInt8] = []
    /// The state as the file held it, which `held` is compared against; nil when nothing was held.
    private(set) var leftover: AccessLeftover?
    /// With another file's bytes held (`guessed`), the note on the state's own, said once they prove not this map's.
    var strayNote: String?
    private let lock: OwnedFileLock

    /// The state file at `path`, as it is opened and locked, and as an output naming it is refused.
    static func file(_ path: String) -> OwnedFile {
        OwnedFile(path: path, kind: "state file", option: "--state", limitBytes: 16 * 1024 * 1024)
    }

    /// The state of this run's map (`fresh`) that `file` holds, nil when there is none yet; one that is none
    /// (another command's, a damaged one) or another map's (another server's, other filters) is said as such.
    static func load(_ file: OwnedFile, for fresh: AccessState) throws(LocalFileError) -> AccessState? {
        let loaded = try file.load(
            as: AccessState.kindName, remedy: "fix it, or remove it to read the map from the start.",
            AccessState.decode)
        guard let loaded else { return nil }
        // Another server's map: its repositories and people are not this run's to go on with.
        if let mismatch = RecordedAPIRoot.mismatch(recorded: loaded.apiURL, now: fresh.apiURL ?? "") {
            throw LocalFileError(
                message: "the state file \(file.shown) \(mismatch). It was left as it is: resume the map "
                    + "with the --api-url or GH_HOST it was made with, or give this run another state file "
                    + "and output")
        }
        let differences = fresh.differences(from: loaded)
        guard differences.isEmpty else {
            throw LocalFileError(
                message: "the state file \(file.shown) continues "
                    + differences.joined(separator: "; ") + ". It was left as it is: give this run another "
                    + "state file, or run it as the map so far was")
        }
        return loaded
    }

    /// The state to go on from, checked against this run's map and output, or the outcome, already said. In
    /// `list --state`'s order: the lock, the state as it is, then a `stdoutFile` that must append (`>>`), since
    /// only a map's state counts what `>` emptied. A map already complete ends the run here, as it ended before.
    static func open(
        _ path: String, as fresh: AccessState, io: IOStreams, stdoutFile: String?
    ) -> Result<AccessStateFile, Stop> {
        let file = Self.file(path)
        do throws(LocalFileError) {
            let lock = try file.lock()
            let loaded = try load(file, for: fresh)
            if let refusal = stdoutFile.map(TerminalSanitizer.quotedPath).flatMap({
                OutputLock.refusal(forStdout: $0, takesOutput: false, stateHeld: loaded != nil)
            }) {
                throw refusal
            }
            var state = loaded ?? fresh
            // What a stop left past the state's records is held, for the first records to match: a kill's cut
            // line is among it. A map's rest appended to another file is said to leave it in the first.
            var (sameOutput, held, now) = (false, [UInt8](), AccessLeftover.stdoutNow())
            var (leftover, strayNote): (AccessLeftover?, String?) = (nil, nil)
            if !state.complete, let recorded = loaded?.outputBytes {
                leftover = AccessLeftover(state: state, recorded: recorded)
                if let stdoutFile, let leftover {
                    sameOutput = try leftover.isStateOutput(stdoutFile, stateShown: file.shown)
                }
                if let stdoutFile, sameOutput, let leftover {
                    held = try leftover.bytes(stdoutFile, stateShown: file.shown)
                } else if let stdoutFile, var guess = leftover, recorded == 0,
                    AppendedOutputCheck.ownFileRefusal("", appendedTo: stdoutFile) == nil
                {
                    // Nothing tells the map's file at 0 bytes copied or moved: another file's bytes are held, kept
                    // where they begin this run's records (`goOn`).
                    guess.guessed = true
                    held = try guess.guessedBytes(stdoutFile, stateShown: file.shown)
                    leftover = guess
                }
                let note = sameOutput ? nil : leftover?.strayNote(stateShown: file.shown, toFile: stdoutFile != nil)
                if held.isEmpty, let note { io.writeErr(note) } else { strayNote = note }
            }
            // A snapshot or another state is no place for records, nor is a last line without its end, which the
            // first record would join (`AppendedOutputCheck.continuedFileRefusal`): a run killed as it wrote left
            // part of the repository after the state's, which the rerun writes again whole. Checked before a
            // complete map ends the run, so a map cut after it was whole is never called done.
            if let stdoutFile, held.isEmpty,
                let refusal = AppendedOutputCheck.continuedFileRefusal(
                    "the file stdout appends to, \(TerminalSanitizer.quotedPath(stdoutFile)),", appendedTo: stdoutFile,
                    remedy: cutRemedy(state, shown: file.shown, recorded: loaded != nil))
            {
                throw refusal
            }
            if state.complete { return .failure(.complete(state, file.shown)) }
            // Read-only, it could not record the first repository: refused before the first request.
            try file.checkWritable()
            // A state from an older gh-users takes this run's root, on disk before the next record.
            state.apiURL = state.apiURL ?? fresh.apiURL
            // The output, another file than the state's or one of a new map, starts at the file's length now (a
            // stop before the first repository cuts it back to that); one that is no file (a pipe) keeps none, as a
            // later rerun into the file would take what went through the pipe to it for a stop's leftover.
            if let stdoutFile {
                // The same file, wherever it is now, keeps its length; another starts at its own.
                if sameOutput { now = AccessLeftover.stdoutNow(before: state.outputBytes) }
                (state.output, state.outputBytes) = (stdoutFile, now.bytes)
                (state.outputTail, state.outputInode) = (now.tail, now.inode)
            } else {
                (state.output, state.outputBytes, state.outputTail, state.outputInode) = (nil, nil, nil, nil)
            }
            // On disk before the first record, so a run that cannot write it stops before anything is written;
            // with bytes held, once they are found to be the first records: a refusal leaves it as it was.
            if loaded != state, held.isEmpty { try file.replace(with: state.encoded) }
            return .success(
                AccessStateFile(
                    file: file, state: state, continuesOutput: state.records > 0, held: held,
                    leftover: held.isEmpty ? nil : leftover, strayNote: strayNote, lock: lock))
        } catch {
            io.writeErr("gh-users: \(error.message)\n")
            return .failure(.setupFailed)
        }
    }

    enum Stop: Error {
        case setupFailed
        /// The state's map was read to its end: nothing is left to write.
        case complete(AccessState, String)
    }

    /// The repository's `records` are written: the next run goes on after it.
    /// `state` changes only once the file holds it: after a failed save it is what the file holds, which a
    /// message names.
    mutating func written(_ repository: String, records: Int, read: AccessRepositoryRead) throws(LocalFileError) {
        var next = unsaved?.state ?? state
        next.after = repository
        // stdout appends to the file the state names (`open` names none for a pipe): its length now.
        if let output = next.output, held.isEmpty {
            let now = try AccessLeftover.stdoutNow(at: output, after: next)
            (next.outputBytes, next.outputTail, next.outputInode) = (now.bytes, now.tail, now.inode)
        }
        // A count stops at the bound, which only a state edited up to it reaches: past it, the next run would
        // refuse the file, and a refusal after the records were written wrote them again on every run.
        let bound = AccessState.counts.upperBound
        next.records = min(next.records + records, bound)
        switch read {
        case .read: next.repositories = min(next.repositories + 1, bound)
        case .refused:
            next.repositories = min(next.repositories + 1, bound)
            next.unreadable.append(repository)
        case .gone: next.missing.append(repository)
        }
        // Another file's bytes still held, past a repository of no records (`goOn`): saved once they are kept,
        // or found to be another file's.
        let count = (unsaved?.count ?? 0) + 1
        if held.isEmpty, records == 0, count < max(100, next.repositories / 10) {
            unsaved = (next, count)
            return
        }
        if held.isEmpty { try file.replace(with: next.encoded) }
        (state, unsaved) = (next, nil)
    }

    /// Saves what `written` left unsaved: before the map closes, and before a stop says where it goes on from.
    mutating func saveUnsaved() throws(LocalFileError) {
        guard let next = unsaved?.state else { return }
        try file.replace(with: next.encoded)
        (state, unsaved) = (next, nil)
    }

    /// The map read to its end had no repository the token could read (`AccessCommand.readsNone`): no map
    /// is recorded, and the same command reads it from its first repository again. Nothing of it was written.
    mutating func restart() throws(LocalFileError) {
        let fresh = AccessState(
            organization: state.organization, filters: state.filters, format: state.format, fields: state.fields,
            apiURL: state.apiURL, viewer: state.viewer, outputBytes: state.outputBytes, output: state.output,
            outputTail: state.outputTail, outputInode: state.outputInode)
        unsaved = (fresh, 0)
        try saveUnsaved()
    }

    /// The map is read with the token of account `viewer`: a state another account's token began is refused as
    /// it is (its records are that account's view, and the rest would be this one's); one that names none takes
    /// this one, on disk before the first record.
    mutating func read(by viewer: Int64?) throws(LocalFileError) {
        guard let viewer, state.viewer != viewer else { return }
        if let recorded = state.viewer {
            throw LocalFileError(
                message: "the state file \(file.shown) continues a map read with the token of account id "
                    + "\(recorded), and this token is account id \(viewer)'s: the two may see the organization "
                    + "differently, and the map would mix them. It was left as it is: resume it with that account's "
                    + "token, or give this run another state file and output")
        }
        var next = state
        next.viewer = viewer
        // With bytes held, the first record saves it: a refusal of them leaves the file as it was.
        if held.isEmpty { try file.replace(with: next.encoded) }
        state = next
    }

    /// GitHub knows no such organization or person: a state that records nothing is removed, so the corrected
    /// command is not refused as another organization's map.
    func discardIfEmpty() {
        guard state.after == nil, state.repositories == 0, state.records == 0, state.unreadable.isEmpty,
            state.missing.isEmpty
        else { return }
        unlink(file.target)
    }

    /// The map was read to its end.
    mutating func finish() throws(LocalFileError) {
        unsaved = (unsaved?.state ?? state, 0)
        unsaved?.state.complete = true
        try saveUnsaved()
    }
}
