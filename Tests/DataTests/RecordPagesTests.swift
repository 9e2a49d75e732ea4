import Domain
import Testing

@testable import Data

/// A page of records (`orgs`, `keys`, `gpg-keys`, `gists`, `starred`…), read as GitHub's bytes with no typed
/// field: what makes one malformed, and the id that tells a record already written (helper-296's finds).
struct RecordPagesTests {
    private static func read(_ text: String) -> Result<[Record], DomainError> {
        Result { () throws(DomainError) in
            try ResponseDecoder.records(ResourceBody(bytes: Array(text.utf8), next: nil, label: "GET /x")).items
        }
    }

    /// A record that gives a key twice is malformed, as a decoded list's item is: it was written, the table
    /// showing the last `login` and ndjson passing both on.
    @Test(arguments: [
        (#"[{"login":"evil","login":"github","id":1}]"#, "item 1: the key 'login' is given twice"),
        (#"[{"id":1,"key":"k"},{"id":2,"id":3,"key":"k"}]"#, "item 2: the key 'id' is given twice"),
        (#"[{"starred_at":"2020","repo":{"id":1,"full_name":"a/b","id":2}}]"#, "item 1: the key 'id' is given twice"),
    ])
    func aRecordThatGivesAKeyTwiceIsMalformed(body: String, detail: String) {
        guard case .failure(.malformedResponse(_, let said, _)) = Self.read(body) else {
            Issue.record("read: \(Self.read(body))")
            return
        }
        #expect(said == detail)
    }

    /// A gist's id is a string: the record had no id, so a gist a page repeated was written again (`--all` over
    /// a page 2 that repeated page 1 wrote 6 gists, 3 of them twice).
    @Test func aStringIdTellsARecordAsANumberDoes() throws {
        let records = try Self.read(
            #"[{"id":"aa5a315d61ae9438b18d"},{"id":"aa5a315d61ae9438b18d"},{"id":"bb5a315d61ae9438b18d"},"#
                + #"{"id":7},{"id":"7"},{"id":""},{"name":"x"}]"#
        ).get()
        let ids = records.map(\.id)
        #expect(ids[0] != nil && ids[0] == ids[1] && ids[0] != ids[2])
        #expect(ids[3] == 7 && ids[4] == 7)
        #expect(ids[5] == nil && ids[6] == nil)
    }
}
