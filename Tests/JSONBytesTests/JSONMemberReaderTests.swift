import Testing

@testable import JSONBytes

/// `JSONMemberReader` reads what it can and calls the rest unreadable, so a decoder hands it to Foundation: it
/// must never pass a body that is not JSON.
struct JSONMemberReaderTests {
    private static func members(
        _ text: String, keeping: @escaping (ArraySlice<UInt8>) -> Bool = { _ in true }
    ) -> (members: [String: JSONMemberReader.Value], finished: Bool) {
        let bytes = Array(text.utf8)
        var reader = JSONMemberReader(bytes, in: 0..<bytes.count)
        var members: [String: JSONMemberReader.Value] = [:]
        while let (key, value) = reader.next(keeping: keeping) { members[String(decoding: key, as: UTF8.self)] = value }
        return (members, reader.finished)
    }

    @Test func eachMemberIsReadWithItsType() {
        let read = Self.members(
            #" {"login":"octo\"cat\\","id":583231,"site_admin":false,"hireable":true,"bio":null,"#
                + #""plan":{"name":"pro","space":[1,2.5,-3e2,{"x":[]}]},"score":1.0,"big":9223372036854775808} "#)
        #expect(read.finished)
        #expect(read.members["login"] == .string(#"octo"cat\"#))
        #expect(read.members["id"] == .integer(583231))
        #expect(read.members["site_admin"] == .boolean(false))
        #expect(read.members["hireable"] == .boolean(true))
        #expect(read.members["bio"] == .null)
        #expect(read.members["plan"] == .other)
        #expect(read.members["score"] == .other)
        #expect(read.members["big"] == .other)
        #expect(Self.members("{}").finished)
    }

    /// A key given twice is unreadable (Foundation words it), among few keys or many (past 64 they are kept in a
    /// set, so that an object of many keys is read in linear time), at the top or nested.
    @Test(arguments: [3, 63, 64, 65, 200])
    func aKeyGivenTwiceIsUnreadableAmongFewOrMany(count: Int) {
        let keys = (0..<count).map { #""k\#($0)":\#($0)"# }
        let object = "{" + keys.joined(separator: ",") + "}"
        #expect(Self.members(object).finished && Self.members(object).members.count == count)
        #expect(Self.members(#"{"a":\#(object)}"#).finished)
        for again in [0, count - 1] {
            let twice = "{" + (keys + [#""k\#(again)":0"#]).joined(separator: ",") + "}"
            #expect(!Self.members(twice).finished, "k\(again) of \(count)")
            #expect(!Self.members(#"{"a":\#(twice)}"#).finished, "nested k\(again) of \(count)")
        }
    }

    /// A string whose key the caller does not keep is read as `other`, and checked as strictly (below).
    @Test func aStringNotKeptIsOther() {
        let read = Self.members(#"{"login":"octo","url":"https://x","id":1}"#) { $0.elementsEqual("login".utf8) }
        #expect(read.finished)
        #expect(read.members == ["login": .string("octo"), "url": .other, "id": .integer(1)])
    }

    /// Each of these is either not JSON or left to Foundation (non-ASCII text, `\u`, an escaped key).
    /// `[{} {}]` is one element to the splitter, `{} {}`, which `JSONMemberReader` refuses (data after the object).
    @Test(arguments: [
        "", "[]", "{", #"{"a":1,}"#, #"{"a":1 "b":2}"#, #"{"a"}"#, #"{a:1}"#, #"{"a":01}"#, #"{"a":1.}"#,
        #"{"a":-}"#, #"{"a":+1}"#, #"{"a":.5}"#, #"{"a":1e}"#, #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":True}"#,
        #"{"a":[1,]}"#, #"{"a":[1 2]}"#, #"{"a":{"b"}}"#, #"{"a":"x"} {}"#, #"{"a":"x"}x"#, "{\"a\":\"\t\"}",
        #"{"a":"é"}"#, #"{"a":"\u0041"}"#, #"{"a":"\x"}"#, #"{"\u0061":1}"#, #"{"a\"":1}"#, #"{"a":"x}"#,
        #"{"a":"x\"}"#,
        #"{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#,
    ])
    func whatIsNotPlainJSONIsUnreadable(text: String) {
        #expect(!Self.members(text).finished, "\(text)")
        #expect(!Self.members(text, keeping: { _ in false }).finished, "\(text), no string kept")
    }

    /// Plain text is skipped a word at a time, within the object's range: an escape or a byte of a multibyte
    /// character is seen wherever it is in a word, and a string the range cuts is unreadable, plain text after it.
    @Test func aStringIsReadToItsEndAtEveryPlaceAndNoFurther() {
        for place in 0..<20 {
            let (before, after) = (String(repeating: "a", count: place), String(repeating: "b", count: 20 - place))
            let read = Self.members(#"{"k":""# + before + #"\"x"# + after + #""}"#)
            #expect(read.members["k"] == .string(before + "\"x" + after))
            #expect(!Self.members(#"{"k":""# + before + "é" + after + #""}"#).finished)
            let bytes = Array((#"{"k":""# + before + "bbbbbbbb" + #""}"#).utf8)
            var reader = JSONMemberReader(bytes, in: 0..<(7 + place))
            #expect(reader.next() == nil && !reader.finished)
        }
    }

    @Test func sixtyFourLevelsAreRead() {
        let nested = String(repeating: "[", count: 63) + "1" + String(repeating: "]", count: 63)
        #expect(Self.members(#"{"a":"# + nested + "}").finished)
    }

    @Test(
        arguments: [
            ("[]", 0), (" [ {} ] ", 1), ("[{},{}]", 2), ("[ {} ,\n{} ]", 2), ("[{},]", nil), ("[{} {}]", 1),
            ("[,{}]", nil), ("[{},,{}]", nil), ("[{}]]", nil), ("{}", nil),
        ] as [(String, Int?)])
    func strictElementsAreOnlyThoseOfAnArrayAsJSONWritesIt(text: String, count: Int?) {
        #expect(JSONText.strictArrayElements(Array(text.utf8))?.count == count, "\(text)")
    }
}
