import AtomicCore
import Foundation
import JSONBytes

/// Where a `list --state FILE` crawl stands: the id of the last account written, with `--output FILE` that file's
/// length once its last complete page was written and which file that is, and how the output is written. On disk
/// it is one small JSON object, `{"version":1,"api_url":"https://api.github.com","since":1234,"output_bytes":56789,
/// "output":"/data/users.tsv","format":"tsv"}`, so a person can read it and a script can set it.
///
/// `ListUsersCommand.start` reads it before the first request (its `since` wins over `--since`) and opens the
/// output cut back to `outputBytes`; after each page is written, the coordinator's `pageWritten` checkpoint
/// flushes the output to disk and only then replaces the state (an `OwnedFile`: atomic, 0600, locked), so the
/// state never counts bytes the disk does not hold. docs/USAGE.md says what users see.
struct CrawlState: Sendable, Equatable {
    static let version = 1
    static let kindName = "a gh-users crawl state"

    /// The last account id written: the next run starts after it.
    var since: Int64
    /// The output file's length after the page that ended at `since`; nil when the crawl wrote to stdout.
    var outputBytes: Int64?
    /// The output file `outputBytes` counts, as an absolute path: a run with another `--output` must not cut
    /// that file back to this length.
    var output: String?
    /// How the output so far was written; nil in a state from a gh-users that did not record it.
    var settings: CrawlOutputSettings?
    /// Written before the first page and not since (`"written": false`): the output holds nothing of the crawl,
    /// so a rerun to stdout writes the CSV header it never got. A state without the key has pages under it, or
    /// ran to an end that found no one, having written the header. One at 0 without `"api_url"` as well is a
    /// gh-users's of before 1 December 2026, and taken to have no page under it (every account's id is above 0):
    /// most often one stopped before its first page, which wrote neither key (helper-309: its rerun wrote a CSV
    /// with no header). The same bytes were left by a run of 30 November that found no one at all after 0, whose
    /// rerun to a pipe writes the header again (helper-312); to a file that holds it, `stdoutHolds` keeps it once.
    var beforeFirstPage = false
    /// The API root the crawl reads (`RecordedAPIRoot.of`): another server's accounts are not this crawl's to
    /// go on with. nil in a state from a gh-users that did not record it, which takes the run's.
    var apiURL: String?

    var encoded: [UInt8] {
        var members: [JSONValue.Member] = [.init("version", .integer(Int64(Self.version)))]
        if let apiURL { members.append(.init("api_url", .string(apiURL))) }
        members.append(.init("since", .integer(since)))
        if let outputBytes { members.append(.init("output_bytes", .integer(outputBytes))) }
        if let output { members.append(.init("output", .string(output))) }
        if let settings { members += settings.members }
        if beforeFirstPage { members.append(.init("written", .bool(false))) }
        return JSONValue.object(members).bytes + [UInt8(ascii: "\n")]
    }

    /// The state a file holds, or why it is not one: its own words, for the message that names the file.
    static func decode(_ bytes: [UInt8]) -> Result<CrawlState, FileContentProblem> {
        guard (try? JSONSerialization.jsonObject(with: Foundation.Data(bytes))) is [String: Any] else {
            return .failure(.init("is not a JSON object"))
        }
        // JSONDecoder refuses a boolean, a fraction or a string where a whole number belongs.
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Foundation.Data(bytes)) else {
            return .failure(
                .init(
                    "does not hold \"version\", \"since\" and \"output_bytes\" as whole numbers, \"api_url\", "
                        + "\"output\", \"format\" and \"via\" as strings, \"fields\" as a list of strings and "
                        + "\"full\" and \"written\" as true or false"
                ))
        }
        if let problem = FileContentProblem.version(fields.version, expected: Self.version) { return .failure(problem) }
        guard fields.since >= 0 else { return .failure(.init("has a negative \"since\"")) }
        if let bytes = fields.outputBytes, bytes < 0 { return .failure(.init("has a negative \"output_bytes\"")) }
        var state = CrawlState(since: fields.since, outputBytes: fields.outputBytes, output: fields.output)
        state.beforeFirstPage = fields.written.map { !$0 } ?? (fields.since == 0 && fields.apiURL == nil)
        state.apiURL = fields.apiURL
        // A state without "format" comes from before gh-users recorded how the output is written.
        if let name = fields.format {
            guard let format = OutputFormat(rawValue: name), CrawlOutputSettings.formats.contains(format) else {
                return .failure(.init("has the format \"\(name)\"; a crawl writes tsv, csv or ndjson"))
            }
            guard let via = ProfileSource(rawValue: fields.via ?? ProfileSource.rest.rawValue) else {
                return .failure(.init("has \"via\" \"\(fields.via ?? "")\"; profiles come via rest or graphql"))
            }
            if let problem = FileContentProblem.repeatedField(fields.fields) { return .failure(problem) }
            state.settings = CrawlOutputSettings(
                format: format, fields: fields.fields, full: fields.full ?? false, via: via)
        }
        return .success(state)
    }

    private struct Fields: Decodable {
        let version: Int
        let since: Int64
        let outputBytes: Int64?
        let output: String?
        let format: String?
        let fields: [String]?
        let full: Bool?
        let via: String?
        let written: Bool?
        let apiURL: String?

        enum CodingKeys: String, CodingKey {
            case version, since, output, format, fields, full, via, written
            case outputBytes = "output_bytes"
            case apiURL = "api_url"
        }
    }
}

/// What a crawl's output looks like: its format, `--fields`, and whether it holds full profiles (`--full`) and
/// from where (`--via`). A state records them, so that a rerun cannot append another shape to the same output.
struct CrawlOutputSettings: Sendable, Equatable {
    /// The formats that can be appended to.
    static let formats: [OutputFormat] = [.tsv, .csv, .ndjson]

    var format: OutputFormat
    var fields: [String]?
    var full = false
    var via = ProfileSource.rest

    /// The keys a state holds them under: "fields" only when chosen, "full" and "via" only with --full.
    var members: [JSONValue.Member] {
        var members: [JSONValue.Member] = [.init("format", .string(format.rawValue))]
        if let fields { members.append(.init("fields", .array(fields.map(JSONValue.string)))) }
        if full { members += [.init("full", .bool(true)), .init("via", .string(via.rawValue))] }
        return members
    }

    /// The options that write output like this, as command-line words.
    var arguments: [String] {
        var words = ["--format", format.rawValue]
        if let fields { words += ["--fields", fields.joined(separator: ",")] }
        return words + (full ? ProfileGroup.declared.arguments(ProfileOptions(full: true, via: via)) : [])
    }

    /// What this run's options become to write as `recorded` did: its words, and those this run has that it had
    /// not (`--fields`; `--full` with the options that only go with it), to leave out.
    func remedy(toMatch recorded: CrawlOutputSettings) -> String {
        var without = recorded.fields == nil && fields != nil ? ["--fields"] : []
        if !recorded.full, full { without += ["--full", "--via", "--concurrency"] }
        let words = ShellWord.line(recorded.arguments)
        guard let last = without.popLast() else { return words }
        return words + " and without " + (without.isEmpty ? last : without.joined(separator: ", ") + " and " + last)
    }

    /// How output written with `recorded` differs from this run's, one phrase per difference; empty when the
    /// two write the same.
    func differences(from recorded: CrawlOutputSettings) -> [String] {
        var phrases: [String] = []
        if recorded.format != format {
            phrases.append("--format \(recorded.format.rawValue) where this run has --format \(format.rawValue)")
        }
        if recorded.fields != fields {
            func describe(_ fields: [String]?) -> String {
                fields.map { "--fields " + $0.joined(separator: ",") } ?? "every field"
            }
            phrases.append("\(LocalFileError.held(describe(recorded.fields))) where this run has \(describe(fields))")
        }
        if recorded.full != full {
            phrases.append(
                recorded.full
                    ? "full profiles (--full) where this run writes the list's summaries"
                    : "the list's summaries where this run writes full profiles (--full)")
        } else if full, recorded.via != via {
            phrases.append("--via \(recorded.via.rawValue) where this run has --via \(via.rawValue)")
        }
        return phrases
    }
}

/// Whether a run may go on from a state it read: it must write the same file, or stdout, as the crawl so far, and in
/// the same shape. Each refusal leaves the state and every file as they are, and says how to go on.
struct StateCheck {
    let state: CrawlState
    /// The state file as the user named it.
    let file: String
    /// This run's `--output`, absolute; nil for stdout.
    let output: String?
    /// The same `--output` as an older gh-users recorded it, `..` read as text (`a/ld/../o.tsv` as `a/o.tsv`,
    /// where the kernel wrote the folder above where `ld` leads): a state it wrote names this run's file so.
    var formerly: String? = nil
    let settings: CrawlOutputSettings
    /// The crawl has reached its `--until`: nothing will be written.
    let done: Bool

    func run() throws(LocalFileError) {
        if let bytes = state.outputBytes { try checkOutputFile(bytes: bytes) }
        guard !done else { return }
        guard let recorded = state.settings else {
            try checkOlderState()
            return
        }
        let differences = settings.differences(from: recorded)
        guard differences.isEmpty else {
            throw LocalFileError(
                message: "the state file \(TerminalSanitizer.quotedPath(file)) continues output written with "
                    + differences.joined(separator: "; ") + ". Appending to it would mix the two, so nothing was "
                    + "changed: run it with \(settings.remedy(toMatch: recorded)), or start another crawl with "
                    + "another state file")
        }
    }

    /// A state made against another API root than `now`, this run's (`RecordedAPIRoot.of`), holds another
    /// server's crawl: this run's accounts would go on with it in the same output. Refused before anything is
    /// sent, even for a shard done there; a state without the root (an older gh-users's) takes this run's.
    static func checkAPIRoot(of state: CrawlState, file: String, now: String) throws(LocalFileError) {
        guard let mismatch = RecordedAPIRoot.mismatch(recorded: state.apiURL, now: now) else { return }
        throw LocalFileError(
            message: "the state file \(TerminalSanitizer.quotedPath(file)) \(mismatch). Nothing was changed: resume "
                + "the crawl with the --api-url or GH_HOST it was made with, or start another crawl with another "
                + "state file and output")
    }

    /// The state counts `bytes` of one output file: this run must name that file, since it cuts the file back.
    private func checkOutputFile(bytes: Int64) throws(LocalFileError) {
        guard let output else {
            guard !done else { return }
            let named = state.output.map(TerminalSanitizer.quotedPath) ?? "an output file"
            throw LocalFileError(
                message:
                    "the state file \(TerminalSanitizer.quotedPath(file)) counts the bytes written to \(named), and this run would write "
                    + "to stdout instead. Nothing was changed: give "
                    + (state.output.map { ShellWord.option("output", $0) } ?? "--output FILE")
                    + ", as the crawl so far did")
        }
        guard let recorded = state.output else {
            // A state from before "output" was recorded, or written by hand: which file its length counts is not
            // known, so cutting any file back to it could destroy data.
            let key = String(decoding: JSONValue.object([.init("output", .string(output))]).bytes, as: UTF8.self)
            throw LocalFileError(
                message:
                    "the state file \(TerminalSanitizer.quotedPath(file)) counts \(bytes) bytes of output but does not say of which file, "
                    + "so \(TerminalSanitizer.quotedPath(output)) was left as it is. If they are that file's, add "
                    + "\(key.dropFirst().dropLast()) to the state and run again; otherwise remove the state to "
                    + "start again")
        }
        // The same file however either names it; or the name an older gh-users gave this run's `--output`, which
        // then named no file (where it names one, that one is what the state counts).
        let formerName = recorded == formerly && access(recorded, F_OK) != 0
        guard recorded == output || formerName || FileDescriptorIO.sameFile(recorded, output) else {
            throw LocalFileError(
                message:
                    "the state file \(TerminalSanitizer.quotedPath(file)) counts the bytes of \(TerminalSanitizer.quotedPath(recorded)), not of \(TerminalSanitizer.quotedPath(output)), which "
                    + "was left as it is: give \(ShellWord.option("output", recorded)), or remove the state to start "
                    + "again")
        }
    }

    /// A state from before the format, `--fields`, `--full` and `--via` were recorded takes this run's, but only
    /// while nothing has been written under it; after that, which ones wrote the output is not known.
    private func checkOlderState() throws(LocalFileError) {
        let written = state.outputBytes.map { $0 > 0 } ?? (state.since != 0)
        guard written else { return }
        var upgraded = state
        upgraded.settings = settings
        throw LocalFileError(
            message:
                "the state file \(TerminalSanitizer.quotedPath(file)) does not record the format, --fields and --full of the output it "
                + "continues (an older gh-users wrote it), so this run cannot tell that it writes the same. Nothing "
                + "was changed. If the output so far was written with \(ShellWord.line(settings.arguments)), as "
                + "this run writes it, put this line in the state file and run again: "
                + String(decoding: upgraded.encoded.dropLast(), as: UTF8.self)
                + " (with the options it was written with in place of these, if they were others).")
    }
}

/// The `--state FILE` on disk: read once, before the first request, and replaced after every page (see
/// `OwnedFile` for how it is replaced, locked and found through links).
struct CrawlStateFile: Sendable {
    let file: OwnedFile

    init(path: String) {
        // Far more than any state; stops `--state /dev/zero` from filling memory.
        file = OwnedFile(path: path, kind: "state file", option: "--state", limitBytes: 64 * 1024)
    }

    /// The path as given, for messages.
    var path: String { file.path }

    /// nil when there is no file yet (the crawl starts at `--since`). Anything else that cannot be read as a
    /// state is an error, and the file is left as it is.
    func load() throws(LocalFileError) -> CrawlState? {
        try file.load(
            as: CrawlState.kindName, remedy: "fix it, or remove it to start again from --since.", CrawlState.decode
        )
    }

    /// Replaces the file atomically with `state`.
    func replace(with state: CrawlState) throws(LocalFileError) {
        try file.replace(with: state.encoded)
    }

    /// One run at a time may use a state, so two overlapping nightly runs cannot both append the same page.
    func lock() throws(LocalFileError) -> OwnedFileLock {
        try file.lock()
    }
}
