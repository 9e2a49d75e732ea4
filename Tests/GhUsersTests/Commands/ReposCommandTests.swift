import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func run(_ arguments: [String], _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments)
}

private func route(_ arguments: String) -> Route {
    CommandRouter().route(arguments.split(separator: " ").map(String.init))
}

/// `repos LOGIN`: its options, the fork filter across pages, and its table.
struct ReposCommandTests {
    @Test func reposWithEveryOption() throws {
        var options = ListReposOptions(login: try Login(validating: "octocat"))
        options.query = RepoQuery(kind: .all, sort: .pushed, direction: .asc, forks: .sourcesOnly)
        options.paging.limit = .count(10)
        #expect(
            route("repos octocat --type all --sort pushed --direction asc --sources -L 10")
                == .listRepos(options, CommonOptions())
        )
        // Filtering on forks reads full pages.
        #expect(options.plan.perPage == 100)
        #expect(ListReposOptions(login: try Login(validating: "x")).plan.perPage == 30)
    }

    @Test func reposFiltersForksAcrossPagesUntilTheLimit() async {
        let data = StubTransport()
        let list = "/users/octocat/repos?per_page=100"
        data.answer(
            "GET " + list, headers: [StubTransport.link(next: list + "&page=2")],
            json: repos([(1, "a", true), (2, "b", false), (3, "c", true)]))
        data.answer(
            "GET " + list + "&page=2", headers: [StubTransport.link(next: list + "&page=3")],
            json: repos([(4, "d", true), (5, "e", false), (6, "f", false)]))
        let (env, out, err) = AppEnvironment.test(http: data)
        #expect(await run(["repos", "octocat", "--sources", "--limit", "3"], env) == 0)
        #expect(
            out.text.split(separator: "\n").map { $0.split(separator: "\t")[0] } == [
                "octocat/b", "octocat/e", "octocat/f",
            ])
        #expect(err.text.isEmpty)
        #expect(
            data.calls == ["GET /users/octocat/repos?per_page=100", "GET /users/octocat/repos?per_page=100&page=2"])
    }

    /// `fork` and the counts GitHub sent as null (or not at all) are blank in every format, as `--fields` and JSON
    /// have them, and such a repository is neither a source nor a fork (before: `false,…,0,0` in csv, and
    /// `--sources` kept it).
    @Test func whatGitHubDidNotSayIsBlankNotFalseOrZero() async {
        let data = StubTransport()
        let body =
            #"[{"id":1,"name":"a","full_name":"x/a","stargazers_count":null,"fork":null},"#
            + #"{"id":2,"name":"b","full_name":"x/b","fork":false,"stargazers_count":3,"forks_count":0}]"#
        data.answer("GET /users/x/repos?per_page=30", json: body)
        let (env, out, _) = AppEnvironment.test(http: data)
        #expect(await run(["repos", "x", "--format", "csv"], env) == 0)
        let rows = out.text.split(separator: "\r\n").dropFirst().map(String.init)
        #expect(rows == ["x/a,,,,,,", "x/b,false,,3,0,,"])
        data.answer("GET /users/x/repos?per_page=100", json: body)
        let (sources, sourcesOut, _) = AppEnvironment.test(http: data)
        #expect(await run(["repos", "x", "--sources", "--format", "tsv", "--fields", "full_name"], sources) == 0)
        #expect(sourcesOut.text == "x/b\n")
    }

    @Test func reposTableFitsAndShowsRelativeTimesOnATerminal() async {
        let data = StubTransport()
        // Pushed two days before the harness's now (2027-01-15T08:00:00Z).
        let description = #"A \u001b[31mred\u001b[0m "# + String(repeating: "long ", count: 40)
        data.answer(
            "GET /users/octocat/repos?per_page=30",
            json: #"[{"id":1,"name":"Hello-World","full_name":"octocat/Hello-World","description":"\#(description)","#
                + #""language":"Swift","fork":false,"stargazers_count":10,"forks_count":1,"#
                + #""pushed_at":"2027-01-13T08:00:00Z"}]"#)
        let (env, out, _) = AppEnvironment.test(http: data, stdoutTTY: true, width: 70)
        #expect(await run(["repos", "octocat", "--color", "never"], env) == 0)
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("NAME") == true)
        #expect(lines.last?.contains("2 days ago") == true)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 70 })
        #expect(!out.text.contains("\u{1B}[31m"))
    }
}

/// GitHub's list of repositories cut to what the command reads: id, name, full name and whether it is a fork.
private func repos(_ rows: [(Int64, String, Bool)]) -> String {
    "["
        + rows.map { #"{"id":\#($0.0),"name":"\#($0.1)","full_name":"octocat/\#($0.1)","fork":\#($0.2)}"# }
        .joined(separator: ",") + "]"
}

struct ReposColumnsTests {
    private func render(_ repos: [Repo], _ format: OutputFormat, width: Int = 80) -> String {
        let context = RenderContext(
            format: format, isTTY: format == .table, colorEnabled: false, width: width,
            now: Date(timeIntervalSince1970: 1_800_000_000))
        var writer = RecordStreamWriter(
            context: context, columns: ListReposCommand.columns(context))
        return String(decoding: writer.render(repos) + writer.finish(completed: true), as: UTF8.self)
    }

    @Test func dataFormatsKeepTheDescriptionAsSentAndGiveForkItsOwnColumn() {
        var fork = makeRepo(1, "a", fork: true)
        fork.description = nil
        let original = makeRepo(2, "b")
        let tsv = render([fork, original], .tsv).split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        #expect(tsv[0][1] == "true")
        #expect(tsv[0].last == "")
        #expect(tsv[1][1] == "false")
        #expect(tsv[1].last == "about b")
        let csv = render([fork], .csv)
        #expect(csv.hasPrefix("full_name,fork,language,stargazers_count,forks_count,pushed_at,description\r\n"))
        #expect(!csv.contains("(fork)"))
    }

    @Test func theTableLabelsTheTimeItShows() {
        var repo = makeRepo(1, "a")
        // 1_800_000_000 is 2027-01-15T08:00:00Z, three days after this push.
        repo.raw = RawJSON(#"{"id":1,"pushed_at":"2027-01-12T08:00:00Z","updated_at":"2027-01-14T08:00:00Z"}"#)
        let table = render([repo], .table)
        #expect(table.hasPrefix("NAME"))
        #expect(table.contains("PUSHED"))
        #expect(table.contains("3 days ago"))
    }

    /// Every key of GitHub's minimal-repository schema is a field (`permissions` and `allow_forking` were refused
    /// as unknown, exit 64, though GitHub's documented example for this list holds the first).
    @Test func theSchemasOtherKeysAreFields() async {
        let github = StubTransport()
        github.answer(
            "GET /users/octocat/repos?per_page=30",
            json: #"[{"id":1,"name":"a","full_name":"o/a","permissions":{"push":true},"allow_forking":false}]"#)
        let (env, out, err) = AppEnvironment.test(http: github)
        let fields = "full_name,permissions.push,allow_forking,security_and_analysis"
        #expect(await GhUsersApp(environment: env).run(["repos", "octocat", "--fields", fields]) == 0, "\(err.text)")
        #expect(out.text == "o/a\ttrue\tfalse\t\n")
    }

    /// tsv and csv are data on a terminal too: a time as GitHub sent it, fraction and offset kept, never "ago".
    @Test(arguments: [OutputFormat.tsv, .csv])
    func dataFormatsOnATerminalWriteTheTimeAsSent(format: OutputFormat) {
        var repo = makeRepo(1, "a")
        repo.raw = RawJSON(#"{"id":1,"pushed_at":"2027-01-12T01:00:00.123-07:00"}"#)
        let context = RenderContext(
            format: format, isTTY: true, colorEnabled: false, width: 80, now: Date(timeIntervalSince1970: 1_800_000_000)
        )
        var writer = RecordStreamWriter(context: context, columns: ListReposCommand.columns(context))
        let output = String(decoding: writer.render([repo]) + writer.finish(completed: true), as: UTF8.self)
        #expect(output.contains("2027-01-12T01:00:00.123-07:00"), "\(output)")
        #expect(!output.contains("ago"))
    }

    @Test func aNarrowTableCutsTheDescriptionBeforeAnyName() {
        let long = String(repeating: "x", count: 15)
        var first = makeRepo(1, "Alpha-\(long)-1")
        var second = makeRepo(2, "Alpha-\(long)-2")
        first.description = String(repeating: "words ", count: 20)
        second.description = String(repeating: "more ", count: 20)
        let lines = render([first, second], .table).split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 80 })
        #expect(lines[1].contains("octocat/Alpha-\(long)-1"))
        #expect(lines[2].contains("octocat/Alpha-\(long)-2"))
    }
}
