import Foundation
import JSONBytes
import TestSupport
import Testing

/// Reading a string member for a table, tsv, csv or `--fields` cell: exact, and with work linear in its escapes.
struct UnescapeTests {
    @Test func everyEscapeIsResolved() {
        let literal = #""a\"b\\c\/d\n\r\t\b\f\u00e9\u4e2d\ud83d\ude00 \ud800x \u12g4 é""#
        #expect(
            JSONText.unescapeString(Array(literal.utf8))
                == "a\"b\\c/d\n\r\t\u{08}\u{0C}é中😀 \u{FFFD}x \u{FFFD}12g4 é")
    }

    @Test func aCellOfALargeEscapedMessageIsReadExactly() {
        let record = Array(#"{"message":"#.utf8) + Array(#""line\nnext\t\"q\"""#.utf8) + Array("}".utf8)
        #expect(JSONText.text(of: "message", in: record) == "line\nnext\t\"q\"")
    }

    /// A hovercard message or a bio of N escapes between runs of text (8 MB with 50,000 `\\n` took 13 s in tsv):
    /// read exactly, with heap bytes linear in the text (`AllocationCount`). Appending each escape to a
    /// `String.UnicodeScalarView`, as before, copied the text so far every time: about N²/2 times 160 bytes, some
    /// hundreds of bytes per byte of text for the 2,000 escapes here.
    @Test(arguments: [#"\n"#, #"\u00e9"#])
    func unescapingGrowsLinearly(escape: String) throws {
        let count = 2_000
        let unit = String(repeating: "x", count: 160) + escape
        let record =
            Array(#"{"message":""#.utf8) + Array(String(repeating: unit, count: count).utf8) + Array(#""}"#.utf8)
        var text = ""
        let counted = try AllocationCount.during { text = JSONText.text(of: "message", in: record) }
        let resolved = String(repeating: "x", count: 160) + (escape == #"\n"# ? "\n" : "é")
        #expect(text == String(repeating: resolved, count: count))
        #expect(counted.bytes / record.count <= 16, "reading \(record.count) bytes allocated \(counted)")
    }
}
