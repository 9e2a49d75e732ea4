import AtomicCore
import Domain
import Foundation
import Testing

@testable import gh_users

private let now = Date(timeIntervalSince1970: 1_800_000_000)

private func context(_ format: OutputFormat, tty: Bool = false, width: Int = 80, color: Bool = false) -> RenderContext {
    RenderContext(format: format, isTTY: tty, colorEnabled: color, width: width, now: now)
}

private func user(_ id: Int64, _ login: String, type: AccountType = .user, name: String? = nil, bio: String? = nil)
    -> User
{
    var raw =
        #"{"login":"\#(login)","id":\#(id),"type":"\#(type.name)","html_url":"https://github.com/\#(login)","name":null}"#
    if let name { raw = raw.replacingOccurrences(of: #""name":null"#, with: #""name":"\#(name)""#) }
    return User(
        id: id, login: login, type: type, htmlURL: "https://github.com/\(login)", name: name, bio: bio,
        raw: RawJSON(raw))
}

private func accountWriter(_ context: RenderContext) -> RecordStreamWriter<User> {
    RecordStreamWriter(context: context, columns: AccountColumns.summary)
}

struct RecordStreamWriterTests {
    @Test func jsonIsOneDocumentAcrossBatches() throws {
        var writer = accountWriter(context(.json))
        let bytes =
            writer.render([user(1, "a"), user(2, "b")]) + writer.render([user(5, "c")]) + writer.finish(completed: true)
        let parsed = try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]]
        #expect(parsed?.map { $0["login"] as? String } == ["a", "b", "c"])
        #expect(parsed?.first?.keys.contains("name") == true)
        #expect(parsed?.first?["name"] is NSNull)
    }

    @Test func jsonStaysValidWhenTheCommandFailsHalfWay() throws {
        var writer = accountWriter(context(.json))
        let bytes = writer.render([user(1, "a")]) + writer.finish(completed: false)
        #expect((try JSONSerialization.jsonObject(with: Data(bytes)) as? [Any])?.count == 1)
    }

    @Test func jsonIsEmptyOnAnEarlyFailureAndAnEmptyArrayOnEmptySuccess() {
        let writer = accountWriter(context(.json))
        #expect(writer.finish(completed: false).isEmpty)
        #expect(String(decoding: writer.finish(completed: true), as: UTF8.self) == "[]\n")
    }

    @Test func ndjsonIsOneCompactObjectPerLine() throws {
        var writer = accountWriter(context(.ndjson))
        let pretty = User(id: 9, login: "p", raw: RawJSON("{\n  \"login\": \"p\",\n  \"id\": 9\n}"))
        let text = String(decoding: writer.render([user(1, "a"), pretty]), as: UTF8.self)
        #expect(
            text == #"{"login":"a","id":1,"type":"User","html_url":"https://github.com/a","name":null}"# + "\n"
                + #"{"login":"p","id":9}"# + "\n")
    }

    @Test func tsvHasNoHeaderAndOneLinePerRecordWhateverTheData() {
        var writer = ShowUsersRenderer.writerForTests(context(.tsv))
        let nasty = user(3, "n", bio: "line1\nline2\ttab \u{1B}[31mred\\")
        let text = String(decoding: writer.render([nasty]), as: UTF8.self)
        #expect(text.split(separator: "\n").count == 1)
        #expect(text.hasPrefix("n\t3\tUser\t"))
        #expect(text.contains("line1\\nline2\\ttab \\e[31mred\\\\"))
        #expect(!text.contains("\u{1B}"))
    }

    @Test func csvHasAHeaderAndQuotesPerRFC4180() {
        var writer = accountWriter(context(.csv))
        let text = String(decoding: writer.render([user(1, "a")]), as: UTF8.self)
        #expect(text == "id,login,type,html_url\r\n1,a,User,https://github.com/a\r\n")
        #expect(CSV.field("say \"hi\", ok") == "\"say \"\"hi\"\", ok\"")
    }

    @Test func tableFitsTheTerminalAndAlignsLaterPages() {
        var writer = accountWriter(context(.table, tty: true, width: 30))
        let first = String(decoding: writer.render([user(1, "octocat"), user(22, "山田")]), as: UTF8.self)
        let later = String(decoding: writer.render([user(333, "a-much-longer-login-than-before")]), as: UTF8.self)
        let lines = (first + later).split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("ID"))
        for line in lines {
            #expect(DisplayWidth.of(line) <= 30, "too wide: \(line)")
        }
        #expect(lines.contains { $0.contains("…") })
        // The first page's rows put LOGIN at the same column as the header.
        let loginColumn = DisplayWidth.of(String(lines[0].prefix(upTo: lines[0].range(of: "LOGIN")!.lowerBound)))
        #expect(lines[1].dropFirst(loginColumn).hasPrefix("octocat"))
        // A later id longer than the column is written whole, never cut to a number that is not its own (a
        // terminal review found a crawl's ids shown as `69…` at 40 columns); its row takes the room from its URL.
        #expect(lines[3].hasPrefix("333  a-much"), "\(lines[3])")
    }

    /// A terminal review's finds: at 40 columns a login was cut while the URL kept `https:/…`, which says
    /// nothing; with `--fields id,login,…` the login was cut to 6 at 80 columns while free text kept its room.
    @Test func aLoginIsCutOnlyAfterTheURLAndFreeTextGaveWay() {
        var narrow = accountWriter(context(.table, tty: true, width: 40))
        let rows = String(
            decoding: narrow.render([user(5, "Happy-Otter-5555"), user(9, "Otter-Labs-17", type: .organization)]),
            as: UTF8.self)
        #expect(rows.contains("Happy-Otter-5555  User") && rows.contains("Otter-Labs-17     Organization"), "\(rows)")
        #expect(!rows.contains("https"), "\(rows)")

        var fieldsContext = context(.table, tty: true, width: 60)
        fieldsContext.fields = ["id", "login", "name", "bio"]
        var fields = RecordStreamWriter<User>(context: fieldsContext, columns: AccountColumns.summary)
        let long = user(2, "Yamada-Taro-the-third", name: String(repeating: "n", count: 40))
        let line = String(decoding: fields.render([long], moreToCome: true), as: UTF8.self)
        #expect(line.contains("Yamada-Taro-the-third  n"), "\(line)")

        // Named by the user, a free-text field is cut or runs past the edge, never left out (a regression review
        // saw BIO gone at 30 columns).
        var bioContext = context(.table, tty: true, width: 30)
        bioContext.fields = ["id", "login", "name", "bio"]
        var bio = RecordStreamWriter<User>(context: bioContext, columns: AccountColumns.summary)
        let named = user(1, "octocat", name: "monalisa octocat", bio: "There once was")
        let table = String(decoding: bio.render([named]), as: UTF8.self)
        #expect(table.hasPrefix("ID  LOGIN    NAME") && table.contains("BIO"), "\(table)")
    }

    @Test func tableHeaderIsBoldOnlyWithColour() {
        var plain = accountWriter(context(.table, tty: true))
        var colored = accountWriter(context(.table, tty: true, color: true))
        #expect(!String(decoding: plain.render([user(1, "a")]), as: UTF8.self).contains("\u{1B}"))
        #expect(String(decoding: colored.render([user(1, "a")]), as: UTF8.self).hasPrefix("\u{1B}[1mID"))
    }
}

struct ShowRendererTests {
    @Test func oneLoginInJSONIsGitHubsObject() throws {
        let bytes = ShowUsersRenderer.render([user(1, "a")], asArray: false, context: context(.json))
        let parsed = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        #expect(parsed?["login"] as? String == "a")
    }

    @Test func severalLoginsInJSONAreAnArray() throws {
        let bytes = ShowUsersRenderer.render([user(1, "a"), user(2, "b")], asArray: true, context: context(.json))
        #expect((try JSONSerialization.jsonObject(with: Data(bytes)) as? [Any])?.count == 2)
    }

    /// `show … --fields` and `me --fields` on a terminal are a table of profiles, cut to the terminal as the
    /// lists' tables are, the login whole: before, none of show's columns could be cut, and a 50-column terminal
    /// got 88-column rows (a tester's find).
    @Test func showsTableOfFieldsFitsTheTerminal() {
        var fields = context(.table, tty: true, width: 50)
        fields.fields = ["login", "name", "company", "bio"]
        func profile(_ id: Int64, _ login: String, _ name: String, _ company: String) -> User {
            let bio = String(repeating: "word ", count: 12)
            let raw =
                #"{"login":"\#(login)","id":\#(id),"type":"User","name":"\#(name)","company":"\#(company)","#
                + #""bio":"\#(bio)"}"#
            return User(
                id: id, login: login, type: .user, name: name, company: company, bio: bio, raw: RawJSON(raw))
        }
        let users = [
            profile(1, "octocat", "monalisa octocat", "GitHub"), profile(2, "Yamada-Taro", "山田太郎", "株式会社サンプル"),
        ]
        let table = String(
            decoding: ShowUsersRenderer.render(users, asArray: true, context: fields), as: UTF8.self)
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(table)")
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 50 }, "\(table)")
        #expect(lines[0].hasPrefix("LOGIN") && lines[0].contains("BIO"), "\(table)")
        #expect(lines[2].hasPrefix("Yamada-Taro  山田"), "\(table)")
    }

    /// Twelve 30-day months are 360 days: from 360 to 364 days it said "12 months ago" (helper-313).
    @Test func aYearLessFiveDaysIsAYearNotTwelveMonths() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let day = 86_400.0
        #expect(RelativeTime.describe(now.addingTimeInterval(-359 * day), now: now) == "11 months ago")
        #expect(RelativeTime.describe(now.addingTimeInterval(-362 * day), now: now) == "1 year ago")
        #expect(RelativeTime.describe(now.addingTimeInterval(362 * day), now: now) == "in 1 year")
        #expect(RelativeTime.describe(now.addingTimeInterval(-731 * day), now: now) == "2 years ago")
        // "just now" is under a minute, either way (helper-339's M7-13: 90 s ago passed for it).
        #expect(RelativeTime.describe(now.addingTimeInterval(-59), now: now) == "just now")
        #expect(RelativeTime.describe(now.addingTimeInterval(-90), now: now) == "1 minute ago")
        #expect(RelativeTime.describe(now.addingTimeInterval(90), now: now) == "in 1 minute")
    }

    @Test func profileOnATerminalIsSanitisedRelativeAndFitsTheWidth() {
        var profile = user(
            1, "octocat", name: "Mona \u{1B}]8;;https://evil\u{07}Lisa", bio: String(repeating: "長い", count: 50))
        profile.raw = RawJSON(#"{"login":"octocat","id":1,"created_at":"2027-01-12T08:00:00Z"}"#)
        let text = ShowUsersRenderer.profile(profile, context: context(.table, tty: true, width: 40))
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(text.contains("3 days ago"))
        for line in text.split(separator: "\n") {
            #expect(DisplayWidth.of(String(line)) <= 40, "too wide: \(line)")
        }
    }

    /// A bio keeps its author's lines, each filled to the width: it was one line cut at the edge, its breaks shown
    /// as `\n` and `\r\n` (helper-360). At most ten lines, whatever a server sends.
    @Test func aBioKeepsItsLinesFilledToTheWidth() {
        let profile = user(1, "octocat", bio: "line one\nline two\r\nthree " + String(repeating: "word ", count: 12))
        let text = ShowUsersRenderer.profile(profile, context: context(.table, tty: true, width: 40))
        #expect(text.contains("  Bio   line one\n        line two\n        three word word word"), "\(text)")
        #expect(!text.contains("\\n") && !text.contains("\\r"), "\(text)")
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { DisplayWidth.of(String($0)) <= 40 }, "\(text)")
        #expect(lines.filter { $0.hasSuffix("word") }.count == 3, "\(text)")
        // Blank lines, indentation and spaces are the author's: a line that fits is shown as written (helper-364).
        let drawn = ShowUsersRenderer.profile(
            user(1, "octocat", bio: "\n  \nPara one.\n\nPara two.\n   ascii   art\n  - item\n \n"),
            context: context(.table, tty: true, width: 40))
        #expect(
            drawn.contains("  Bio   Para one.\n\n        Para two.\n           ascii   art\n          - item\n  URL"),
            "\(drawn)")
        let endless = ShowUsersRenderer.profile(
            user(1, "octocat", bio: Array(repeating: "a line", count: 1_000).joined(separator: "\n")),
            context: context(.table, tty: true, width: 40))
        let shown = endless.split(separator: "\n").filter { $0.hasSuffix("a line") || $0.hasSuffix("…") }
        #expect(shown.count == 10 && shown.last?.hasSuffix("a line …") == true, "\(endless)")
    }

    /// An address cut with "…" is neither followed nor copied: the email, the blog and the URL run past a narrow
    /// terminal whole (before: `https://github.c…` at 30 columns), while free text is still cut to fit.
    @Test func addressesStayWholeOnANarrowTerminal() {
        var profile = user(1, "octocat", bio: String(repeating: "b", count: 80))
        profile.email = "octocat-with-a-long-address@example.com"
        profile.blog = "https://example.com/a/long/path/to/the/blog"
        let text = ShowUsersRenderer.profile(profile, context: context(.table, tty: true, width: 30))
        #expect(text.contains("  Email  octocat-with-a-long-address@example.com\n"), "\(text)")
        #expect(text.contains("  Blog   https://example.com/a/long/path/to/the/blog\n"), "\(text)")
        #expect(text.contains("  URL    \(profile.htmlURL ?? "?")\n"), "\(text)")
        let bio = text.split(separator: "\n").first { $0.hasPrefix("  Bio") }.map(String.init) ?? ""
        #expect(bio.hasSuffix("…") && DisplayWidth.of(bio) <= 30, "\(text)")
    }

    /// GitHub's own bytes in JSON and ndjson, on a terminal or not, hold no bidi override, C1 control or DEL raw:
    /// each is a `\u` escape of the same string (before, `show --json` passed them to the terminal).
    @Test(arguments: [OutputFormat.json, .ndjson], [false, true])
    func jsonOfGitHubsBytesEscapesWhatDrivesATerminal(format: OutputFormat, tty: Bool) throws {
        let bio = "abc\u{202E}dcba\u{202C} \u{9B}2J x\u{7F}y\u{2067}"
        let raw = #"{"login":"a","id":1,"bio":"\#(bio)"}"#
        let account = User(id: 1, login: "a", bio: bio, raw: RawJSON(raw))
        let outputs = [
            ShowUsersRenderer.render([account], asArray: false, context: context(format, tty: tty)),
            ShowUsersRenderer.render([account, account], asArray: true, context: context(format, tty: tty)),
        ]
        for bytes in outputs {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.unicodeScalars.contains { [0x202E, 0x202C, 0x9B, 0x7F, 0x2067].contains($0.value) })
            #expect(text.contains(#"abc\u202edcba\u202c \u009b2J x\u007fy\u2067"#))
            let first = try #require(text.split(separator: "\n", omittingEmptySubsequences: true).first)
            let document = format == .ndjson ? String(first) : text
            let parsed = try JSONSerialization.jsonObject(with: Data(document.utf8))
            let object = (parsed as? [String: Any]) ?? (parsed as? [[String: Any]])?.first
            #expect(object?["bio"] as? String == bio)
        }
    }

    /// What GitHub did not send is no text beside what it did (helper-296): no login is no "()" after the name,
    /// a following count alone is its own row (it was "Followers  following 0"), an empty URL no row.
    @Test func aProfileMissingSomeOfItsFieldsSaysOnlyWhatWasSent() {
        var profile = User(id: 9, login: "", raw: RawJSON(#"{"login":"","id":9}"#))
        profile.name = "Mona"
        profile.following = 0
        profile.htmlURL = ""
        let text = ShowUsersRenderer.profile(profile, context: context(.table))
        #expect(text.hasPrefix("Mona\n"), "\(text)")
        #expect(text.contains("  Following  0\n") && !text.contains("Followers"), "\(text)")
        #expect(!text.contains("URL"), "\(text)")
    }

    /// The type row says what GitHub sent: none sent is no row (before: "User", where csv and tsv were blank).
    @Test func aTypeGitHubDidNotSendIsNoRow() {
        let untyped = User(id: 9, login: "missing", raw: RawJSON(#"{"login":"missing","id":9,"type":null}"#))
        #expect(!ShowUsersRenderer.profile(untyped, context: context(.table)).contains("Type"))
        let typed = User(id: 9, login: "org", raw: RawJSON(#"{"login":"org","id":9,"type":"Organization"}"#))
        #expect(ShowUsersRenderer.profile(typed, context: context(.table)).contains("  Type  Organization\n"))
    }

    /// The join time as sent, as the `created_at` column has it (before: parsed and written again, so a fraction
    /// was cut, an offset moved to UTC, and a time that did not parse left no row), relative on a terminal.
    @Test(arguments: ["2008-01-14T04:33:35Z", "2008-01-14T04:33:35.999Z", "2008-01-14T04:33:35+05:00", "garbage"])
    func theJoinTimeIsShownAsSent(_ sent: String) {
        let raw = #"{"login":"octocat","id":1,"created_at":"\#(sent)"}"#
        var profile = User(id: 1, login: "octocat", raw: RawJSON(raw))
        profile.createdAt = Date(timeIntervalSince1970: 1_200_285_215)
        #expect(ShowUsersRenderer.profile(profile, context: context(.table)).contains("  Joined  \(sent)\n"))
        let onTerminal = ShowUsersRenderer.profile(profile, context: context(.table, tty: true))
        #expect(onTerminal.contains(sent == "garbage" ? "  Joined  garbage\n" : "years ago\n"), "\(onTerminal)")
    }

    /// A company GitHub sends as "" is no row, as one it does not send is none (mutation round 10, M10-404).
    @Test func anEmptyCompanyIsNoRow() {
        var profile = user(1, "octocat")
        profile.company = ""
        #expect(!ShowUsersRenderer.profile(profile, context: context(.table)).contains("Company"))
    }

    /// A long name takes up to half the width beside the login: 60 characters at 80 columns are cut to 40
    /// (mutation round 10, M10-402).
    @Test func aLongNameIsCutToHalfTheWidth() {
        let profile = user(1, "octocat", name: String(repeating: "n", count: 60))
        let text = ShowUsersRenderer.profile(profile, context: context(.table, width: 80))
        let title = text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(title == String(repeating: "n", count: 39) + "… (octocat)", "\(text)")
    }

    /// A width narrower than 20 columns is drawn at 20, the narrowest a table is drawn at
    /// (mutation round 10, M10-905).
    @Test func aNarrowTerminalIsDrawnAtTwentyColumns() {
        let resolved = RenderContext.resolve(requested: nil, isTTY: true, colorEnabled: false, width: 5, now: now)
        #expect(resolved.width == 20)
    }
}

extension ShowUsersRenderer {
    static func writerForTests(_ context: RenderContext) -> RecordStreamWriter<User> {
        RecordStreamWriter(context: context, columns: columns)
    }
}

/// Issue 19 item 13: csv is data. Line breaks, quotes and backslashes are carried as they are, with RFC 4180
/// quoting; only a terminal gets its controls made visible.
struct CSVDataTests {
    private let bio = "line one\r\nline two\n\"quoted\", C:\\path\\n \u{1B}[31mred"

    @Test func pipedCSVKeepsTheTextExactly() {
        var writer = ShowUsersRenderer.writerForTests(context(.csv))
        let text = String(decoding: writer.render([user(3, "n", bio: bio)]), as: UTF8.self)
        let quoted = "\"" + bio.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        #expect(text.contains("," + quoted + ","))
    }

    @Test func csvOnATerminalShowsControlsVisibly() {
        var writer = ShowUsersRenderer.writerForTests(context(.csv, tty: true))
        let text = String(decoding: writer.render([user(3, "n", bio: bio)]), as: UTF8.self)
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("line one\\r\\nline two\\n"))
    }

    @Test func csvWritesItsHeaderEvenWithNoRecords() {
        let writer = accountWriter(context(.csv))
        #expect(String(decoding: writer.finish(completed: true), as: UTF8.self) == "id,login,type,html_url\r\n")
        var paged = accountWriter(context(.csv))
        let text = String(
            decoding: paged.render([]) + paged.render([user(1, "a")]) + paged.finish(completed: true), as: UTF8.self)
        #expect(text == "id,login,type,html_url\r\n1,a,User,https://github.com/a\r\n", "one header, however paged")
        let failed = accountWriter(context(.csv))
        #expect(failed.finish(completed: false).isEmpty)
    }

    @Test func aNestedFieldIsReadByItsPathInEveryFormat() throws {
        let record = User(
            id: 1, login: "a", raw: RawJSON(#"{"id":1,"repo":{"full_name":"o/r","name":"r"},"type":"WatchEvent"}"#))
        var fields = context(.csv)
        fields.fields = ["repo.full_name", "type"]
        var csv = accountWriter(fields)
        #expect(String(decoding: csv.render([record]), as: UTF8.self) == "repo.full_name,type\r\no/r,WatchEvent\r\n")
        let json = RenderContext(
            format: .ndjson, isTTY: false, colorEnabled: false, width: 80, now: now, fields: fields.fields)
        var ndjson = accountWriter(json)
        #expect(
            String(decoding: ndjson.render([record]), as: UTF8.self)
                == #"{"repo.full_name":"o/r","type":"WatchEvent"}"# + "\n")
    }

    @Test func aComputedFieldIsTheColumnsValue() {
        let columns: [Column<User>] = [
            Column("ID") { String($0.id) }, Column("SHOUT", key: "shout", derived: true) { $0.login.uppercased() },
        ]
        var fields = context(.tsv)
        fields.fields = ["shout", "id"]
        var writer = RecordStreamWriter(context: fields, columns: columns)
        #expect(String(decoding: writer.render([user(7, "abc")]), as: UTF8.self) == "ABC\t7\n")
    }
}

/// Issue 20 item 19: at 40 columns a description gives way entirely before a name is cut.
struct TableGivingWayTests {
    @Test func aDescriptionGivesWayBeforeAName() {
        let layout = TableLayout(
            columns: [("NAME", .last), ("STARS", nil), ("PUSHED", nil), ("DESCRIPTION", .first)],
            rows: [["octocat/hello-world", "1234", "3 days ago", "My first repository on GitHub!"]],
            width: 40)
        let row = layout.line(["octocat/hello-world", "1234", "3 days ago", "My first repository"])
        #expect(row.hasPrefix("octocat/hello-world  "), "the name is whole: \(row)")
        #expect(!row.contains("My"))
        #expect(!layout.header(ColorScheme(enabled: false)).contains("DESC"))
        #expect(DisplayWidth.of(String(row.dropLast())) <= 40)
    }

    /// No line ends in spaces: a row whose last cells are empty ends after its last cell that is not, and the
    /// others are laid out as before. Before, every column but the last was padded, so such a row ended in spaces.
    @Test func aRowEndsAfterItsLastCellThatHoldsAnything() {
        let layout = TableLayout(
            columns: [("LOGIN", .last), ("ROLE", nil), ("2FA", nil)],
            rows: [["octocat", "admin", "true"], ["mona", "", ""]], width: 80)
        #expect(layout.header(ColorScheme(enabled: false)) == "LOGIN    ROLE   2FA\n")
        #expect(layout.line(["octocat", "admin", "true"]) == "octocat  admin  true\n")
        #expect(layout.line(["mona", "write", ""]) == "mona     write\n")
        #expect(layout.line(["mona", "", ""]) == "mona\n")
        #expect(layout.line(["", "", "true"]) == "                true\n")
    }

    /// `followers --full` at 60 columns: with every column that may be cut at its minimum the table was 63 wide,
    /// and every row ran past the terminal. A free-text column is left out instead, the rightmost first (the
    /// location), and an id, a login or a count never is.
    @Test func aFreeTextColumnIsLeftOutBeforeTheTableRunsPastTheTerminal() {
        let columns: [(header: String, shrink: ColumnShrink?)] = [
            ("ID", nil), ("LOGIN", .last), ("NAME", .second), ("LOCATION", .second), ("FOLLOWERS", nil),
            ("REPOS", nil), ("JOINED", nil),
        ]
        let row = ["534", "gentlefalcon382", "Gentle Falcon", "Kraków, Poland", "5826", "134", "2008-01-25"]
        let layout = TableLayout(columns: columns, rows: [row], width: 60)
        #expect(layout.widths == [3, 8, 8, 0, 9, 5, 10], "\(layout.widths)")
        #expect(DisplayWidth.of(String(layout.line(row).dropLast())) <= 60)
        #expect(!layout.header(ColorScheme(enabled: false)).contains("LOCATION"))
        // Where the columns fit, nothing is left out; and the last free-text column stays (access's repository).
        #expect(!TableLayout(columns: columns, rows: [row], width: 80).widths.contains(0))
        #expect(TableLayout(columns: columns, rows: [row], width: 40).widths == [3, 8, 8, 0, 9, 5, 10])
    }

    @Test func aDescriptionIsOnlyCutWhenThatIsEnough() {
        let layout = TableLayout(
            columns: [("NAME", .last), ("DESCRIPTION", .first)],
            rows: [["octocat/hello-world", "My first repository on GitHub!"]], width: 40)
        #expect(layout.widths == [19, 19])
    }
}

/// A streamed table's widths are fixed by its first chunk; later rows that fit the terminal are not cut to them.
struct StreamedTableRoomTests {
    /// A row of a write's outcome table; its JSON is never read here.
    private struct Row: JSONRecord {
        let cells: [String]
        var raw: RawJSON { RawJSON(bytes: []) }
    }

    private let columns: [Column<Row>] = [
        Column("LOGIN", key: "login", shrink: .last) { $0.cells[0] },
        Column("ACTION", key: "action") { $0.cells[1] },
        Column("OUTCOME", key: "outcome", shrink: .first) { $0.cells[2] },
    ]

    private func table(moreToCome: Bool) -> String {
        let context = RenderContext(format: .table, isTTY: true, colorEnabled: false, width: 120, now: Date())
        var writer = RecordStreamWriter(context: context, columns: columns)
        let first = writer.render([Row(cells: ["x", "follow", "followed"])], moreToCome: moreToCome)
        let rest = writer.render([
            Row(cells: ["abcdefghijklmnopqrstuvwxyz0123456789xyz", "follow", "followed"]),
            Row(cells: ["nosuch-qq", "follow", "no such account"]),
        ])
        return String(decoding: first + rest, as: UTF8.self)
    }

    @Test func laterRowsThatFitAreWhole() {
        let pad = String(repeating: " ", count: 38)
        #expect(
            table(moreToCome: true)
                == "LOGIN\(pad.dropFirst(4))  ACTION  OUTCOME\n" + "x\(pad)  follow  followed\n"
                + "abcdefghijklmnopqrstuvwxyz0123456789xyz  follow  followed\n"
                + "nosuch-qq\(pad.dropFirst(8))  follow  no such account\n")
    }

    @Test func aWholeTableKeepsItsOwnWidths() {
        #expect(table(moreToCome: false).hasPrefix("LOGIN  ACTION  OUTCOME\nx      follow  followed\nabcd…"))
    }

    /// A column never cut to fit holds what GitHub bounds (an account's type); a hostile server's 300-letter
    /// type was a 321-column row on an 80-column terminal. It is cut at 64, whatever the terminal's width.
    @Test func aColumnNeverCutToFitStillHoldsNoMoreThanGitHubsBoundedValues() {
        let type = String(repeating: "T", count: 300)
        for width in [80, 1_000] {
            let layout = TableLayout(
                columns: [("LOGIN", .last), ("TYPE", nil)], rows: [["octocat", type], ["x", "User"]], width: width)
            #expect(layout.widths == [7, TableLayout.boundedWidth], "\(width)")
            #expect(
                layout.line(["octocat", type])
                    == "octocat  " + String(repeating: "T", count: TableLayout.boundedWidth - 1) + "…\n")
        }
    }

    /// A streamed crawl sized its columns from a first row: at 80 columns `list --full` cut most logins to 7
    /// (`Yamada…`) while the first row's name and location kept their room. An id's and 20 of a login's columns
    /// are claimed from free text first; nothing runs past the terminal. Names then have their room before a login
    /// grows past its claim, a location left out for it: claimed without names', every name at 80 columns was cut
    /// to 7 letters (`monalis…`), and to 3 (`Hap…`) after a first account with none (helper-340).
    @Test(arguments: [
        ["1", "octocat", "monalisa octocat", "San Francisco", "20", "2", "2008-01-14"],
        ["3", "dependabot[bot]", "", "", "0", "0", "2008-01-14"],
    ])
    func aStreamedTableClaimsRoomForIdsAndLoginsFromFreeText(first: [String]) {
        let columns: [(header: String, shrink: ColumnShrink?)] = [
            ("ID", nil), ("LOGIN", .last), ("NAME", .second), ("LOCATION", .second), ("FOLLOWERS", nil),
            ("REPOS", nil), ("JOINED", nil),
        ]
        let natural: [Int?] = [10, 39, nil, nil, nil, nil, nil]
        func used(_ layout: TableLayout) -> Int {
            layout.widths.reduce(0, +) + TableLayout.gap * (layout.widths.filter { $0 > 0 }.count - 1)
        }
        for width in [50, 60, 70, 80, 85, 90, 95, 100, 200] {
            let base = TableLayout(columns: columns, rows: [first], width: width)
            let layout = base.withRoom(natural: natural, shrinks: columns.map(\.shrink), width: width)
            // A name is never under the readable minimum where the never-cut columns leave room for it (not at 50,
            // where they take 36), nor cut under 16 to show a location (helper-342: 4 at 60 columns after a first
            // account without a name; 16 at 80, then 9 at 85, where the location came in).
            #expect(width < 60 || layout.widths[2] >= TableLayout.minimumShrunkWidth, "\(width): \(layout.widths)")
            #expect(
                layout.widths[3] == 0 || min(layout.widths[2], layout.widths[3]) >= 16, "\(width): \(layout.widths)")
            // With --fields the user named every column: none is left out.
            let named = TableLayout(columns: columns, rows: [first], width: width, dropping: false)
                .withRoom(natural: natural, shrinks: columns.map(\.shrink), width: width, dropping: false)
            #expect(named.widths.allSatisfy { $0 > 0 }, "\(width): \(named.widths)")
            // At 60 the first row does not fit either (its never-cut columns alone): no wider than it.
            #expect(used(layout) <= max(width, used(base)), "\(width): \(layout.widths)")
            // Nothing is cut below the first row, nor below the minimum, but the location, which is left out.
            #expect(
                layout.widths.indices.allSatisfy {
                    $0 == 3 || layout.widths[$0] >= min(base.widths[$0], TableLayout.minimumShrunkWidth)
                },
                "\(width): \(layout.widths)")
            guard width >= 80 else { continue }
            // A login claims first; an id's claim (alignment only: a longer id takes its row's room) comes after.
            #expect(layout.widths[0] >= (width >= 100 ? 10 : 8), "\(width): \(layout.widths)")
            #expect(layout.widths[1] >= 18, "\(width): \(layout.widths)")
            // A name has room for "monalisa octocat"; at 100 so has a location, beside it.
            #expect(layout.widths[2] >= 16, "\(width): \(layout.widths)")
            #expect(layout.widths[3] == 0 || layout.widths[3] >= TableLayout.minimumShrunkWidth, "\(layout.widths)")
            if width >= 100 { #expect(layout.widths[3] >= 13, "\(width): \(layout.widths)") }
            if width >= 200 { #expect(layout.widths[1] == 39 && layout.widths[2] >= 16) }
        }
    }

    @Test func aNarrowStreamedListGivesItsURLForTheLoginsClaim() {
        func used(_ layout: TableLayout) -> Int {
            layout.widths.reduce(0, +) + TableLayout.gap * (layout.widths.filter { $0 > 0 }.count - 1)
        }
        // Columns that are never cut take nothing they cannot get: a narrow `list` stays within 40 columns.
        let list: [(header: String, shrink: ColumnShrink?)] = [
            ("ID", nil), ("LOGIN", .last), ("TYPE", nil), ("URL", .first),
        ]
        let narrow = TableLayout(
            columns: list, rows: [["1", "octocat", "User", "https://github.com/octocat"]], width: 40
        ).withRoom(natural: [10, 39, 12, 58], shrinks: list.map(\.shrink), width: 40)
        #expect(used(narrow) <= 40, "\(narrow.widths)")
        // The URL gives way whole (a terminal review saw `https:/…` kept while logins were cut), and the login's
        // 20 and room for later ids are claimed from it.
        #expect(narrow.widths[3] == 0 && narrow.widths[1] >= 20 && narrow.widths[0] >= 6, "\(narrow.widths)")
    }

    /// What is left after the claims is shared by the free text to the last column: a run of `--fields` with
    /// four of it at 140 columns left 9 unused (helper-339's M7-7, each share taken as an equal part of the whole).
    @Test func theRoomLeftIsSharedToTheLastColumn() {
        let columns: [(header: String, shrink: ColumnShrink?)] = [
            ("LOGIN", .last), ("NAME", .second), ("COMPANY", .second), ("LOCATION", .second), ("BIO", .first),
        ]
        let base = TableLayout(columns: columns, rows: [["octocat", "Mona", "GitHub", "SF", "hi"]], width: 140)
        let layout = base.withRoom(natural: [39, nil, nil, nil, nil], shrinks: columns.map(\.shrink), width: 140)
        #expect(layout.widths.reduce(0, +) + TableLayout.gap * 4 == 140, "\(layout.widths)")
        #expect(layout.room == 0)
    }

    /// Within a tier the widest column gives first, one column at a time, and a description at the minimum is
    /// left out rather than cut below it (helper-339's M7-8, M7-9: the narrowest cut first, and a description
    /// of 8 cut to 7, went unseen).
    @Test func theWidestGivesFirstAndAMinimalDescriptionIsLeftOut() {
        let names = TableLayout(
            columns: [("LOGIN", .last), ("A", .second), ("B", .second)],
            rows: [["octocat", String(repeating: "a", count: 30), String(repeating: "b", count: 12)]], width: 43)
        #expect(names.widths == [7, 20, 12], "\(names.widths)")
        let description = TableLayout(
            columns: [("LOGIN", .last), ("DESC", .first)], rows: [["octocat", "abcdefgh"]], width: 16)
        #expect(description.widths == [7, 0], "\(description.widths)")
    }

    /// A later row's id or type wider than its column takes the room from the row's other never-cut padding,
    /// then from cells that may be cut, never below the readable minimum (a regression review saw a login cut
    /// to a lone "…"); what is still missing runs past the edge.
    @Test func aLaterWiderNeverCutCellTakesRoomNoLowerThanTheMinimum() {
        let list: [(header: String, shrink: ColumnShrink?)] = [
            ("ID", nil), ("LOGIN", .last), ("TYPE", nil), ("URL", .first),
        ]
        let layout = TableLayout(
            columns: list, rows: [["1002", "silly-wombat-716", "User", "https://github.com/x"]], width: 40)
        let row = layout.line(["1003", "Wombat-Labs-717", "Organization", "https://github.com/Wombat-Labs-717"])
        // The URL, which could keep only a few letters, is left out of that row; the login stays whole.
        #expect(row == "1003  Wombat-Labs-717  Organization\n", "\(layout.widths) \(row)")
        // The terminal's free columns go first, and a row that leaves its last columns empty keeps its
        // alignment; then padding, nearest the wider cell: the login's own before the id's (which moved the login).
        let aligned = TableLayout(
            columns: list, rows: [["1002", "silly-wombat-716", "User", "https://github.com/x"]], width: 80)
        #expect(aligned.line(["1003", "Wombat-Labs-7", "Organization"]) == "1003  Wombat-Labs-7     Organization\n")
        let full = TableLayout(columns: list, rows: [["1000000", "silly-wombat-716", "User"]], width: 31)
        #expect(full.line(["1003", "Wombat-Labs-7", "Bot-ish"]) == "1003     Wombat-Labs-7  Bot-ish\n")
    }

    /// A name (or a location) takes at most 40 of the room left over, a description all the rest; without a
    /// description the rest stays empty. At 200 columns a `--full` list gave an 11-letter name 59 columns and a
    /// 6-letter location 60, and at 1,000 every row ran to 1,000 (helper-360).
    @Test func aNameTakesAtMostFortyOfTheRoomLeft() {
        let profile: [Column<User>] = [
            Column("ID") { _ in "" }, Column("LOGIN", shrink: .last) { _ in "" },
            Column("NAME", shrink: .second) { _ in "" }, Column("LOCATION", shrink: .second) { _ in "" },
            Column("FOLLOWERS") { _ in "" },
        ]
        let row = ["25", "CalmFalcon19", "Calm Falcon", "Kraków", "361"]
        let layout = TableLayout(columns: profile.map { ($0.header, $0.shrink) }, rows: [row], width: 200)
            .withRoom(
                natural: [10, 39, nil, nil, nil], shrinks: profile.map(\.shrink), width: 200,
                widest: profile.map(\.widest))
        #expect(layout.widths == [10, 39, 40, 40, 9], "\(layout.widths)")
        let described = profile + [Column("BIO", shrink: .first) { _ in "" }]
        let withBio = TableLayout(columns: described.map { ($0.header, $0.shrink) }, rows: [row + ["hi"]], width: 200)
            .withRoom(
                natural: [10, 39, nil, nil, nil, nil], shrinks: described.map(\.shrink), width: 200,
                widest: described.map(\.widest))
        #expect(withBio.widths.prefix(5) == [10, 39, 40, 40, 9], "\(withBio.widths)")
        #expect(withBio.widths.reduce(0, +) + TableLayout.gap * 5 == 200, "\(withBio.widths)")
    }

    /// A `--fields` bio is no name (every `--fields` column is cut as a name is): a streamed table gives it all
    /// the room left. The cap on names first held it to 40 at 200 columns, the rest of the line empty (helper-363).
    @Test func aFieldsBioTakesTheRestOfTheTerminal() {
        var wide = context(.table, tty: true, width: 200)
        wide.fields = ["login", "bio"]
        var writer = RecordStreamWriter<User>(context: wide, columns: AccountColumns.summary)
        func account(_ id: Int64, bio: String) -> User {
            User(
                id: id, login: "octocat", type: .user, bio: bio,
                raw: RawJSON(#"{"login":"octocat","id":\#(id),"bio":"\#(bio)"}"#))
        }
        // The first rows set the widths, with room for later ones: a later, longer bio is not cut at 40.
        _ = writer.render([account(1, bio: "hi")], moreToCome: true)
        let bio = String(repeating: "b", count: 150)
        let later = String(decoding: writer.render([account(2, bio: bio)]), as: UTF8.self)
        #expect(later.contains(bio), "\(later)")
    }

    @Test func theRoomStaysWithinTheTerminal() {
        let layout = TableLayout(columns: [("LOGIN", .last), ("OUTCOME", .first)], rows: [["x", "ok"]], width: 50)
            .withRoom(natural: [39, nil], shrinks: [.last, .first], width: 50)
        #expect(layout.widths == [39, 9])
    }
}
