/// What changed from the map FILE recorded to the new one, found a repository at a time as the new map's
/// records arrive, so that neither map is ever held as decoded entries: only the changes are kept.
///
/// The new map comes repository by repository in the map's order (`AccessRecordSink`), and a file gh-users
/// wrote holds its entries in the same order, one a line (`AccessSnapshotText`). Each new repository is
/// compared with the file's entries of the same repository (case aside), decoded then and let go; the file's
/// repositories before it that the new map does not have are removed whole. A person's key holds the
/// repository (`Entry.key`), so no change crosses from one repository to another, and each repository's
/// changes, sorted as `AccessChange.between` sorts them, come out in the map's order: the result is what
/// `between` gives for the whole maps.
///
/// Where the file is not as gh-users writes it, or not in the map's order (hand-edited, an older order), or the
/// new map's repositories came in another order, the whole maps are compared as they always were (`finish`).
struct AccessChangeStream {
    /// FILE's map; nil on the first run.
    private let old: AccessSnapshot?
    /// FILE's repositories not yet compared; nil where the whole maps are compared.
    private var groups: AccessSnapshotText.Groups?
    /// The last new repository taken, in lower case.
    private var last: String?
    private var changes: [AccessChange] = []
    /// The new map's entries, kept where FILE is compared whole from the start (it was decoded whole), as they
    /// were before its text was kept: the whole comparison then needs no more memory than it did.
    private var kept: [AccessSnapshot.Entry]?

    init(old: AccessSnapshot?) {
        self.old = old
        groups = old?.text?.groups
        kept = old != nil && groups == nil ? [] : nil
    }

    /// Whether the changes are found a repository at a time (else the whole maps are compared at the end).
    var isStreaming: Bool { groups != nil }

    /// Compares the new map's entries of `repository` with FILE's, and FILE's repositories before it with none.
    /// `lines`, the entries' lines in the new text where the caller has them, spare decoding FILE's where they are
    /// the same.
    mutating func take(_ entries: [AccessSnapshot.Entry], of repository: String, lines: [[UInt8]]? = nil) {
        kept? += entries
        guard var walk = groups, let text = old?.text else { return }
        let name = repository.lowercased()
        // Repositories out of the map's order could miss their match in FILE: the whole maps are compared.
        guard last.map({ $0 < name }) ?? true else { return stopStreaming() }
        last = name
        var before: [AccessSnapshot.Entry] = []
        while let group = walk.peeked, group.name <= name {
            walk.advance()
            if group.name == name, let lines, Self.unchanged(group, in: text, lines: lines, entries) {
                groups = walk
                return
            }
            guard let decoded = text.entries(of: group) else { return stopStreaming() }
            if group.name == name {
                before = decoded
            } else {
                changes += AccessChange.between(decoded, [])
            }
        }
        guard !walk.isMalformed else { return stopStreaming() }
        changes += AccessChange.between(before, entries)
        groups = walk
    }

    /// FILE's lines of the repository are the new ones to the byte, and no account comes twice: nothing
    /// changed, as `between` would find (a person twice over could be compared with their other entry).
    private static func unchanged(
        _ group: AccessSnapshotText.Group, in text: AccessSnapshotText, lines: [[UInt8]],
        _ entries: [AccessSnapshot.Entry]
    ) -> Bool {
        guard group.lines.count == lines.count, Set(entries.map(\.id)).count == entries.count else { return false }
        return zip(group.lines, lines).allSatisfy { text.bytes[$0].elementsEqual($1) }
    }

    private mutating func stopStreaming() {
        groups = nil
        changes = []
    }

    /// Every change, once the whole new map (`new`, closed) was taken: FILE's repositories after the last new
    /// one are removed. Compared whole where streaming stopped or never began.
    mutating func finish(new: AccessSnapshotText) -> [AccessChange] {
        guard let old else { return [] }
        if var walk = groups, let text = old.text {
            while let group = walk.peeked, let decoded = text.entries(of: group) {
                changes += AccessChange.between(decoded, [])
                walk.advance()
            }
            if walk.peeked == nil, !walk.isMalformed { return changes }
            stopStreaming()
        }
        let before = old.text.map { Self.entries($0) } ?? old.entries
        return AccessChange.between(before, kept ?? Self.entries(new))
    }

    /// The text's entries decoded whole. A text gh-users wrote always decodes; one that did not would have
    /// none.
    private static func entries(_ text: AccessSnapshotText) -> [AccessSnapshot.Entry] {
        (try? AccessSnapshot.decodeWhole(text.bytes).get())?.entries ?? []
    }
}
