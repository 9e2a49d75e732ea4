import Foundation
import Testing

@testable import gh_users

/// What a resumed `access --state` cuts from the file stdout appends to: only one unrecorded repository's
/// records of the map, past a line end (`AccessOutputCut.problem`).
struct AccessOutputCutTests {
    private static func problem(
        _ tail: String, before: String = "o/a,x\n", format: OutputFormat = .tsv, records: Int = 3,
        fields: [String]? = nil
    ) -> String? {
        var state = AccessState(organization: "o", filters: [:], format: format, fields: fields, apiURL: nil)
        (state.after, state.records) = ("o/a", records)
        let file = Array((before + tail).utf8)
        let cut = AccessOutputCut(state: state, recorded: Int64(before.utf8.count))
        return cut.problem { Array(file[Int($0)...]) }
    }

    @Test func oneRepositorysRecordsAndALineAKillCutAreCut() {
        #expect(Self.problem("o/b\tmona\nO/b\thubot\no/b\tcut sh") == nil)
        #expect(Self.problem("o/b\tmona\no/b\thubot\n") == nil)
        #expect(Self.problem(#"{"repository":"o/b"}"# + "\n", format: .ndjson) == nil)
    }

    @Test func aCSVHeaderIsCutOnlyWhereNoRecordIsCountedYet() {
        let header = "repository,login,permission,affiliation,sources,two_factor\n"
        #expect(Self.problem(header + "o/b,mona\n", before: "", format: .csv, records: 0) == nil)
        #expect(Self.problem(header + "o/b,mona\n", format: .csv)?.contains("not a record of o's map") == true)
    }

    @Test func whatIsNotOneUnrecordedRepositoryIsRefused() {
        #expect(Self.problem("o/b\tmona\no/c\tmona\n") == "they hold records of more than one repository")
        #expect(Self.problem("o/a\tmona\n") == "they hold records of o/a, which the state counts as written")
        #expect(Self.problem("p/b\tmona\n") == "they hold a line that is not a record of o's map")
        #expect(Self.problem("o/b\tmona\n", before: "o/a,x") == "the recorded length falls inside a line")
        // Without the repository among --fields only the line end can be checked.
        #expect(Self.problem("p/b\tmona\n", fields: ["login"]) == nil)
        #expect(Self.problem(#"{"login":"mona"}"# + "\n", format: .ndjson, fields: ["login"]) == nil)
    }
}
