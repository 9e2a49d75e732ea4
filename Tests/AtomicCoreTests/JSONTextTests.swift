import Foundation
import Testing

@testable import AtomicCore

struct JSONTextTests {
    private func split(_ text: String) throws -> [String] {
        let bytes = Array(text.utf8)
        return try JSONText.arrayElements(bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    @Test func splitsTopLevelElementsKeepingTheirBytes() throws {
        let elements = try split(#" [ {"a": [1, 2], "b": "x,]}"} , {"c": "\"q\\"}, 3, "s", null ] "#)
        #expect(elements == [#"{"a": [1, 2], "b": "x,]}"}"#, #"{"c": "\"q\\"}"#, "3", #""s""#, "null"])
    }

    @Test func splitsAnEmptyArray() throws {
        #expect(try split("[]").isEmpty)
        #expect(try split(" [ \n ] ").isEmpty)
    }

    @Test(arguments: [#"{"a":1}"#, #"[{"a":1}"#, #"[{"a":"1}]"#, "[1,,2]", "[1] x", "[1}"])
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
}
