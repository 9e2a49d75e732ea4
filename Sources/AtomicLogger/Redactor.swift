import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces every registered secret with `***`. Secrets shorter than 4 characters are ignored, since masking
/// them would garble ordinary text without protecting anything.
///
/// A secret is matched byte for byte in UTF-8, never as `Character`s: a secret followed by a combining mark
/// (U+0301) ends in another `Character`, so `String.contains` would not find it while every byte of it is there.
/// `holdsSecret` asks the same of bytes about to be kept (the response cache), so both go by one rule.
package struct Redactor: Sendable {
    package private(set) var secrets: [String]
    /// Each secret's UTF-8, in the order of `secrets`.
    private let patterns: [[UInt8]]
    /// Each secret with how many of its first bytes make a first part that is masked however it ends
    /// (`maskingParts`): half of it, 12 bytes at least, where that is less than all of it.
    private let firstHalves: [(pattern: [UInt8], half: Int)]
    /// Each secret with how long a piece of it is masked wherever it stands (`maskingParts`): half of it, 20 bytes
    /// at least, where that is less than all of it; and the blocks of half that length, end to end from its start,
    /// one of which such a piece holds whole, so they are what is looked for. 20, not 12: a short secret's end may
    /// be a word (the stand-in's `gho_eager-falcon-20` ends in a login's `er-falcon-20`); a real token's pieces
    /// are 20 random letters or more.
    private let pieces: [(pattern: [UInt8], least: Int, blocks: [(first: Int, bytes: [UInt8])])]
    private static let mask = Array("***".utf8)
    private static let ellipsis = Array("…".utf8)

    package init(secrets: [String] = []) {
        self.secrets = secrets.filter { $0.count >= 4 }
        patterns = self.secrets.map { Array($0.utf8) }
        firstHalves = patterns.compactMap { pattern in
            let half = max(12, (pattern.count + 1) / 2)
            return half < pattern.count ? (pattern, half) : nil
        }
        pieces = patterns.compactMap { pattern in
            let least = max(20, (pattern.count + 1) / 2)
            let block = least / 2
            let blocks = stride(from: 0, through: pattern.count - block, by: block).map {
                (first: $0, bytes: Array(pattern[$0..<($0 + block)]))
            }
            return least < pattern.count ? (pattern, least, blocks) : nil
        }
    }

    /// No secret to mask: text passes as it is.
    package var isEmpty: Bool { patterns.isEmpty }

    package func redact(_ text: String) -> String {
        guard !patterns.isEmpty else { return text }
        return redacted(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// `bytes` with every secret replaced by `***`, each secret in turn; nil when they hold none.
    ///
    /// A secret cut short is masked too: gh-users cuts a server's long text (a quoted header, a request id) to
    /// end in `…`, which could leave all but the last bytes of a secret. The first part of a secret, 4 bytes or
    /// more, right before a `…`, becomes `***`; so does a first part of half the secret or more (12 bytes at
    /// least), however it ends and however it is written, and any piece of half of it or more (20 bytes at
    /// least), wherever it begins and ends.
    package func redacted(_ bytes: [UInt8]) -> [UInt8]? {
        var result = bytes
        var changed = false
        for pattern in patterns {
            // As written, then written with escapes (`%67hp_…` in a URL, `\u0067hp_…` in JSON), masked whole.
            changed =
                Self.masking(&result) { bytes, start in
                    Self.firstOffset(of: pattern, in: bytes, from: start).map { $0..<($0 + pattern.count) }
                } || changed
            changed = Self.masking(&result) { Self.escapedRange(of: pattern, in: $0, from: $1) } || changed
        }
        var output: [UInt8] = []
        var copied = 0
        var from = 0
        while let cut = result.withUnsafeBytes({ Self.firstOffset(of: Self.ellipsis, in: $0, from: from) }) {
            let kept =
                patterns.map { pattern in
                    // A part ends at this cut and begins after the one before, unless a `…` is the secret's own: a
                    // server's text of `…` alone took seconds a megabyte, each cut looking back over the others.
                    let floor = pattern.contains(Self.ellipsis[0]) ? 0 : from
                    return max(
                        Self.firstPartLength(of: pattern, endingAt: cut, from: floor, in: result),
                        result.withUnsafeBytes {
                            Self.escapedFirstPartLength(of: pattern, endingAt: cut, from: floor, in: $0)
                        })
                }.max() ?? 0
            if kept > 0 {
                output += result[copied..<(cut - kept)]
                output += Self.mask
                copied = cut
            }
            from = cut + Self.ellipsis.count
        }
        if copied > 0 {
            output += result[copied...]
            result = output
        }
        // After the parts cut by `…`, whose masks end there.
        changed = maskingParts(&result) || changed || copied > 0
        return changed ? result : nil
    }

    /// Masks each first part of a secret, half of it or more, however it ends (a space, `...`, the end): a server
    /// that wrote the token back one byte short showed all but that byte (a review's find); and each piece of it,
    /// half of it or more, wherever it begins and ends (the token without its first byte, or without its first
    /// and last, showed all but those: reviews' finds). Whether it masked one.
    private func maskingParts(_ bytes: inout [UInt8]) -> Bool {
        var changed = false
        for (pattern, half) in firstHalves {
            changed =
                Self.masking(&bytes) { Self.escapedRange(of: pattern, in: $0, from: $1, least: half) } || changed
        }
        for (pattern, least, blocks) in pieces {
            for block in blocks {
                changed =
                    Self.masking(&bytes) { buffer, start in
                        Self.piece(of: pattern, least: least, around: block, in: buffer, from: start)
                    } || changed
            }
        }
        return changed
    }

    /// The next piece of `pattern`, `least` bytes of it or more, that holds `block` whole, at or after `start`:
    /// from as far back as its bytes stand before the block (as written or escaped) to as far on as they stand
    /// after it (escaped, or with something invisible inside, too); nil when there is none.
    private static func piece(
        of pattern: [UInt8], least: Int, around block: (first: Int, bytes: [UInt8]),
        in bytes: UnsafeRawBufferPointer, from start: Int
    ) -> Range<Int>? {
        var from = start
        while let found = escapedRange(of: block.bytes, in: bytes, from: from, least: block.bytes.count) {
            let (end, after, _) = run(
                of: pattern, from: block.first + block.bytes.count, in: bytes, at: found.upperBound)
            var (lower, before) = (found.lowerBound, block.first)
            backward: while before > 0 {
                // The byte before, or an escape that spells it (`%XX`, `\u00XX`, `\/`); else the same past
                // something invisible.
                for past in [false, true] {
                    guard let hidden = past ? hiddenWidth(endingAt: lower, from: start, in: bytes) : 0 else { break }
                    for width in [1, 3, 6, 2] where lower - hidden - width >= start {
                        if let (decoded, spelt) = unescaped(bytes, at: lower - hidden - width), spelt == width,
                            decoded == pattern[before - 1]
                        {
                            (lower, before) = (lower - hidden - width, before - 1)
                            continue backward
                        }
                    }
                }
                break
            }
            if after - before >= least { return lower..<end }
            from = found.lowerBound + 1
        }
        return nil
    }

    /// Replaces each range `next` finds in `bytes` (from an offset on) with `***`; whether it found one.
    private static func masking(
        _ bytes: inout [UInt8], next: (UnsafeRawBufferPointer, Int) -> Range<Int>?
    ) -> Bool {
        var output: [UInt8] = []
        var start = 0
        while let found = bytes.withUnsafeBytes({ next($0, start) }) {
            if output.isEmpty { output.reserveCapacity(bytes.count) }
            output += bytes[start..<found.lowerBound]
            output += Self.mask
            start = found.upperBound
        }
        guard start > 0 else { return false }
        output += bytes[start...]
        bytes = output
        return true
    }

    /// How many bytes of `pattern`'s start, 4 at least and never the whole of it, end at `end` in `bytes`, from
    /// `floor` on; 0 when none do.
    private static func firstPartLength(of pattern: [UInt8], endingAt end: Int, from floor: Int, in bytes: [UInt8])
        -> Int
    {
        var length = min(pattern.count - 1, end - floor)
        while length >= 4 {
            if bytes[(end - length)..<end].elementsEqual(pattern[..<length]) { return length }
            length -= 1
        }
        return 0
    }

    /// As `firstPartLength`, for the first part written with escapes (`%67hp_Secre…`): how many bytes, from the
    /// earliest start whose unescaped text runs exactly to `end` and is 4 bytes or more of `pattern`'s start,
    /// never the whole of it, from `floor` on; 0 when none do.
    private static func escapedFirstPartLength(
        of pattern: [UInt8], endingAt end: Int, from floor: Int, in bytes: UnsafeRawBufferPointer
    ) -> Int {
        // An escape spells a byte in at most 6 (`\u0067`); something invisible between two bytes (as
        // `escapedRange` skips it) may take more, so the window allows 32 a byte, trying only where a byte can begin.
        let first = pattern[0]
        for start in max(floor, end - 32 * (pattern.count - 1))...max(floor, end - 4)
        where start < end && (bytes[start] == first || bytes[start] == percent || bytes[start] == backslash) {
            var (at, matched) = (start, 0)
            while at < end, matched < pattern.count - 1 {
                if matched > 0, let skipped = hiddenWidth(bytes, at: at), at + skipped <= end {
                    at += skipped
                    continue
                }
                guard let (decoded, width) = unescaped(bytes, at: at), at + width <= end, decoded == pattern[matched]
                else { break }
                at += width
                matched += 1
            }
            // The cut may fall inside an escape (`%6…`, `\u006…`): what is before it counts.
            if matched >= 4, at == end || isEscapeStart(bytes, from: at, to: end) { return end - start }
        }
        return 0
    }

    /// Whether `bytes[start..<end]` is the start of an escape cut short: `%` and at most one hex digit, or `\`, or
    /// the start of `\u00XX`, the only `\u` escape the decoder reads (`\u12` is none).
    private static func isEscapeStart(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        guard start < end else { return false }
        let isHex = { (byte: UInt8) in byte < 0x80 && Character(UnicodeScalar(byte)).isHexDigit }
        let rest = bytes[start..<end]
        if rest.first == percent { return rest.count <= 2 && rest.dropFirst().allSatisfy(isHex) }
        guard rest.first == backslash else { return false }
        let zeros = rest.dropFirst(2).prefix(2)
        return rest.count == 1
            || (rest.count <= 5 && rest.dropFirst().first == UInt8(ascii: "u")
                && zeros.allSatisfy { $0 == UInt8(ascii: "0") } && rest.dropFirst(4).allSatisfy(isHex))
    }

    /// Whether `bytes` (an array, a body's `Data`) hold any secret, as it is or written with escapes.
    package func holdsSecret(_ bytes: some ContiguousBytes) -> Bool {
        guard !patterns.isEmpty else { return false }
        return bytes.withUnsafeBytes { buffer in
            patterns.contains { pattern in
                Self.firstOffset(of: pattern, in: buffer, from: 0) != nil
                    || Self.escapedRange(of: pattern, in: buffer, from: 0) != nil
            } || firstHalves.contains { Self.escapedRange(of: $0.pattern, in: buffer, from: 0, least: $0.half) != nil }
                || pieces.contains { pattern, least, blocks in
                    blocks.contains { Self.piece(of: pattern, least: least, around: $0, in: buffer, from: 0) != nil }
                }
        }
    }

    /// Where `pattern` next stands at or after `start` with one of its bytes or more written as an escape a URL
    /// or JSON may use for any byte (`%67`, `\u0067`, `\/`): the range of the text that spells it; nil when it
    /// does not. One pass, trying a start only at the pattern's first byte or an escape.
    /// With `least`, where its first `least` bytes or more stand, as written or not: the range up to its last byte
    /// found (a first part cut short, `maskingParts`).
    private static func escapedRange(
        of pattern: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int, least: Int? = nil
    ) -> Range<Int>? {
        guard let first = pattern.first, let base = bytes.baseAddress else { return nil }
        // The next of each byte a match can begin with, found by `memchr`: every body the cache keeps is walked
        // once a secret piece (`pieces`), and a byte-by-byte walk cost a cold `list --all` 13 % more.
        // Within 4 KiB at a time (where none is, the walk tries there, and fails at once): a search from each of
        // many matches for a byte the text lacks read it to its end each time.
        func next(_ byte: UInt8, from: Int) -> Int {
            let window = min(4096, bytes.count - from)
            guard window > 0 else { return bytes.count }
            guard let hit = memchr(base + from, Int32(byte), window) else { return from + window }
            return base.distance(to: UnsafeRawPointer(hit))
        }
        var (firsts, percents) = (next(first, from: start), next(percent, from: start))
        var backslashes = next(backslash, from: start)
        var offset = min(firsts, percents, backslashes)
        while offset < bytes.count {
            defer {
                if firsts <= offset { firsts = next(first, from: offset + 1) }
                if percents <= offset { percents = next(percent, from: offset + 1) }
                if backslashes <= offset { backslashes = next(backslash, from: offset + 1) }
                offset = min(firsts, percents, backslashes)
            }
            let (found, matched, escaped) = run(of: pattern, from: 0, in: bytes, at: offset)
            if let least, matched >= least { return offset..<found }
            if matched == pattern.count, escaped { return offset..<found }
        }
        return nil
    }

    /// How far `pattern`, from its byte `index` on, stands at `offset` in `bytes`, as written, with escapes, or
    /// with something invisible between two of its bytes: where its last byte found ends (not past something
    /// invisible after it), the index after that byte, and whether any was written other than as itself.
    private static func run(of pattern: [UInt8], from index: Int, in bytes: UnsafeRawBufferPointer, at offset: Int)
        -> (end: Int, next: Int, escaped: Bool)
    {
        var (at, next, escaped, end) = (offset, index, false, offset)
        while next < pattern.count {
            // Something that shows nothing, between two of its bytes, leaves the secret whole to a reader.
            if next > 0, let skipped = hiddenWidth(bytes, at: at) {
                at += skipped
                escaped = true
                continue
            }
            guard let (decoded, width) = unescaped(bytes, at: at), decoded == pattern[next] else { break }
            (at, next, end) = (at + width, next + 1, at + width)
            escaped = escaped || width > 1
        }
        return (end, next, escaped)
    }

    /// Where `pattern` first starts in `bytes` at or after `start`: `memchr` finds each candidate first byte.
    private static func firstOffset(of pattern: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let first = pattern.first, let base = bytes.baseAddress, bytes.count - start >= pattern.count else {
            return nil
        }
        return pattern.withUnsafeBytes { needle in
            var offset = start
            let last = bytes.count - needle.count
            while offset <= last {
                guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else { return nil }
                offset = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + offset, needle.baseAddress!, needle.count) == 0 { return offset }
                offset += 1
            }
            return nil
        }
    }
}
