/// Terminal column widths, counted per code point as `wcwidth` does: wide, fullwidth and emoji-presentation
/// code points take 2 columns; combining marks, format characters (ZWJ included) and controls take 0.
/// A joined emoji therefore counts as the sum of its parts, which over-estimates on terminals that join it,
/// so a row never wraps on any terminal. For the same reason a narrow emoji followed by the emoji presentation
/// selector (U+FE0F: `❤️`, `✔️`, `🕊️`), which terminals draw 2 columns wide, counts 2; after a letter, which
/// has no emoji form, the selector changes nothing. A pictograph whose default is text (`🕊`, `🖥`: East Asian
/// Width neutral) counts 1, as every terminal draws it. A regional indicator counts 1,
/// as wcwidth has it (East Asian Width neutral), so a flag, a pair of them, is the 2 columns of a terminal that
/// joins the pair or counts as wcwidth does; one that draws each indicator 2 wide alone would take 4.
package enum DisplayWidth {
    package static func of(_ text: String) -> Int {
        var total = 0
        var previous: (width: Int, scalar: Unicode.Scalar) = (0, " ")
        for scalar in text.unicodeScalars {
            // Whether the character before has an emoji form is looked up only for a selector, not for every one.
            let selects = scalar.value == 0xFE0F && previous.width == 1 && previous.scalar.properties.isEmoji
            let width = selects ? 1 : of(scalar)
            total += width
            previous = (width, scalar)
        }
        return total
    }

    package static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        if (0x1160...0x11FF).contains(value) { return 0 }  // Hangul medial vowels and final consonants join.
        if (0x1F1E6...0x1F1FF).contains(value) { return 1 }  // Regional indicators: a flag is a pair.
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        // An emoji newer than this Swift's Unicode data (U+1F6D9, Unicode 17): unassigned code points of these
        // blocks are Wide by EastAsianWidth.txt's default.
        let emojiBlock = (0x1F300...0x1F64F).contains(value) || (0x1F680...0x1F6FF).contains(value)
        if emojiBlock, scalar.properties.generalCategory == .unassigned { return 2 }
        return 1
    }

    /// East Asian Wide and Fullwidth blocks, as wcwidth tables list them.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x18D08,
        0x1AFF0...0x1AFFE, 0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
        0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F260...0x1F265,
        // Not 1F300–1F64F and 1F680–1F6FF whole: their Wide code points are those with emoji presentation.
        0x1F7E0...0x1F7EB, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAFF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        if value < 0x1100 { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// Cuts `text` to at most `width` columns, ending in "…" when anything was cut.
    /// Never splits a grapheme cluster, so a combining mark stays with its base.
    package static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        // Combining marks take no column, so a run of them would pass any width whole (helper-326: 400,000 of
        // them made one 800 KB line of stderr): a column holds at most `scalarsPerColumn` scalars, which a
        // family emoji (7 in 8 columns) or a letter with two accents stays well within.
        let (product, overflow) = width.multipliedReportingOverflow(by: scalarsPerColumn)
        let scalars = overflow ? Int.max : product
        if of(text) <= width, text.unicodeScalars.count <= scalars { return text }
        var result = ""
        var (used, usedScalars) = (0, 0)
        for character in text {
            let (characterWidth, count) = (of(String(character)), character.unicodeScalars.count)
            if used + characterWidth > width - 1 || usedScalars + count > scalars - 1 { break }
            result.append(character)
            used += characterWidth
            usedScalars += count
        }
        return result + "…"
    }

    /// How many Unicode scalars a column may hold before `truncate` cuts.
    package static let scalarsPerColumn = 8

    /// Pads `text` with spaces on the right to exactly `width` columns (it must already fit).
    package static func pad(_ text: String, toWidth width: Int) -> String {
        let missing = width - of(text)
        return missing > 0 ? text + String(repeating: " ", count: missing) : text
    }
}
