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
        #expect(
            Self.problem("o/a\tmona\n")?.hasPrefix("they hold records of o/a, which sorts at or before o/a") == true)
        #expect(Self.problem("p/b\tmona\n") == "they hold a line that is not a record of o's map")
        #expect(Self.problem("o/b\tmona\n", before: "o/a,x") == "the recorded length falls inside a line")
    }

    /// Records the user appended of a repository the map already wrote (`access o --repo a >> FILE`) sort at or
    /// before the state's last one: they are no stop's leftover.
    @Test func aRepositoryBeforeTheStatesLastIsRefused() {
        #expect(Self.problem("o/0\tmona\n")?.contains("sorts at or before o/a") == true)
        #expect(Self.problem("O/A\tmona\n")?.contains("sorts at or before o/a") == true)
        #expect(Self.problem("o/0\tmo")?.contains("sorts at or before o/a") == true)
        #expect(Self.problem("o/ab\tmona\n") == nil)
        // A name cut short that may still go on past the state's last one.
        #expect(Self.problem("o/") == nil)
    }

    /// A line a stop cut short is cut only where it begins as a record of the map: a note without its line end
    /// is kept.
    @Test func aLineCutShortMustBeginAsARecordOfTheMap() {
        #expect(Self.problem("o/b\tmona\no/b\thu") == nil)
        #expect(Self.problem("o/b\tmona\no/") == nil)
        #expect(Self.problem("o/b\tmona\no") == nil)
        #expect(Self.problem("o/b\tmona\nnote: keep") == "they end in a line that is not a record of o's map")
        #expect(Self.problem("note") == "they end in a line that is not a record of o's map")
        #expect(Self.problem("o/b\tmona\no/c\tx") == "they hold records of more than one repository")
        #expect(Self.problem("o/b\tmona\no/bc") == "they end in a line that is not a record of o's map")
        #expect(
            Self.problem("mona", fields: ["login", "repository"]) == "they end in a line cut before its repository")
        #expect(Self.problem(#"{"repository":"o/b","lo"#, format: .ndjson) == nil)
        #expect(Self.problem(#"{"repo"#, format: .ndjson) == nil)
        #expect(
            Self.problem(#"{"login":"x","repository":"o/b"#, format: .ndjson, fields: ["login", "repository"]) == nil)
        #expect(Self.problem(#"{"login":"x""#, format: .ndjson, fields: ["login", "repository"]) != nil)
        #expect(Self.problem(#"{"repository":"p/"#, format: .ndjson) != nil)
        #expect(Self.problem("[1,", format: .ndjson) == "they end in a line cut before its repository")
        let header = "repository,login,permission,affiliation,sources,two_factor"
        #expect(Self.problem(String(header.prefix(12)), before: "", format: .csv, records: 0) == nil)
        #expect(Self.problem(header + "\no/b,mo", before: "", format: .csv, records: 0) == nil)
        #expect(Self.problem("login,rep", before: "", format: .csv, records: 0) != nil)
    }

    /// Without the repository among `--fields` nothing tells the stop's records from lines another run appended
    /// (a second map with its own state): they are never cut, and the user is asked.
    @Test func withoutTheRepositoryNothingIsCut() {
        let refusal = "--fields leave out repository, so nothing tells them from another run's lines"
        #expect(Self.problem("mona\n", fields: ["login"]) == refusal)
        #expect(Self.problem(#"{"login":"mona"}"# + "\n", format: .ndjson, fields: ["login"]) == refusal)
        #expect(Self.problem("mo", fields: ["login"]) == refusal)
        // A csv header alone, while no record is counted, is still the run's own.
        #expect(Self.problem("login\n", before: "", format: .csv, records: 0, fields: ["login"]) == nil)
    }
}
