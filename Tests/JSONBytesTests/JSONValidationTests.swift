import TestSupport
import Testing

@testable import JSONBytes

/// `JSONText.flaw(in:)`: what RFC 8259 and RFC 3629 refuse, each at the byte where it starts, and what they
/// allow, which GitHub sends.
struct JSONValidationTests {
    private func flaw(_ bytes: [UInt8]) -> JSONText.Flaw? { JSONText.flaw(in: bytes) }

    private func flaw(_ text: String) -> JSONText.Flaw? { flaw(Array(text.utf8)) }

    @Test(arguments: [
        #"[]"#, #"{}"#, " [ ] \n", #"[{"login":"octocat","id":1,"site_admin":false,"bio":null}]"#,
        #"{"a":[1,-0,0.5,-1.25e+10,3E-2,12345678901234567890123],"b":{"c":[true,false,null]}}"#,
        #"["\" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00 \u0000"]"#, "[\"é 中 😀 \u{10FFFF}\"]",
    ])
    func validDocumentsPass(text: LoggedText) {
        #expect(flaw(text.text) == nil)
    }

    @Test(arguments: [
        ("[\"a\nb\"]", 3, "a raw control character (U+000A) in a string"),
        ("[\"\u{1B}[31m\"]", 2, "a raw control character (U+001B) in a string"),
        ("[\"a\u{0}\"]", 3, "a raw control character (U+0000) in a string"),
        (#"["\x41"]"#, 3, "an escape JSON does not have in a string"),
        (#"["\u12G4"]"#, 2, #"a \u escape without four hex digits in a string"#),
        // Bytes 0x10 to 0x19 are no hex digits, whatever their bit 0x20 makes of them.
        ("[\"\\u\u{10}\u{11}\u{12}\u{13}\"]", 2, #"a \u escape without four hex digits in a string"#),
        (#"["\ud800"]"#, 8, "a lone UTF-16 surrogate in a string"),
        (#"["\ud800\u0041"]"#, 14, "a lone UTF-16 surrogate in a string"),
        (#"["\udc00"]"#, 8, "a lone UTF-16 surrogate in a string"),
        (#"["abc"#, 5, "an unterminated string"),
        (#"[1,]"#, 3, "expected a value"),
        (#"[01]"#, 2, "expected ',' or ']'"),
        (#"[1.]"#, 3, "a number without digits after its '.'"),
        (#"[-]"#, 2, "a number without digits"),
        (#"[1e]"#, 3, "a number without digits in its exponent"),
        (#"[tru]"#, 1, "expected a value"),
        (#"{"a" 1}"#, 5, "expected ':'"),
        (#"{1:2}"#, 1, "expected a key"),
        (#"{"a":1,}"#, 7, "expected a key"),
        (#"[1] [2]"#, 4, "more after the document"),
        (#"[{"a":1]"#, 7, "expected ',' or '}'"),
    ])
    func flawsAreNamedWhereTheyStart(text: LoggedText, offset: Int, reason: String) {
        #expect(flaw(text.text) == .notJSON(offset: offset, reason: reason))
    }

    /// Bytes that are not UTF-8 inside a string: a stray continuation byte, a cut sequence, overlong forms, a
    /// surrogate encoded in UTF-8, and past U+10FFFF.
    @Test(
        arguments: [
            [0x80], [0xFF, 0xFE], [0xC3], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE4, 0xB8],
        ] as [[UInt8]])
    func bytesThatAreNotUTF8AreRefused(sequence: [UInt8]) {
        let bytes = Array(#"["ab"#.utf8) + sequence + Array(#"c"]"#.utf8)
        #expect(flaw(bytes) == .notJSON(offset: 4, reason: "bytes that are not UTF-8 in a string"))
    }

    /// Plain text is skipped a word at a time: each byte a string must look at is seen wherever it is in a word.
    @Test func eachByteAStringLooksAtIsSeenAtEveryPlaceInAWord() {
        for place in 0..<20 {
            func document(_ middle: String, _ bytes: [UInt8] = []) -> [UInt8] {
                let text = #"[""# + String(repeating: "a", count: place) + middle
                return Array(text.utf8) + bytes + Array((String(repeating: "b", count: 20 - place) + #""]"#).utf8)
            }
            #expect(flaw(document("", [0x1F])) == .notJSON(offset: 2 + place, reason: Self.control))
            #expect(flaw(document("", [0xFF])) == .notJSON(offset: 2 + place, reason: Self.notUTF8))
            #expect(flaw(document(#"\x"#)) == .notJSON(offset: 3 + place, reason: Self.badEscape))
            #expect(flaw(document(#"\"é\u0041\\"#, [0x7F])) == nil && flaw(document(#"",""#)) == nil)
        }
    }

    private static let control = "a raw control character (U+001F) in a string"
    private static let notUTF8 = "bytes that are not UTF-8 in a string"
    private static let badEscape = "an escape JSON does not have in a string"

    @Test func depthCountsTheOutermostContainer() {
        #expect(JSONText.flaw(in: Array("[[[]]]".utf8), deeperThan: 3) == nil)
        #expect(JSONText.flaw(in: Array("[[[[]]]]".utf8), deeperThan: 3) == .tooDeep)
        #expect(JSONText.flaw(in: Array(#"{"a":{"b":[{}]}}"#.utf8), deeperThan: 3) == .tooDeep)
    }

    /// Bounds count an object's or a list's members, and every value of the document; none by default, as a
    /// file of one's own is read.
    @Test func boundsCountMembersAndValues() {
        let bounds = JSONText.Bounds(members: 3, values: 8)
        #expect(JSONText.flaw(in: Array("[{},{},{}]".utf8), within: bounds) == nil)
        #expect(JSONText.flaw(in: Array("[{},{},{},{}]".utf8), within: bounds) == .tooWide)
        #expect(JSONText.flaw(in: Array(#"{"a":1,"b":2,"c":3,"d":4}"#.utf8), within: bounds) == .tooWide)
        // Seven values: the list, three lists and three numbers; one more is eight, two more nine.
        #expect(JSONText.flaw(in: Array("[[1],[2],[3]]".utf8), within: bounds) == nil)
        #expect(JSONText.flaw(in: Array("[[1],[2],[3,4]]".utf8), within: bounds) == nil)
        #expect(JSONText.flaw(in: Array("[[1],[2,5],[3,4]]".utf8), within: bounds) == .tooManyValues)
        #expect(
            JSONText.flaw(in: Array(("[" + Array(repeating: "{}", count: 50_000).joined(separator: ",") + "]").utf8))
                == nil)
    }
}
