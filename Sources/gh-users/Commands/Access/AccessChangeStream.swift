import Foundation

/// What changed from the map FILE recorded to the new one, found a repository at a time as the new map's
/// records arrive, so that neither map is ever held as decoded entries: only the changes are kept, as where
/// their entries are in the two texts (`AccessChangeList`).
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
    /// The changes found, each by its entries' lines: FILE's in its text, the new map's in the new text.
    private var changes: [AccessChange.Found<Range<Int>>] = []
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

    /// Compares the new map's entries of `repository`, whose lines are at `ranges` in `new` (the new map's text
    /// so far), with FILE's, and FILE's repositories before it with none. Where `comparingLines`, a repository
    /// whose lines are FILE's to the byte is not decoded.
    mutating func take(
        _ entries: [AccessSnapshot.Entry], of repository: String, at ranges: [Range<Int>], in new: AccessSnapshotText,
        comparingLines: Bool = true
    ) {
        kept? += entries
        guard var walk = groups, let text = old?.text else { return }
        let name = repository.lowercased()
        // Repositories out of the map's order could miss their match in FILE: the whole maps are compared.
        guard last.map({ $0 < name }) ?? true else { return stopStreaming() }
        last = name
        var before: (entries: [AccessSnapshot.Entry], lines: [Range<Int>]) = ([], [])
        while let group = walk.peeked, group.name <= name {
            walk.advance()
            if group.name == name, comparingLines, Self.unchanged(group, in: text, new: new, ranges, entries) {
                groups = walk
                return
            }
            guard let decoded = text.entries(of: group) else { return stopStreaming() }
            if group.name == name {
                before = (decoded, group.lines)
            } else {
                changes += AccessChange.found(decoded, []).map { $0.map { group.lines[$0] } }
            }
        }
        guard !walk.isMalformed else { return stopStreaming() }
        changes += AccessChange.found(before.entries, entries).map { found in
            AccessChange.Found(
                change: found.change, old: found.old.map { before.lines[$0] }, new: found.new.map { ranges[$0] })
        }
        groups = walk
    }

    /// FILE's lines of the repository are the new ones to the byte, and no account comes twice: nothing
    /// changed, as `between` would find (a person twice over could be compared with their other entry).
    private static func unchanged(
        _ group: AccessSnapshotText.Group, in text: AccessSnapshotText, new: AccessSnapshotText,
        _ ranges: [Range<Int>], _ entries: [AccessSnapshot.Entry]
    ) -> Bool {
        guard group.lines.count == ranges.count, Set(entries.map(\.id)).count == entries.count else { return false }
        return zip(group.lines, ranges).allSatisfy { text.bytes[$0].elementsEqual(new.bytes[$1]) }
    }

    private mutating func stopStreaming() {
        groups = nil
        changes = []
    }

    /// Every change, once the whole new map (`new`, closed) was taken: FILE's repositories after the last new
    /// one are removed. Compared whole where streaming stopped or never began.
    mutating func finish(new: AccessSnapshotText) -> AccessChangeList {
        guard let old else { return AccessChangeList([]) }
        if var walk = groups, let text = old.text {
            while let group = walk.peeked, let decoded = text.entries(of: group) {
                changes += AccessChange.found(decoded, []).map { $0.map { group.lines[$0] } }
                walk.advance()
            }
            if walk.peeked == nil, !walk.isMalformed { return AccessChangeList(changes, old: text, new: new) }
            stopStreaming()
        }
        let before = old.text.map { Self.entries($0) } ?? old.entries
        return AccessChangeList(AccessChange.between(before, kept ?? Self.entries(new)))
    }

    /// The text's entries decoded whole. A text gh-users wrote always decodes; one that did not would have
    /// none.
    private static func entries(_ text: AccessSnapshotText) -> [AccessSnapshot.Entry] {
        (try? AccessSnapshot.decodeWhole(text.bytes).get())?.entries ?? []
    }
}

/// The changes `access --changes` found, in the map's order. Found a repository at a time, each is held as where
/// its entries' lines are in FILE's text and the new one's, and decoded only as it is written: 150,000 changes
/// (an organization's base permission raised) take about 10 MB (64 bytes each), where their decoded entries
/// took about 600 bytes each. Where the whole maps were compared, the changes are held decoded, as they come.
struct AccessChangeList: RandomAccessCollection {
    private enum Storage {
        case decoded([AccessChange])
        /// The changes' lines, in FILE's text (`old`) and the new map's (`new`).
        case held([AccessChange.Found<Range<Int>>], old: [UInt8], new: [UInt8])
    }

    private let storage: Storage

    init(_ changes: [AccessChange]) {
        storage = .decoded(changes)
    }

    init(_ held: [AccessChange.Found<Range<Int>>], old: AccessSnapshotText, new: AccessSnapshotText) {
        storage = .held(held, old: old.bytes, new: new.bytes)
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .decoded(let changes): changes.count
        case .held(let held, _, _): held.count
        }
    }

    subscript(position: Int) -> AccessChange {
        switch storage {
        case .decoded(let changes):
            return changes[position]
        case .held(let held, let old, let new):
            let found = held[position]
            return AccessChange(
                change: found.change, found.new.flatMap { Self.entry(new, $0) },
                old: found.old.flatMap { Self.entry(old, $0) })
        }
    }

    /// An entry line of a text gh-users wrote: FILE's were each checked to decode and write back the same
    /// (`AccessSnapshotText.read`), the new map's were written from their entries.
    private static func entry(_ bytes: [UInt8], _ line: Range<Int>) -> AccessSnapshot.Entry? {
        if let entry = AccessSnapshot.Entry(scanning: bytes, in: line)
            ?? (try? JSONDecoder().decode(AccessSnapshot.Entry.self, from: Foundation.Data(bytes[line])))
        {
            return entry
        }
        assertionFailure("an entry line gh-users wrote or checked does not decode")
        return nil
    }
}
