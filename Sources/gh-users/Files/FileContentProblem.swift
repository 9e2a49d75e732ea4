import Foundation
import JSONBytes

/// What is wrong with a file's contents, in words that follow its name ("is not a JSON object").
struct FileContentProblem: Error, Equatable {
    let detail: String
    /// What to do, when it is not the usual remedy for a file that is not of its kind; with it, the message
    /// says only what `detail` says is wrong.
    let remedy: String?

    init(_ detail: String, remedy: String? = nil) {
        self.detail = detail
        self.remedy = remedy
    }

    /// A file of another version than the one this gh-users reads (`expected`); nil when it is that one.
    static func version(_ found: Int, expected: Int) -> FileContentProblem? {
        found == expected ? nil : FileContentProblem("has version \(found); this gh-users reads version \(expected)")
    }

    /// The newest version each kind's decoder reads, and how to say which it reads, for `reading` to know a
    /// newer one's file however its keys changed (helper-312: one with a key renamed was still "not a gh-users
    /// crawl state", to be fixed or removed).
    private static let versions: [String: (newest: Int, reads: String)] = [
        PeopleSnapshot.kindName: (PeopleSnapshot.version, "version \(PeopleSnapshot.version)"),
        AccessSnapshot.kindName: (AccessSnapshot.version, "version \(AccessSnapshot.version)"),
        AccessState.kindName: (AccessState.version, "version \(AccessState.version)"),
        CrawlState.kindName: (CrawlState.version, "version \(CrawlState.version)"),
        FollowSnapshot.kindName: (
            FollowSnapshot.version, "versions \(FollowSnapshot.loginOnlyVersion) and \(FollowSnapshot.version)"
        ),
    ]

    /// A file of `kind` (`versions`) whose `"version"` is a whole number above the newest it reads: `newer`.
    private static func newer(of kind: String, in bytes: [UInt8]) -> FileContentProblem? {
        guard let (newest, reads) = versions[kind],
            let value = JSONText.value(at: ["version"], in: Array(withoutByteOrderMark(bytes))),
            let version = Int(String(decoding: value, as: UTF8.self)), version > newest
        else { return nil }
        return newer(version, reads: reads)
    }

    /// A file of a later version than this gh-users reads (`reads`, "version 1"): a newer gh-users's, left to it.
    /// Fixing or removing it, as the usual remedy says, would lose the crawl or the baseline it records
    /// (helper-309, going back to an older build). `reading` says it for every kind, whatever its decoder says.
    private static func newer(_ found: Int, reads: String) -> FileContentProblem {
        FileContentProblem(
            "has version \(found), which a newer gh-users writes; this one reads \(reads)",
            remedy: "run it with that newer gh-users, or give this run another file")
    }

    /// Every file gh-users owns is JSON it wrote, each key once, a few levels deep. One that gives a key twice
    /// would be read as its first value by a `decode` (Foundation's) and as its last by jq: which the user sees is
    /// not the run's. One nested past 64 levels is refused too: the scan for a repeated key stops there, and
    /// Foundation reads on to 512 (a key given twice after a deep value went unseen).
    /// `notJSON` is where and why the file is not JSON as RFC 8259 writes it, a byte order mark aside: Foundation's
    /// decoder takes more (a comma before a closing bracket, UTF-16), which no gh-users writes and jq refuses.
    static func beforeDecoding(_ bytes: [UInt8]) -> (problem: FileContentProblem?, notJSON: String?) {
        let text = withoutByteOrderMark(bytes)
        if text.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            return (FileContentProblem("is empty"), nil)
        }
        var notJSON: String?
        switch JSONText.flaw(in: text) {
        case .tooDeep?: return (FileContentProblem("nests deeper than \(JSONText.maximumDepth) levels"), nil)
        case .notJSON(let offset, let reason)?:
            notJSON = "is not JSON as RFC 8259 writes it (at byte \(offset + bytes.count - text.count): \(reason))"
        // Unbounded here: a file of one's own is as long as it is.
        case .tooWide?, .tooManyValues?, nil: break
        }
        let repeated = JSONText.repeatedKey(in: bytes).map {
            FileContentProblem("gives \"\(LocalFileError.held($0))\" twice")
        }
        return (repeated, notJSON)
    }

    /// A state's `fields` naming one twice, which no gh-users writes: the rerun it would ask for is exit 64.
    static func repeatedField(_ fields: [String]?) -> FileContentProblem? {
        Set(fields ?? []).count == fields?.count ?? 0 ? nil : FileContentProblem("names a field twice in \"fields\"")
    }

    /// `decode`'s reading of a file gh-users owns, after the checks every such file gets (`beforeDecoding`). A
    /// file that is another of gh-users's own (`members --changes` given an access map's snapshot, `access
    /// --state` given a list crawl's) is said as what it is, with no list of the keys this kind wants, and with no
    /// advice to remove it, which would lose that other run's record.
    static func reading<Value>(
        _ bytes: [UInt8], as what: String, option: String, _ decode: ([UInt8]) -> Result<Value, FileContentProblem>
    ) -> Result<Value, FileContentProblem> {
        let (problem, notJSON) = beforeDecoding(bytes)
        if let problem { return .failure(problem) }
        guard let other = ownFile(bytes, not: what) else {
            let decoded = decode(bytes)
            // A newer gh-users's file of this kind, whatever its keys: a new version may rename them (helper-312).
            if case .failure = decoded, let newer = newer(of: what, in: bytes) { return .failure(newer) }
            // Not begun as gh-users begins its files, `{"version"` (a tsv, ndjson or JSON crawl output given as
            // --state, a token file or a package.json as --changes): someone's data, never to be removed "to start
            // again" (helper-341, helper-342).
            if case .failure(let problem) = decoded, !beginsAsOurs(bytes) {
                return .failure(
                    FileContentProblem(
                        (notJSON ?? problem.detail) + ", so it is not \(what)",
                        remedy: "give \(option) a file of its own (a new name: gh-users makes it)"))
            }
            guard let notJSON else { return decoded }
            // What Foundation cannot read at all (cut short, a stray byte) is said as such and where: the decoder's
            // words listed every key a snapshot holds as missing from one that held them all (helper-267). What it
            // reads (a comma too many) keeps the decoder's words about its contents ("has version 2").
            guard case .success = decoded else {
                let parses = (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) != nil
                return parses ? decoded : .failure(FileContentProblem(notJSON))
            }
            return .failure(
                FileContentProblem(
                    notJSON + ", though the rest of it reads",
                    remedy: "mend it there (a comma before a closing bracket is the usual cause) and run again, and "
                        + "what it records carries on"))
        }
        return .failure(
            FileContentProblem("is \(other), not \(what)", remedy: "give \(option) a file of its own for this run"))
    }

    /// What a file gh-users wrote is, known by the key its kind alone writes beside a numbered `"version"`, and a
    /// `"command"` for all but a list crawl's state; nil for any other file, and for one that holds the key of
    /// the kind `what` (a damaged or a newer one, which its decoder's words describe).
    private static func ownFile(_ bytes: [UInt8], not what: String) -> String? {
        let kinds = [
            ("people", PeopleSnapshot.kindName), ("accounts", FollowSnapshot.kindName),
            ("access", AccessSnapshot.kindName), ("after", AccessState.kindName), ("since", CrawlState.kindName),
        ]
        let text = Array(withoutByteOrderMark(bytes))
        let keys = JSONText.keys(at: [], in: text)
        let texts = JSONText.texts(of: ["version", "command", "of", "login"], in: text)
        // The version a number as written (not `"1"`), the command a string (not `5`).
        let written = (
            JSONText.value(at: ["version"], in: text)?.first, JSONText.value(at: ["command"], in: text)?.first
        )
        guard !kinds.contains(where: { $0.1 == what && keys.contains($0.0) }),
            let (key, kind) = kinds.first(where: { keys.contains($0.0) }), Int(texts[0]) != nil,
            written.0 != UInt8(ascii: "\""), texts[1].isEmpty == (kind == CrawlState.kindName),
            kind == CrawlState.kindName || written.1 == UInt8(ascii: "\"")
        else { return nil }
        if kind == CrawlState.kindName { return "the state of a list crawl" }
        // A follower snapshot's set operation as its option: `followers octocat --mutual`.
        let operation = JSONText.value(at: ["filter"], in: text)?.first == UInt8(ascii: "\"")
        let run =
            ["gh-users", texts[1], texts[2].isEmpty ? texts[3] : texts[2]].filter { !$0.isEmpty }
            + (operation ? ["--" + JSONText.text(of: "filter", in: text)] : [])
        // Its filters as the list's own refusal names them: `members github (role=admin)`. Read in one pass and
        // no more than the 200 characters `held` shows (each takes at least two): a file of 20,000 filters took
        // 16 s when each was looked up from the start.
        let object = JSONText.value(at: ["filters"], in: text) ?? []
        let names = Array(JSONText.keys(at: [], in: object).prefix(101))
        let filters = zip(names, JSONText.texts(of: names, in: object)).map { "\($0)=\($1)" }
        let shown = run.joined(separator: " ") + (filters.isEmpty ? "" : " (" + filters.joined(separator: ", ") + ")")
        return (key == "after" ? "the state of '" : "the snapshot of '") + LocalFileError.held(shown) + "'"
    }

    /// What a file that begins with `start` is when it is one of gh-users's own (`ownFile`). A whole first line
    /// names it: a state is one line, and a snapshot's first line holds all but its entries (it ends in `[`,
    /// closed here to be read). One not whole in `start` (a state's list of 1,000 repositories is longer than
    /// what is read), or not one line (a snapshot `jq .` rewrote, which `--changes` still reads), is known by how
    /// it begins (`beginsAsOwnFile`). `whole`: `start` is all of the file. nil for any other file.
    ///
    /// A whole first line that is no JSON is taken for a rewritten file's only where JSON breaks a line, after
    /// `{`, `[` or `,`: a tsv record whose first column begins `{"version":1,"since":7}` and goes on after a tab
    /// is a record (a review's find: a list in tsv with names first was refused as a state on its second run). A
    /// line that is JSON is read as JSON, as a state whose spaces are tabs is one, unless a tab follows it: that is
    /// a tsv record of a first column alone (reviews' finds: a state with a tab for a space, on one line or
    /// more, was appended to).
    static func ownFile(beginning start: [UInt8], whole: Bool) -> String? {
        let text = withoutByteOrderMark(start)
        guard text.first == UInt8(ascii: "{") else { return nil }
        if let end = text.firstIndex(of: UInt8(ascii: "\n")) ?? (whole ? text.endIndex : nil) {
            var line = Array(text[..<end])
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            let breaks = line.last(where: { $0 != UInt8(ascii: " ") }).map { Array("{[,".utf8).contains($0) }
            if line.last == UInt8(ascii: "[") { line += "]}".utf8 }
            // A tab after the JSON ends a tsv column: a record whose first column is a state's text (a name).
            let tabAfter = line.reversed().prefix { $0 == 0x20 || $0 == 0x09 }.contains(0x09)
            if !tabAfter, JSONText.flaw(in: line) == nil { return ownFile(line, not: "") }
            guard breaks == true else { return nil }
        }
        // A file read whole that is one JSON document, its keys in any order (`jq -S .`), is read as it is.
        if whole, JSONText.flaw(in: Array(text)) == nil, let own = ownFile(Array(text), not: "") { return own }
        return beginsAsOwnFile(text) ? "a file of gh-users's own (it begins as a snapshot or a state does)" : nil
    }

    /// Whether `text` begins as every file of gh-users's own does, spaces and line breaks aside: `{"version":N,`,
    /// the API root (`"api_url":"…",`) or not, then a crawl state's `"since":N` or another kind's `"command":"`.
    /// No record gh-users writes begins so.
    private static func beginsAsOwnFile(_ text: ArraySlice<UInt8>) -> Bool {
        var index = text.startIndex
        func skipSpace() {
            while index < text.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(text[index]) { index += 1 }
        }
        func take(_ literal: String) -> Bool {
            skipSpace()
            guard text[index...].starts(with: literal.utf8) else { return false }
            index += literal.utf8.count
            return true
        }
        func digits() -> Bool {
            skipSpace()
            let first = index
            while index < text.endIndex, (0x30...0x39).contains(text[index]) { index += 1 }
            return index > first
        }
        guard take("{"), take(#""version""#), take(":"), digits(), take(",") else { return false }
        if take(#""api_url""#) {
            guard take(":"), take("\""), let close = text[index...].firstIndex(of: UInt8(ascii: "\"")) else {
                return false
            }
            index = close + 1
            guard take(",") else { return false }
        }
        if take(#""since""#) { return take(":") && digits() }
        return take(#""command""#) && take(":") && take("\"")
    }

    /// Whether `bytes` begin as every file gh-users writes does, `{"version"` (a byte order mark and whitespace
    /// aside): a damaged one of its own does, any other file seldom.
    private static func beginsAsOurs(_ bytes: [UInt8]) -> Bool {
        let text = withoutByteOrderMark(bytes).filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return text.starts(with: Array(#"{"version""#.utf8))
    }

    /// The bytes after a UTF-8 byte order mark, which the decoders read past: an editor may save one.
    private static func withoutByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    }
}
