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
            #""permissions":{"admin":false,"maintain":true,"push":true,"triage":true,"pull":true},"#
            + #""role_name":"maintain""#
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
            tsv[0].hasSuffix("\tmaintain\t" + #"{"admin":false,"maintain":true,"push":true,"triage":true,"pull":true}"#)
        )
    }

    /// A streamed table (later pages to come) keeps a star's time whole at 80 columns: the room an id and a login
    /// claim for later rows comes from names, never from the kept keys (a review saw `STARRED…` beside a 10-wide ID).
    @Test func aStreamedStarTableKeepsItsTimesWhole() throws {
        let records = [4, 2].map { id in
            Record(
                id: Int64(id),
                raw: RawJSON(Self.profile(id, "user\(id)", adding: #""starred_at":"2011-01-26T19:14:43Z""#)))
        }
        let context = RenderContext(format: .table, isTTY: true, colorEnabled: false, width: 80, now: Self.now)
        var writer = RecordStreamWriter(context: context, columns: StargazersCommand.full.columns(context))
        let first = String(decoding: writer.render([records[0]], moreToCome: true), as: UTF8.self)
        let rest = String(decoding: writer.render([records[1]]) + writer.finish(completed: true), as: UTF8.self)
        let lines = (first + rest).split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines.allSatisfy { DisplayWidth.of($0) <= 80 }, "\(lines)")
        #expect(lines[0].hasSuffix("STARRED_AT") && lines.dropFirst().allSatisfy { $0.hasSuffix("15 years ago") })
    }

    @Test func aForksTimeIsRelativeAsTheListsAndJoinedADate() throws {
        let fork = #""fork_full_name":"forker/Hello-World","forked_at":"2011-01-26T19:14:43Z""#
        let records = [Record(id: 5, raw: RawJSON(Self.profile(5, "forker", adding: fork)))]
        let table = Self.lines(records, ForkersCommand.full.columns, format: .table)
        #expect(table.allSatisfy { DisplayWidth.of($0) <= 80 }, "\(table)")
        #expect(table[1].contains("2008-01-14") && !table[1].contains("04:33:35Z"), "\(table)")
        // Whole, as the list shows it, not cut to make room (a review saw "15 year…").
        #expect(table[1].hasSuffix("  15 years ago") && !table[1].contains("2011-01-26"), "\(table)")
        // tsv on a terminal is data: the time as sent.
        let tsv = Self.lines(records, ForkersCommand.full.columns, format: .tsv)
        #expect(tsv[0].contains("2011-01-26T19:14:43Z") && !tsv[0].contains("ago"), "\(tsv)")
    }
}
