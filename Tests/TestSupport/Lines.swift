extension String {
    /// The text's lines, split at each LF byte, as `split(separator: "\n")` splits text without CR LF: that one
    /// compares every `Character`, which cost the end-to-end suites seconds of CPU over crawls' outputs. A CR
    /// before an LF stays in its line (where `Character`s would not split CR LF at all), so CSV is not for this.
    package func lines(omittingEmpty: Bool = true) -> [Substring] {
        utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: omittingEmpty).map { Substring($0) }
    }
}
