import Foundation
import JSONBytes
import TestSupport
import Testing

/// Reading a string member for a table, tsv, csv or `--fields` cell: exact, and in time linear in its escapes.
@Suite(.serialized) struct UnescapeTests {
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
    /// 8 times the text must take about 8 times as long, not 64.
    @Test(arguments: [#"\n"#, #"\u00e9"#])
    func unescapingGrowsLinearly(escape: String) {
        func record(_ count: Int) -> [UInt8] {
            let unit = String(repeating: "x", count: 160) + escape
            return Array(#"{"message":""#.utf8) + Array(String(repeating: unit, count: count).utf8) + Array(#""}"#.utf8)
        }
        let small = record(3_000)
        let large = record(24_000)
        let ratio = Growth.ratio(
            small: { _ = JSONText.text(of: "message", in: small) },
            large: { _ = JSONText.text(of: "message", in: large) })
        #expect(ratio < 32, "8 times the text took \(ratio) times as long")
    }
}
