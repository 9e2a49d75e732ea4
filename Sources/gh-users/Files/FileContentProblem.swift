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

    /// Every file gh-users owns is JSON it wrote, each key once, a few levels deep. One that gives a key twice
    /// would be read as its first value by a `decode` (Foundation's) and as its last by jq: which the user sees is
    /// not the run's. One nested past 64 levels is refused too: the scan for a repeated key stops there, and
    /// Foundation reads on to 512 (a key given twice after a deep value went unseen).
    static func beforeDecoding(_ bytes: [UInt8]) -> FileContentProblem? {
        if bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return FileContentProblem("is empty") }
        if JSONText.flaw(in: bytes) == .tooDeep {
            return FileContentProblem("nests deeper than \(JSONText.maximumDepth) levels")
        }
        return JSONText.repeatedKey(in: bytes).map { FileContentProblem("gives \"\(LocalFileError.held($0))\" twice") }
    }

    /// A state's `fields` naming one twice, which no gh-users writes: the rerun it would ask for is exit 64.
    static func repeatedField(_ fields: [String]?) -> FileContentProblem? {
        Set(fields ?? []).count == fields?.count ?? 0 ? nil : FileContentProblem("names a field twice in \"fields\"")
    }

    /// `decode`'s reading of a file gh-users owns, after the checks every such file gets (`beforeDecoding`). One
    /// it refuses that is another of gh-users's own files (`members --changes` given an access map's snapshot,
    /// `access --state` given one) is said as what it is, with no list of the keys this kind wants, and with no
    /// advice to remove it, which would lose that other run's record.
    static func reading<Value>(
        _ bytes: [UInt8], as what: String, option: String, _ decode: ([UInt8]) -> Result<Value, FileContentProblem>
    ) -> Result<Value, FileContentProblem> {
        let result = beforeDecoding(bytes).map(Result.failure) ?? decode(bytes)
        guard case .failure(let problem) = result, problem.remedy == nil, let other = ownFile(bytes, not: what) else {
            return result
        }
        return .failure(
            FileContentProblem("is \(other), not \(what)", remedy: "give \(option) a file of its own for this run"))
    }

    /// What a file gh-users wrote is, known by the key its kind alone writes (`"people"`, `"accounts"`,
    /// `"access"`, `"after"`, `"since"`); nil for any other file, or for one of the kind `what` (a damaged
    /// one, which its decoder's words describe).
    private static func ownFile(_ bytes: [UInt8], not what: String) -> String? {
        let kinds = [
            ("people", PeopleSnapshot.kindName), ("accounts", FollowSnapshot.kindName),
            ("access", AccessSnapshot.kindName), ("after", AccessState.kindName), ("since", CrawlState.kindName),
        ]
        let keys = JSONText.keys(at: [], in: bytes)
        guard let (key, kind) = kinds.first(where: { keys.contains($0.0) }), kind != what else { return nil }
        if kind == CrawlState.kindName { return "the state of a list crawl" }
        let texts = JSONText.texts(of: ["command", "of", "login"], in: bytes)
        let run = ["gh-users", texts[0], texts[1].isEmpty ? texts[2] : texts[1]].filter { !$0.isEmpty }
        return (key == "after" ? "the state of '" : "the snapshot of '")
            + LocalFileError.held(run.joined(separator: " ")) + "'"
    }
}
