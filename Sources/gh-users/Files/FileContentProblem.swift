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
        if JSONText.flaw(in: bytes) == .tooDeep {
            return FileContentProblem("nests deeper than \(JSONText.maximumDepth) levels")
        }
        return JSONText.repeatedKey(in: bytes).map { FileContentProblem("gives \"\(LocalFileError.held($0))\" twice") }
    }

    /// A state's `fields` naming one twice, which no gh-users writes: the rerun it would ask for is exit 64.
    static func repeatedField(_ fields: [String]?) -> FileContentProblem? {
        Set(fields ?? []).count == fields?.count ?? 0 ? nil : FileContentProblem("names a field twice in \"fields\"")
    }
}
