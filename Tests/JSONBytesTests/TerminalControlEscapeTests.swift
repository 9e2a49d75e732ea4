import Foundation
import Testing

@testable import JSONBytes

/// GitHub's bytes re-emitted (`compact`, `pretty`) have the characters a terminal obeys or reorders a line by
/// escaped inside strings, as `appendString` escapes them in JSON gh-users builds: `--json` on a terminal passed
/// a bio's right-to-left override, C1 controls and DEL straight through. The JSON value stays the same.
struct TerminalControlEscapeTests {
    /// Each character escaped, by the escape it comes out as.
    static let escaped: [(String, String)] = [
        ("\u{7F}", #"\u007f"#), ("\u{80}", #"\u0080"#), ("\u{9B}", #"\u009b"#), ("\u{9F}", #"\u009f"#),
        ("\u{202A}", #"\u202a"#), ("\u{202E}", #"\u202e"#), ("\u{2066}", #"\u2066"#), ("\u{2069}", #"\u2069"#),
        ("\u{200E}", #"\u200e"#), ("\u{200F}", #"\u200f"#), ("\u{061C}", #"\u061c"#), ("\u{FEFF}", #"\ufeff"#),
        // A reader that splits lines by Unicode's rules (Python's splitlines) cut an ndjson record at these.
        ("\u{2028}", #"\u2028"#), ("\u{2029}", #"\u2029"#),
    ]

    /// Neighbours sharing a lead byte, and other text beyond ASCII, kept as sent.
    static let kept = [
        "\u{A0}", "\u{A9}", "\u{2027}", "\u{2070}", "\u{2014}", "\u{0627}\u{0644}", "\u{FEFE}", "é", "名前", "🙂",
    ]

    private func compact(_ text: String) -> String {
        var output: [UInt8] = []
        JSONText.compact(Array(text.utf8), into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private func pretty(_ text: String) -> String {
        var output: [UInt8] = []
        JSONText.pretty(Array(text.utf8), into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private func value(_ json: String) throws -> String? {
        (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])?["bio"]
    }

    @Test func eachIsEscapedInCompactAndPrettyAsTheSameString() throws {
        for (character, escape) in Self.escaped {
            let document = "{\"bio\": \"a" + character + "b\"}"
            #expect(compact(document) == "{\"bio\":\"a" + escape + "b\"}", "U+\(character.unicodeScalars.first!.value)")
            #expect(pretty(document) == "{\n  \"bio\": \"a" + escape + "b\"\n}")
            #expect(try value(compact(document)) == "a" + character + "b")
            #expect(try value(pretty(document)) == "a" + character + "b")
            // JSON gh-users builds itself escapes the same characters.
            var built: [UInt8] = []
            JSONText.appendString("a" + character + "b", to: &built)
            #expect(String(decoding: built, as: UTF8.self) == "\"a" + escape + "b\"")
        }
    }

    @Test func otherTextBeyondASCIIIsKeptAsSent() {
        for text in Self.kept {
            #expect(compact("{\"bio\":\"" + text + "\"}") == "{\"bio\":\"" + text + "\"}")
            #expect(pretty("{\"bio\":\"" + text + "\"}") == "{\n  \"bio\": \"" + text + "\"\n}")
        }
    }

    /// A run of them, one after an escaped backslash, one in a key, and a cut-off sequence at the end of a value.
    @Test func runsKeysAndBackslashesAreEscapedToo() throws {
        let document = "{\"k\u{202E}\": \"\\\\\u{202E}\u{202E}\u{85}\u{7F}x\"}"
        let expected = #"{"k\u202e":"\\\u202e\u202e\u0085\u007fx"}"#
        #expect(compact(document) == expected)
        #expect(pretty(document) == #"{\#n  "k\u202e": "\\\u202e\u202e\u0085\u007fx"\#n}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? [String: String]
        #expect(parsed == ["k\u{202E}": "\\\u{202E}\u{202E}\u{85}\u{7F}x"])
        let cutOff = Array(#"{"a":""#.utf8) + [0xE2, 0x80]
        var output: [UInt8] = []
        JSONText.compact(cutOff, into: &output)
        #expect(output == cutOff)
    }
}
