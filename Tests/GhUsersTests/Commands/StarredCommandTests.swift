import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func run(_ arguments: [String], _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments)
}

/// `starred LOGIN`: the star media type and the sort options.
struct StarredCommandTests {
    @Test func starredAsksForStarJSONAndSortsAsAsked() async {
        let github = StubTransport()
        github.answer(
            "GET /users/octocat/starred?sort=updated&direction=asc&per_page=30",
            json: #"[{"starred_at":"2011-01-16T19:06:43Z","repo":{"id":7,"full_name":"o/r"}}]"#)
        let (env, out, _) = AppEnvironment.test(http: github)
        #expect(await run(["starred", "octocat", "--sort", "updated", "--direction", "asc"], env) == 0)
        #expect(out.text.hasPrefix("o/r\t2011-01-16T19:06:43Z\t"))
        #expect(ListStarredCommand.spec.name == "starred")
    }

    /// Repositories where starred records were asked for (a 2012 answer without the star media type, or a proxy
    /// that dropped it: GitHub's documented repository list) have none of the keys the columns read: every row
    /// would be blank, so the run says what is missing, exit 1, in every format that reads columns. JSON writes
    /// them as sent.
    @Test func recordsWithoutAnyKeyTheColumnsReadAreRefused() async {
        for format in ["tsv", "csv", "table"] {
            let harness = CommandHarness()
            harness.expect("GET /users/octocat/starred?per_page=30", body: "repos-list-for-user")
            let run = await harness.run(["starred", "octocat", "--format", format])
            #expect(run.status == 1, "\(format)")
            #expect(run.out.isEmpty)
            #expect(
                run.err.hasPrefix(
                    "gh-users: the starred repositories GitHub sent have none of the keys this output reads "
                        + "(repo.full_name, starred_at, repo.language, repo.stargazers_count, repo.description), so "
                        + "every row would be blank; the first has "), "\(run.err)")
        }
        let harness = CommandHarness()
        harness.expect("GET /users/octocat/starred?per_page=30", body: "repos-list-for-user")
        let json = await harness.run(["starred", "octocat", "--format", "json"])
        #expect(json.status == 0)
    }

    /// A `--fields` path whose first part is there is checked once the first record shows what the object holds:
    /// a misspelt rest (`repo.ful_name`) is a warning naming the object's keys, the column staying blank (before:
    /// blank without a word); a path through a null (`repo.license.name`) is no misspelling. Every column such a
    /// path is refused with words about the path, not the media type (before: "Was the media type … dropped?").
    @Test func aMisspeltPathAfterTheDotIsNamed() async {
        let body = #"[{"starred_at":"2011-01-16T19:06:43Z","repo":{"id":7,"full_name":"o/r","license":null}}]"#
        let harness = starred(body)
        let run = await harness.run([
            "starred", "octocat", "--fields", "repo.ful_name,starred_at,repo.license.name,repo.full_name", "--format",
            "csv",
        ])
        #expect(run.status == 0, "\(run.err)")
        let header = "repo.ful_name,starred_at,repo.license.name,repo.full_name\r\n"
        #expect(run.out == header + ",2011-01-16T19:06:43Z,,o/r\r\n")
        #expect(
            run.err
                == "gh-users: warning: --fields repo.ful_name: the first record's repo has no such key (it has "
                + "full_name, id, license), so the column is blank where a record lacks it\n")

        // Through a null on the first record only: the second has the value, and nothing is refused (before: exit 1,
        // every row "would be blank").
        let licensed =
            body.replacingOccurrences(of: "]", with: "") + "," + #"{"starred_at":"2011-01-17T00:00:00Z","#
            + #""repo":{"id":8,"full_name":"o/s","license":{"spdx_id":"MIT"}}}]"#
        let throughNull = starred(licensed)
        let both = await throughNull.run(["starred", "octocat", "--fields", "repo.license.spdx_id", "--format", "tsv"])
        #expect(both.status == 0, "\(both.err)")
        #expect(both.out == "\nMIT\n")
        #expect(both.err.isEmpty)

        let alone = starred(body)
        let refused = await alone.run(["starred", "octocat", "--fields", "repo.ful_name", "--format", "tsv"])
        #expect(refused.status == 1)
        // What the path met comes first: the keys the object has, where the typo shows.
        #expect(
            refused.err.hasPrefix(
                "gh-users: warning: --fields repo.ful_name: the first record's repo has no such key (it has full_name, id, license)\n"
            ),
            "\(refused.err)")
        #expect(
            refused.err.contains(
                "\ngh-users: the starred repositories GitHub sent have nothing at repo.ful_name, so every row would be "
                    + "blank: check the part after the dot"), "\(refused.err)")
        // A right path a whole page lacks goes on beside a key the records have: the message names one.
        #expect(
            refused.err.contains("name a key they have beside it (--fields starred_at,repo.ful_name)"),
            "\(refused.err)")

        // A null repository beside the misspelt path's object is no excuse for it, first or second on the page
        // (before: exit 0, every row blank, the typo a warning only).
        let nullRepository = #"{"starred_at":"2011-01-17T00:00:00Z","repo":null}"#
        for page in [
            body.replacingOccurrences(of: "]", with: "," + nullRepository + "]"),
            body.replacingOccurrences(of: "[", with: "[" + nullRepository + ","),
        ] {
            let mixed = starred(page)
            let typo = await mixed.run(["starred", "octocat", "--fields", "repo.ful_name", "--format", "csv"])
            #expect(typo.status == 1, "\(page): \(typo.err)")
            #expect(typo.out.isEmpty, "\(typo.out)")
            #expect(typo.err.contains("have nothing at repo.ful_name"), "\(typo.err)")
        }

        // A null vouches for the key it stands at: one repository's `license: null` shows `repo.license` is
        // GitHub's, so another's repo without a license key is no misspelling (as an event's payload without an
        // `issue` beside an issue's `assignee: null`), and the run writes its blank cells, exit 0.
        let vouched =
            #"[{"starred_at":"2011-01-16T19:06:43Z","repo":{"id":7,"full_name":"o/r"}},"#
            + #"{"starred_at":"2011-01-17T00:00:00Z","repo":{"id":8,"full_name":"o/s","license":null}}]"#
        let throughItsNull = starred(vouched)
        let blank = await throughItsNull.run([
            "starred", "octocat", "--fields", "repo.license.spdx_id", "--format", "csv",
        ])
        #expect(blank.status == 0, "\(blank.err)")
        #expect(blank.out == "repo.license.spdx_id\r\n\"\"\r\n\"\"\r\n", "\(blank.out)")

        // A path into a list or a plain value is no excuse either, beside a null (before: exit 0, every row blank).
        let listed =
            #"[{"starred_at":"2011-01-16T19:06:43Z","repo":null},"#
            + #"{"starred_at":"2011-01-17T00:00:00Z","repo":{"id":8,"full_name":"o/s","topics":["a"]}}]"#
        for path in ["repo.topics.name", "repo.full_name.x"] {
            let intoAList = starred(listed)
            let refused = await intoAList.run(["starred", "octocat", "--fields", path, "--format", "csv"])
            #expect(refused.status == 1, "\(path): \(refused.err)")
            #expect(refused.out.isEmpty, "\(refused.out)")
        }
    }

    /// A key an earlier page showed is GitHub's: a later page without it (a run of push events without
    /// `payload.issue`, a repository without `license`) is written, blank there (before: exit 1 mid-crawl, "check
    /// the part after the dot", the pages after it never asked). A later page still shows a misspelling that the
    /// first page's nulls hid.
    @Test func aLaterPageWithoutAKeyTheFirstShowedIsWritten() async {
        let harness = CommandHarness()
        let next = "https://api.github.com/users/octocat/starred?per_page=100&page=2"
        harness.http.register(
            RequestMatcher("GET /users/octocat/starred?per_page=100"), status: 200,
            headers: [("Link", "<\(next)>; rel=\"next\"")],
            body: Data(#"[{"starred_at":"2011-01-16T19:06:43Z","repo":{"id":7,"license":{"spdx_id":"MIT"}}}]"#.utf8))
        harness.http.register(
            RequestMatcher("GET /users/octocat/starred?per_page=100&page=2"), status: 200, headers: [],
            body: Data(#"[{"starred_at":"2011-01-17T00:00:00Z","repo":{"id":8}}]"#.utf8))
        let run = await harness.run(["starred", "octocat", "--all", "--fields", "repo.license.spdx_id"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "MIT\n\n")

        let hidden = CommandHarness()
        hidden.http.register(
            RequestMatcher("GET /users/octocat/starred?per_page=100"), status: 200,
            headers: [("Link", "<\(next)>; rel=\"next\"")],
            body: Data(#"[{"starred_at":"2011-01-16T19:06:43Z","repo":{"id":7,"license":null}}]"#.utf8))
        hidden.http.register(
            RequestMatcher("GET /users/octocat/starred?per_page=100&page=2"), status: 200, headers: [],
            body: Data(#"[{"starred_at":"2011-01-17T00:00:00Z","repo":{"id":8,"license":{"key":"mit"}}}]"#.utf8))
        let typo = await hidden.run(["starred", "octocat", "--all", "--fields", "repo.license.kee"])
        #expect(typo.status == 1, "\(typo.err)")
        #expect(typo.err.contains("have nothing at repo.license.kee"), "\(typo.err)")

        // A later page of bare repositories (a proxy that dropped the star media type there) is still refused.
        let dropped = CommandHarness()
        dropped.http.register(
            RequestMatcher("GET /users/octocat/starred?per_page=100"), status: 200,
            headers: [("Link", "<\(next)>; rel=\"next\"")],
            body: Data(#"[{"starred_at":"2011-01-16T19:06:43Z","repo":{"id":7,"full_name":"o/r"}}]"#.utf8))
        dropped.http.register(
            RequestMatcher("GET /users/octocat/starred?per_page=100&page=2"), status: 200, headers: [],
            body: Data(#"[{"id":8,"full_name":"o/s"}]"#.utf8))
        let bare = await dropped.run(["starred", "octocat", "--all", "--fields", "starred_at,repo.full_name"])
        #expect(bare.status == 1, "\(bare.err)")
        #expect(bare.out == "2011-01-16T19:06:43Z\to/r\n", "\(bare.out)")
    }

    /// A path into a list (`repo.topics.name`) or a plain value (`starred_at.x`) is named as one, since no path
    /// goes into either (before: a blank column without a word, where OUTPUT.md promises a warning).
    @Test(arguments: [("repo.topics.name", "repo.topics", "a list"), ("starred_at.x", "starred_at", "a plain value")])
    func aPathIntoAListOrAPlainValueIsNamed(path: String, holder: String, kind: String) async {
        let body = #"[{"starred_at":"2011-01-16T19:06:43Z","repo":{"id":7,"full_name":"o/r","topics":["a","b"]}}]"#
        let harness = starred(body)
        let run = await harness.run(["starred", "octocat", "--fields", "repo.full_name," + path])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "o/r\t\n")
        #expect(
            run.err
                == "gh-users: warning: --fields \(path): the first record's \(holder) is \(kind), which a path cannot "
                + "go into, so the column is blank (--fields \(holder) writes it whole)\n")
        // Alone, the run stops (every row would be blank), and still says what the path met (before: only
        // "nothing at" it; a docs review's find).
        let alone = await starred(body).run(["starred", "octocat", "--fields", path])
        #expect(alone.status == 1)
        #expect(alone.out.isEmpty)
        #expect(alone.err.hasPrefix("gh-users: warning: --fields \(path): the first record's \(holder) is \(kind)"))
        #expect(alone.err.contains("have nothing at \(path), so every row would be blank"), "\(alone.err)")
        // Nothing is written, so no column is said to be blank (a regression review's find).
        #expect(!alone.err.contains("so the column is blank"), "\(alone.err)")
    }

    /// A repository on two pages (starred again while the list was paged) is written once, known by its
    /// `repo.id`; a record without one is written as it comes.
    @Test func aRepositoryOnTwoPagesIsWrittenOnce() async {
        let harness = CommandHarness()
        func star(_ id: Int?, _ name: String) -> String {
            let key = id.map { #""id":\#($0),"# } ?? ""
            return #"{"starred_at":"2011-01-16T19:06:43Z","repo":{\#(key)"full_name":"\#(name)"}}"#
        }
        let next = "https://api.github.com/users/octocat/starred?per_page=100&page=2"
        harness.http.register(
            RequestMatcher("GET /users/octocat/starred?per_page=100"), status: 200,
            headers: [("Link", "<\(next)>; rel=\"next\"")], body: Data("[\(star(7, "o/a")),\(star(8, "o/b"))]".utf8))
        harness.http.register(
            RequestMatcher("GET /users/octocat/starred?per_page=100&page=2"), status: 200, headers: [],
            body: Data("[\(star(8, "o/b")),\(star(9, "o/c")),\(star(nil, "o/x"))]".utf8))
        let run = await harness.run(["starred", "octocat", "--all", "--format", "tsv"])
        #expect(run.status == 0, "\(run.err)")
        #expect(
            run.out.split(separator: "\n").map { $0.split(separator: "\t").first ?? "" } == [
                "o/a", "o/b", "o/c", "o/x",
            ])
    }
}

/// A harness whose `GET /users/octocat/starred?per_page=30` answers `body`.
private func starred(_ body: String) -> CommandHarness {
    let harness = CommandHarness()
    harness.http.register(
        RequestMatcher("GET /users/octocat/starred?per_page=30"), status: 200, headers: [], body: Data(body.utf8))
    return harness
}
