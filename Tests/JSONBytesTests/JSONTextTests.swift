import Foundation
import Testing

@testable import JSONBytes

struct JSONTextTests {
    private func split(_ text: String) throws -> [String] {
        let bytes = Array(text.utf8)
        return try JSONText.arrayElements(bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// The first key an object gives twice, at any depth, escapes resolved, since Foundation's decoder reads
    /// `"log\u0069n"` as `login` (before: the top level only, so the rate limits' buckets and an account's `plan`
    /// still said two things); strings that are values, and what is not JSON, are no keys.
    @Test(
        arguments: [
            (#"{"login":"a","id":1}"#, nil), (#"{"login":"a","login":"b"}"#, "login"),
            (#"{"id":1,"log\u0069n":"a","x":2,"login":"b","x":3}"#, "login"), (#" { "a" : 1 , "a" : 2 } "#, "a"),
            (#"{"plan":{"name":"a","name":"b"}}"#, "name"), (#"{"a":{"b":1},"a":[2]}"#, "a"), ("[1,1]", nil),
            ("{", nil), ("{}", nil), (#"{"e":[{"x":1,"y":{"x":2}},{"x":3,"x":4}]}"#, "x"), (#"{"a":["a","a"]}"#, nil),
            (#"{"a":"b","b":{"a":"b"},"c":[{"a":1},{"a":2}]}"#, nil), (#"{"a\"b":1,"a\u0022b":2}"#, "a\"b"),
        ] as [(String, String?)])
    func findsAKeyGivenTwice(object: String, key: String?) {
        #expect(JSONText.repeatedKey(in: Array(object.utf8)) == key)
    }

    /// Past `maximumDepth` levels the scan stops (nil): a file of `[`s cost it 16 bytes each, gigabytes for a
    /// snapshot of 200 MB. Up to that depth a key given twice is still found.
    @Test func stopsLookingPastTheMaximumDepth() {
        let depth = JSONText.maximumDepth
        let within =
            String(repeating: "[", count: depth - 1) + #"{"a":1,"a":2}"# + String(repeating: "]", count: depth - 1)
        #expect(JSONText.repeatedKey(in: Array(within.utf8)) == "a")
        let past = "[" + within + "]"
        #expect(JSONText.repeatedKey(in: Array(past.utf8)) == nil)
    }

    @Test func splitsTopLevelElementsKeepingTheirBytes() throws {
        let elements = try split(#" [ {"a": [1, 2], "b": "x,]}"} , {"c": "\"q\\"}, 3, "s", null ] "#)
        #expect(elements == [#"{"a": [1, 2], "b": "x,]}"}"#, #"{"c": "\"q\\"}"#, "3", #""s""#, "null"])
    }

    /// A quote ends a string after an even run of backslashes (none, `\\`), not after an odd one (`\"`, `\\\"`).
    @Test func aStringEndsAtAQuoteNoBackslashEscapes() throws {
        let elements = try split(#"["\\",  "a\"b", "\"", "\\\"\\", "\\\\", ""]"#)
        #expect(elements == [#""\\""#, #""a\"b""#, #""\"""#, #""\\\"\\""#, #""\\\\""#, #""""#])
    }

    /// The array at a member's range is split where it is, its elements' ranges in the whole text; what comes after
    /// the range is not read, and within it the array must be all there is.
    @Test func splitsTheArrayAtARangeInPlace() throws {
        let bytes = Array(#"{"x":1,"people": [ {"a":1} , 2 ] ,"y":[3]}"#.utf8)
        let range = try #require(try JSONText.objectMembers(bytes)["people"])
        let elements = try JSONText.arrayElements(bytes, in: range)
        #expect(elements.map { String(decoding: bytes[$0], as: UTF8.self) } == [#"{"a":1}"#, "2"])
        #expect(elements.allSatisfy { range.contains($0.lowerBound) && $0.upperBound <= range.upperBound })
        let y = try #require(try JSONText.objectMembers(bytes)["y"])
        #expect(try JSONText.arrayElements(bytes, in: y).map { String(decoding: bytes[$0], as: UTF8.self) } == ["3"])
        // A range that holds the array and more, or only part of it, is refused.
        let tooMuch = range.lowerBound..<(range.upperBound + 6)
        #expect(throws: JSONText.StructureError.self) { try JSONText.arrayElements(bytes, in: tooMuch) }
        let part = range.lowerBound..<(range.upperBound - 3)
        #expect(throws: JSONText.StructureError.self) { try JSONText.arrayElements(bytes, in: part) }
    }

    @Test func splitsAnEmptyArray() throws {
        #expect(try split("[]").isEmpty)
        #expect(try split(" [ \n ] ").isEmpty)
    }

    @Test(
        arguments: [
            #"{"a":1}"#, #"[{"a":1}"#, #"[{"a":"1}]"#, "[1,,2]", "[1] x", "[1}", #"["a\"]"#, #"["\\\"]"#,
        ])
    func refusesBrokenStructure(text: String) {
        #expect(throws: JSONText.StructureError.self) { try JSONText.arrayElements(Array(text.utf8)) }
    }

    @Test func compactRemovesOnlyInsignificantWhitespace() {
        var output: [UInt8] = []
        JSONText.compact(Array("{ \"a b\" : [ 1 ,\n 2 ], \"c\":\"x\\\" y\" }".utf8), into: &output)
        #expect(String(decoding: output, as: UTF8.self) == #"{"a b":[1,2],"c":"x\" y"}"#)
    }

    @Test func prettyIndentsAndRoundTrips() throws {
        let source = #"{"a":[1,{"b":null}],"e":{},"f":[],"s":"x:{y},"}"#
        var output: [UInt8] = []
        JSONText.pretty(Array(source.utf8), into: &output)
        let text = String(decoding: output, as: UTF8.self)
        #expect(
            text == """
                {
                  "a": [
                    1,
                    {
                      "b": null
                    }
                  ],
                  "e": {},
                  "f": [],
                  "s": "x:{y},"
                }
                """
        )
        let reparsed = try JSONSerialization.jsonObject(with: Data(output)) as? NSDictionary
        let original = try JSONSerialization.jsonObject(with: Data(source.utf8)) as? NSDictionary
        #expect(reparsed == original)
    }

    /// Whitespace between tokens is skipped while indenting, as compacting first did, strings kept as they are.
    @Test func prettyOfASpacedDocumentIsThatOfItsCompactForm() {
        let spaced = "{ \"a\" : [ 1 ,\n 2 ] , \"e\" : { } , \"f\" : [\n] , \"s\" : \"x { } , y\" }"
        var compacted: [UInt8] = []
        JSONText.compact(Array(spaced.utf8), into: &compacted)
        var fromSpaced: [UInt8] = []
        var fromCompact: [UInt8] = []
        JSONText.pretty(Array(spaced.utf8), into: &fromSpaced)
        JSONText.pretty(compacted, into: &fromCompact)
        #expect(String(decoding: fromSpaced, as: UTF8.self) == String(decoding: fromCompact, as: UTF8.self))
        #expect(String(decoding: fromSpaced, as: UTF8.self).contains(#""s": "x { } , y""#))
    }

    /// The depth rule counts objects and arrays alike, the outermost included, and never brackets in a string.
    @Test func nestingIsCountedOutsideStrings() {
        let sixtyFour = String(repeating: "[", count: 63) + "{}" + String(repeating: "]", count: 63)
        #expect(JSONText.flaw(in: Array(sixtyFour.utf8), deeperThan: 64) == nil)
        #expect(JSONText.flaw(in: Array(("[" + sixtyFour + "]").utf8), deeperThan: 64) == .tooDeep)
        let quoted = #"[{"a":"\#(String(repeating: "[{", count: 100))\"["}]"#
        #expect(JSONText.flaw(in: Array(quoted.utf8), deeperThan: 2) == nil)
        #expect(JSONText.maximumDepth == 64)
    }

    /// A record that indents to far more than itself (a wide array 60 levels down: 120 spaces before each `0,`)
    /// is handed on in pieces of about the threshold, never held whole: the pieces are the whole document.
    @Test func prettyHandsItsOutputOnInPieces() {
        let wide = Array(repeating: "0", count: 4_000).joined(separator: ",")
        let record = Array((String(repeating: "[", count: 60) + wide + String(repeating: "]", count: 60)).utf8)
        var whole: [UInt8] = []
        JSONText.pretty(record, into: &whole)
        var pieces: [Int] = []
        var joined: [UInt8] = []
        var output: [UInt8] = []
        JSONText.pretty(record, indent: 2, level: 0, into: &output, flushingAt: 16 * 1024) { piece in
            pieces.append(piece.count)
            joined += piece
            piece.removeAll()
        }
        joined += output
        #expect(joined == whole)
        #expect(whole.count > 400_000)
        #expect(pieces.count >= whole.count / (32 * 1024))
        #expect(pieces.allSatisfy { $0 < 16 * 1024 + 200 })
    }
}

struct JSONObjectMembersTests {
    @Test func findsEachTopLevelValue() throws {
        let text =
            #" { "total_count" : 12, "incomplete_results":false, "items": [ {"a":"}]"} ], "s":"x,y", "o":{"n":[1]} } "#
        let bytes = Array(text.utf8)
        let members = try JSONText.objectMembers(bytes)
        func value(_ key: String) throws -> String {
            String(decoding: bytes[try #require(members[key])], as: UTF8.self)
        }
        #expect(try value("total_count") == "12")
        #expect(try value("incomplete_results") == "false")
        #expect(try value("items") == #"[ {"a":"}]"} ]"#)
        #expect(try value("s") == #""x,y""#)
        #expect(try value("o") == #"{"n":[1]}"#)
    }

    @Test func anEmptyObjectHasNoMembers() throws {
        #expect(try JSONText.objectMembers(Array("{}".utf8)).isEmpty)
    }

    @Test(arguments: ["[]", #"{"a" 1}"#, #"{"a":1"#, #"{"a":[1}"#, #"{a:1}"#])
    func refusesBrokenObjects(text: String) {
        #expect(throws: JSONText.StructureError.self) { try JSONText.objectMembers(Array(text.utf8)) }
        #expect(throws: JSONText.StructureError.self) { try JSONText.memberValues(["a"], in: Array(text.utf8)) }
        #expect(JSONText.texts(of: ["a", "b"], in: Array(text.utf8)) == ["", ""])
    }

    /// The few keys a table reads are found as `objectMembers` finds them: a key as written (`l\u006fgin` is not
    /// `login`), one key that begins another told apart, the last of a key given twice, nil for a missing one.
    @Test func theValuesOfSomeKeysAreTheOnesObjectMembersFinds() throws {
        let bytes = Array(
            #"{"ids":[1],"id":7,"l\u006fgin":"x","login":"a","type":"User","login":"b","o":{"id":9}}"#.utf8)
        let keys = ["id", "login", "type", "missing", "l\\u006fgin", "ids", "login"]
        let members = try JSONText.objectMembers(bytes)
        #expect(try JSONText.memberValues(keys, in: bytes) == keys.map { members[$0] })
        #expect(JSONText.texts(of: keys, in: bytes) == ["7", "b", "User", "", "x", "[1]", "b"])
        // Keys beyond ASCII compare as strings do: a name written decomposed is the same name composed, and the
        // Kelvin sign is K (a review found them compared by their bytes).
        let names = Array("{\"Re\u{301}sume\u{301}.md\":1,\"\u{212A}ey\":2,\"Ke\":3}".utf8)
        let asked = ["R\u{E9}sum\u{E9}.md", "Key", "\u{212A}e"]
        let named = try JSONText.objectMembers(names)
        #expect(try JSONText.memberValues(asked, in: names) == asked.map { named[$0] })
        #expect(JSONText.texts(of: asked, in: names) == ["1", "2", "3"])
    }
}

struct JSONPathTests {
    private let record = Array(
        #"{"id":1,"repo":{"full_name":"octo/cat","owner":{"login":"octo"}},"emails":[{"email":"a@b"},{"email":"c@d"}],"files":{"z.md":{},"a.txt":{}},"n":null}"#
            .utf8)

    @Test func followsKeysIntoNestedObjects() {
        #expect(JSONText.text(at: ["repo", "full_name"], in: record) == "octo/cat")
        #expect(JSONText.text(at: ["repo", "owner", "login"], in: record) == "octo")
        #expect(JSONText.text(at: ["id"], in: record) == "1")
    }

    @Test func aPathThatLeadsNowhereIsEmpty() {
        #expect(JSONText.value(at: ["repo", "nope"], in: record) == nil)
        #expect(JSONText.value(at: ["id", "deeper"], in: record) == nil)
        #expect(JSONText.text(at: ["n"], in: record) == "")
        #expect(JSONText.elements(at: ["repo"], in: record).isEmpty)
        #expect(JSONText.keys(at: ["id"], in: record).isEmpty)
    }

    @Test func listsArrayElementsAndObjectKeys() {
        #expect(
            JSONText.elements(at: ["emails"], in: record).map { JSONText.text(of: "email", in: $0) } == ["a@b", "c@d"])
        #expect(JSONText.keys(at: ["files"], in: record) == ["a.txt", "z.md"])
    }
}

struct JSONValueTests {
    @Test func keepsTheOrderGivenAndEscapesStrings() throws {
        let value = JSONValue.object([
            .init("z", .string("a \"quoted\": \\ path\n\u{1}")), .init("a", .integer(-3)), .init("m", .bool(true)),
            .init("n", .null), .init("list", .array([.integer(1), .string("é")])),
        ])
        let text = String(decoding: value.bytes, as: UTF8.self)
        #expect(text == #"{"z":"a \"quoted\": \\ path\n\u0001","a":-3,"m":true,"n":null,"list":[1,"é"]}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(value.bytes)) as? [String: Any]
        #expect(parsed?["z"] as? String == "a \"quoted\": \\ path\n\u{1}")
        // RFC 8259's short escapes where there is one, as GitHub writes a bio's line breaks and tabs.
        let controls = JSONValue.string("\r\n\t\u{8}\u{C}\u{B}").bytes
        #expect(String(decoding: controls, as: UTF8.self) == #""\r\n\t\b\f\u000b""#)
    }

    /// A list's keys added to a profile come after its own, in order; one the profile has is replaced, not
    /// written twice; what is not an object is left as it was.
    @Test func addingMembersKeepsTheObjectsOrderAndReplacesAKeyItHas() {
        let profile = Array(#"{ "login": "octocat", "id": 1, "role": "old" }"#.utf8)
        let added = JSONText.adding([("role", Array(#""maintainer""#.utf8)), ("n", Array("[1, 2]".utf8))], to: profile)
        #expect(String(decoding: added, as: UTF8.self) == #"{"login":"octocat","id":1,"role":"maintainer","n":[1,2]}"#)
        #expect(JSONText.adding([("a", Array("1".utf8))], to: Array("{}".utf8)) == Array(#"{"a":1}"#.utf8))
        #expect(JSONText.adding([("a", Array("1".utf8))], to: Array("[1]".utf8)) == Array("[1]".utf8))
    }
}
