import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func run(_ arguments: [String], _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments)
}

/// `events LOGIN`: GitHub keeps only the 300 most recent public events, and the command says so; `--received`
/// asks the row of the events an account received, which brings the same cap.
struct EventsCommandTests {
    @Test(arguments: [(["--all"], true), (["--limit", "500"], true), (["--limit", "300"], false)])
    func eventsStopAtGitHubsThreeHundredAndSaySo(arguments: [String], notes: Bool) async {
        await expectThreeHundred(of: "/users/octocat/events/public", arguments: arguments, notes: notes)
    }

    @Test func receivedEventsAskTheirOwnRowAndStopAtThreeHundred() async {
        await expectThreeHundred(of: "/users/octocat/received_events/public", arguments: ["--received", "--all"])
    }

    @Test func anUnknownLoginIsExitThree() async {
        await AnsweredCase(
            "events no-such-user --received",
            answers: [
                StubbedAnswer(
                    "GET /users/no-such-user/received_events/public?per_page=30", status: 404, body: "error-404")
            ],
            status: 3, err: "gh-users: no user 'no-such-user' (HTTP 404)\n"
        ).run()
    }

    /// GitHub leaves `org` out of an event on an account's own repository, so `--fields org` of a list whose first
    /// event has none is a blank cell there, not a refusal: the documented event has no `org`, the next one has
    /// (before: exit 1, "none of the keys this output reads", blaming a dropped media type).
    @Test func aFieldTheFirstEventLacksIsBlankThereAndWrittenWhereThereIsOne() async throws {
        var events = try #require(
            try JSONSerialization.jsonObject(with: Bodies.named("activity-list-public-events-for-user"))
                as? [[String: Any]])
        var withOrg = try #require(events.first)
        withOrg["id"] = "2"
        withOrg["org"] = ["id": 9_919, "login": "github"]
        events.append(withOrg)
        let body = try JSONSerialization.data(withJSONObject: events)
        let blanks = events.count - 1
        for (fields, format, out) in [
            ("org.login", "tsv", String(repeating: "\n", count: blanks) + "github\n"),
            ("org", "csv", "org"), ("id,org.login", "json", ""),
        ] {
            let harness = CommandHarness()
            harness.http.register(
                RequestMatcher("GET /users/octocat/events/public?per_page=30"), status: 200, headers: [], body: body)
            let run = await harness.run(["events", "octocat", "--fields", fields, "--format", format])
            #expect(run.status == 0 && run.err.isEmpty, "\(fields): \(run.err)")
            if format == "json" {
                #expect(run.out.contains(#""org.login": null"#) && run.out.contains(#""org.login": "github""#))
            } else if format == "tsv" {
                #expect(run.out == out)
            } else {
                // A blank row, then the organization's object as JSON in the cell.
                let rows = run.out.components(separatedBy: "\r\n").dropLast()
                #expect(rows.first == out && rows.count == blanks + 2 && rows.last?.contains("9919") == true)
            }
        }
    }

    /// A misspelt path is judged over the page, not by its first record: an event without `org`, then one whose
    /// `org` lacks `logn`, then one with `org: null` is every row blank, and the run stops naming the record's keys
    /// (before: exit 0 with a blank column and no word, since the first event has no `org`; helper-243's find).
    @Test func aMisspeltPathAfterAnEventWithoutItIsRefused() async throws {
        var events = try #require(
            try JSONSerialization.jsonObject(with: Bodies.named("activity-list-public-events-for-user"))
                as? [[String: Any]])
        var withOrg = try #require(events.first)
        #expect(withOrg["org"] == nil)
        withOrg["id"] = "2"
        withOrg["org"] = ["id": 9_919, "login": "github"]
        var nullOrg = withOrg
        nullOrg["id"] = "3"
        nullOrg["org"] = NSNull()
        events = [events[0], withOrg, nullOrg]
        let harness = CommandHarness()
        harness.http.register(
            RequestMatcher("GET /users/octocat/events/public?per_page=30"), status: 200, headers: [],
            body: try JSONSerialization.data(withJSONObject: events))
        let run = await harness.run(["events", "octocat", "--fields", "org.logn", "--format", "csv"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.isEmpty, "\(run.out)")
        #expect(
            run.err.hasPrefix("gh-users: warning: --fields org.logn: a record's org has no such key (it has "),
            "\(run.err)")
        #expect(run.err.contains("have nothing at org.logn, so every row would be blank"), "\(run.err)")
    }

    /// `payload` holds what its event's type has: a path into it that the first event lacks and a later one has
    /// (GitHub's documented WatchEvent, then PushEvent) is written where it is (before: exit 1, "nothing at
    /// payload.ref", judged by the first event alone).
    @Test func aPathOnlyALaterEventHasIsWrittenWhereItIs() async {
        let harness = CommandHarness()
        harness.expect("GET /users/octocat/events/public?per_page=30", body: "activity-list-public-events-for-user")
        let run = await harness.run(["events", "octocat", "--fields", "payload.ref", "--format", "tsv"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "\nrefs/heads/master\n")
    }

    private func expectThreeHundred(of path: String, arguments: [String], notes: Bool = true) async {
        let github = StubTransport()
        for page in 0..<3 {
            let items = (1...100).map { #"{"id":"\#(page * 100 + $0)","type":"PushEvent"}"# }
            let target = path + "?per_page=100" + (page == 0 ? "" : "&page=\(page + 1)")
            // The third page links on, as a list past GitHub's cap may: the cap stops the run, not the link
            // (helper-339's M7-2, M7-3: `--all` or `--limit 500` asked page 4, and its 422 failed the run).
            github.answer(
                "GET " + target,
                headers: [StubTransport.link(next: path + "?per_page=100&page=\(page + 2)")],
                json: "[" + items.joined(separator: ",") + "]")
        }
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await run(["events", "octocat", "--format", "ndjson"] + arguments, env) == 0)
        #expect(out.text.split(separator: "\n").count == 300)
        #expect(github.calls.count == 3)
        #expect(err.text.contains("only the 300 most recent public events") == notes)
        if arguments.contains("--received") {
            #expect(err.text.contains("only the 300 most recent public events an account received"))
        }
    }

    /// Two events of a feed, each done by another account.
    private func feed(_ path: String) -> StubTransport {
        let github = StubTransport()
        let events =
            #"[{"id":"2","type":"WatchEvent","actor":{"id":7,"login":"hubot"},"repo":{"name":"octo/one"},"#
            + #""created_at":"2027-01-15T07:00:00Z"},"#
            + #"{"id":"1","type":"PushEvent","actor":{"id":9,"login":"monalisa"},"repo":{"name":"octo/two"},"#
            + #""created_at":"2027-01-15T06:00:00Z"}]"#
        github.answer("GET " + path, json: events)
        return github
    }

    /// The events an account received were done by others, so the table says who did each; its own events
    /// were all done by the account, so their table has no such column.
    @Test func theReceivedEventsTableNamesWhoDidEach() async {
        let github = feed("/users/octocat/received_events/public?per_page=30")
        let (env, out, err) = AppEnvironment.test(http: github, stdoutTTY: true, width: 100)
        #expect(await run(["events", "octocat", "--received"], env) == 0)
        let plain = out.text.replacingOccurrences(of: "\u{1B}[1m", with: "")
            .replacingOccurrences(of: "\u{1B}[0m", with: "")
        #expect(
            plain == """
                WHEN         ACTOR     TYPE        REPOSITORY  ID
                1 hour ago   hubot     WatchEvent  octo/one    2
                2 hours ago  monalisa  PushEvent   octo/two    1

                """)
        #expect(err.text.isEmpty)

        let own = feed("/users/octocat/events/public?per_page=30")
        let (ownEnv, ownOut, _) = AppEnvironment.test(http: own, stdoutTTY: true, width: 100)
        #expect(await run(["events", "octocat"], ownEnv) == 0)
        #expect(!ownOut.text.contains("ACTOR"))
        #expect(!ownOut.text.contains("hubot"))
    }

    /// The actor is a field as the others are: a path into it gives the login, the object gives itself.
    @Test(arguments: [
        ("actor.login,type", "hubot\tWatchEvent\nmonalisa\tPushEvent\n"),
        ("actor", #"{"id":7,"login":"hubot"}"# + "\n" + #"{"id":9,"login":"monalisa"}"# + "\n"),
    ])
    func theActorIsAFieldLikeTheOthers(fields: String, lines: String) async {
        let github = feed("/users/octocat/received_events/public?per_page=30")
        let (env, out, err) = AppEnvironment.test(http: github)
        #expect(await run(["events", "octocat", "--received", "--format", "tsv", "--fields", fields], env) == 0)
        #expect(out.text == lines)
        #expect(err.text.isEmpty)
    }

    @Test func aCSVHeaderNamesTheActorsPath() async {
        let github = feed("/users/octocat/received_events/public?per_page=30")
        let (env, out, _) = AppEnvironment.test(http: github)
        #expect(await run(["events", "octocat", "--received", "--format", "csv"], env) == 0)
        #expect(out.text.hasPrefix("created_at,actor.login,type,repo.name,id\r\n2027-01-15T07:00:00Z,hubot,"))
    }
}
