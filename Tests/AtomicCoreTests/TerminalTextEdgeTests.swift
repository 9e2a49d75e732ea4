import Testing

@testable import AtomicCore

/// Edges of the terminal text rules that no test reached (mutation round 11).
struct TerminalTextEdgeTests {
    /// A control character without a name of its own is shown by its two hex digits, a to f included: SUB
    /// (U+001A) is `\x1a`, never `\x1:` (M11-11).
    @Test func aControlIsShownByBothOfItsHexDigits() {
        #expect(TerminalSanitizer.sanitize("a\u{1A}b\u{1F}c") == "a\\x1ab\\x1fc")
        #expect(TerminalSanitizer.sanitize("x\u{8A}y") == "x\\u{8a}y")
    }

    /// A server's key is quoted in a message when it is one printable word of at most 40 characters; a key with
    /// a space, or a longer one, is described instead (M11-1, M11-2).
    @Test func aPlainWordIsOneWordOfAtMostFortyCharacters() {
        #expect(TerminalSanitizer.isPlainWord(String(repeating: "k", count: 40)))
        #expect(!TerminalSanitizer.isPlainWord(String(repeating: "k", count: 41)))
        #expect(!TerminalSanitizer.isPlainWord("two words"))
        #expect(TerminalSanitizer.isPlainWord("login"))
    }

    /// DEL and the C1 controls take no column, as the C0 ones do (M11-15).
    @Test func deleteAndTheC1ControlsTakeNoColumn() {
        #expect(DisplayWidth.of("a\u{7F}b\u{85}c\u{9B}") == 3)
    }

    /// A Korean syllable written as its conjoining jamo (NFD, as macOS file names and some profiles hold it) is
    /// one wide character, 2 columns: its vowel and final consonant join the initial, so a table pads it as
    /// `한` (M11-18).
    @Test func aHangulSyllableInJamoIsTwoColumnsWide() {
        let decomposed = "\u{1112}\u{1161}\u{11AB}"
        #expect(DisplayWidth.of(decomposed) == DisplayWidth.of("한"))
        #expect(DisplayWidth.of(decomposed) == 2)
        #expect(DisplayWidth.pad(decomposed, toWidth: 4) == decomposed + "  ")
    }
}
