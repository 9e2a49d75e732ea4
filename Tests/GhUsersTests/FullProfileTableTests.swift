import AtomicCore
import Domain
import Foundation
import Testing

@testable import gh_users

/// A `--full` table on a terminal: a profile's columns, then the keys the list keeps (a collaborator's role and
/// permissions, a fork's name and date). The kept keys were never cut, so a collaborator's permissions object made
/// 138-column rows on an 80-column terminal, and a star's or fork's time came as RFC 3339 where the list says
/// "15 years ago", and a stargazer's JOINED as a timestamp where an account's is a date.
@Suite struct FullProfileTableTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func profile(_ id: Int, _ login: String, adding extra: String) -> String {
        #"{"login":"\#(login)","id":\#(id),"type":"User","name":"Someone With A Long Name \#(id)","#
            + #""location":"Somewhere Quite Far Away","followers":1234,"public_repos":42,"#
            + #""created_at":"2008-01-14T04:33:35Z",\#(extra)}"#
    }

    static func lines<Item: JSONRecord>(
        _ items: [Item], _ columns: (RenderContext) -> [Column<Item>], format: OutputFormat
    ) -> [String] {
        let context = RenderContext(format: format, isTTY: true, colorEnabled: false, width: 80, now: now)
        var writer = RecordStreamWriter(context: context, columns: columns(context))
        let text = String(decoding: writer.render(items) + writer.finish(completed: true), as: UTF8.self)
        return text.split(separator: "\n").map(String.init)
    }

    @Test func aCollaboratorsPermissionsGiveWayAndTheRowsFitTheTerminal() throws {
        let permissions =
            #""role_name":"maintain","permissions":{"pull":true,"triage":true,"push":true,"#
            + #""maintain":true,"admin":false}"#
        let users = [1, 2].map { id in
            User(
                id: Int64(id), login: "collaborator-\(id)", type: .user,
                raw: RawJSON(Self.profile(id, "collaborator-\(id)", adding: permissions)))
        }
        let stage = ProfileStage<PeopleListOptions, User>.accounts(\.profiles, keeping: CollaboratorsCommand.kept)
        let table = Self.lines(users, stage.columns, format: .table)
        #expect(table.count == 3, "\(table)")
        #expect(table.allSatisfy { DisplayWidth.of($0) <= 80 }, "\(table)")
        #expect(table[1].contains("collaborator-1") && table[1].contains("maintain"), "\(table)")
        #expect(table[1].contains("2008-01-14") && !table[1].contains("04:33:35"), "\(table)")
        // The data formats write them whole.
        let tsv = Self.lines(users, stage.columns, format: .tsv)
        #expect(
            tsv[0].hasSuffix("\tmaintain\t" + #"{"pull":true,"triage":true,"push":true,"maintain":true,"admin":false}"#)
        )
    }

    @Test func aForksTimeIsRelativeAsTheListsAndJoinedADate() throws {
        let fork = #""fork":"forker/Hello-World","forked_at":"2011-01-26T19:14:43Z""#
        let records = [Record(id: 5, raw: RawJSON(Self.profile(5, "forker", adding: fork)))]
        let table = Self.lines(records, ForkersCommand.full.columns, format: .table)
        #expect(table.allSatisfy { DisplayWidth.of($0) <= 80 }, "\(table)")
        #expect(table[1].contains("2008-01-14") && !table[1].contains("04:33:35Z"), "\(table)")
        #expect(table[1].contains("15 year") && !table[1].contains("2011-01-26"), "\(table)")
        // tsv on a terminal is data: the time as sent.
        let tsv = Self.lines(records, ForkersCommand.full.columns, format: .tsv)
        #expect(tsv[0].contains("2011-01-26T19:14:43Z") && !tsv[0].contains("ago"), "\(tsv)")
    }
}
