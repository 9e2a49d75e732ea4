import Foundation
import GitHubStandIn
import TestSupport
import Testing

/// `members ORG --changes FILE` through the built binary, as an organization's nightly job runs it: three runs
/// across a member who joined, one who left and one whose role changed on the stand-in, and a run with a token
/// that is not a member, which GitHub answers with the public members alone and which leaves FILE as it was.
struct PeopleChangesEndToEndTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-people-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private var snapshot: String { folder.appendingPathComponent("members.json").path }

    private func changes(
        _ server: StandInServer, as login: String = "octocat", _ extra: [String] = [], file: String? = nil
    ) async throws -> RunResult {
        try await BinaryRunner.run(
            ["members", "acme", "--changes", file ?? snapshot, "--per-page", "2", "--api-url", server.baseURL]
                + ["--no-cache"] + extra,
            environment: ["GH_TOKEN": StandInTokens.token(for: login)])
    }

    /// As the organization's owner (octocat) would have it: `login` a member with `role`, or gone (nil).
    private func set(_ login: String, _ role: String?, _ server: StandInServer) throws {
        let user = try #require(server.population.user(login: login))
        #expect(server.world.edit { $0.setMember(user.login, role: role, of: "acme") })
    }

    @Test func threeRunsAcrossAJoinALeaveAndARoleChange() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 100) { server in
            for login in ["Yamada-Taro", "kitsune-fox", "Happy-Otter-5"] { try set(login, "member", server) }
            let first = try await changes(server, ["--format", "tsv"])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.isEmpty)
            #expect(
                first.stderr
                    == "gh-users: recorded the 4 accounts of 'gh-users members acme' in '\(snapshot)'; from the next "
                    + "run on, --changes writes who came and went, and whose role changed.\n")
            let attributes = try FileManager.default.attributesOfItem(atPath: snapshot)
            #expect(attributes[.posixPermissions] as? Int == 0o600)

            try set("jollyotter6", "member", server)
            try set("kitsune-fox", nil, server)
            try set("Yamada-Taro", "admin", server)
            let newcomer = try #require(server.population.user(login: "jollyotter6"))
            let second = try await changes(server, ["--format", "tsv"])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(
                second.stdout
                    == "added\tjollyotter6\t\(newcomer.id)\t\tmember\t\nchanged\tYamada-Taro\t2\t\tadmin\tmember\n"
                    + "removed\tkitsune-fox\t4\t\tmember\t\n")
            #expect(second.stderr.isEmpty)

            // A token that is not a member is answered the public members alone: refused (its account is not on
            // the list), and FILE is left as it was.
            let before = try Data(contentsOf: URL(fileURLWithPath: snapshot))
            try set("Yamada-Taro", nil, server)
            let outsider = try await changes(server, as: "lively-otter-8")
            #expect(outsider.status == 4, "\(outsider.stderr)")
            #expect(outsider.stderr.contains("(lively-otter-8) is not among the members GitHub listed of acme"))
            #expect(outsider.stdout.isEmpty)
            #expect(outsider.stderr.hasSuffix("gh-users: the snapshot file '\(snapshot)' was left as it was.\n"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) == before)

            let third = try await changes(server, ["--format", "ndjson"])
            #expect(third.status == 0, "\(third.stderr)")
            #expect(third.stdout == #"{"change":"removed","login":"Yamada-Taro","id":2,"role":"admin"}"# + "\n")

            // One role's list may leave a member out, so the stand-in's GraphQL says whether the token's account
            // is a member (`viewerIsAMember`): the outsider's owners' list is refused too, FILE left as it was.
            let roleFile = folder.appendingPathComponent("owners.json").path
            #expect(try await changes(server, ["--role", "admin"], file: roleFile).status == 0)
            let recorded = try Data(contentsOf: URL(fileURLWithPath: roleFile))
            let outsiderOwners = try await changes(server, as: "lively-otter-8", ["--role", "admin"], file: roleFile)
            #expect(outsiderOwners.status == 4, "\(outsiderOwners.stderr)")
            #expect(outsiderOwners.stderr.contains("(lively-otter-8) is no member of acme"), "\(outsiderOwners.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: roleFile)) == recorded)
        }
    }

    /// A large snapshot that is not byte for byte as gh-users writes it (here only its last newline is gone) is
    /// read in its own bytes, an entry at a time: `JSONDecoder` read it whole in about seven times its size, and
    /// under a `ulimit -v` gh-users accepts, 400,000 people (19 MB) ended in an allocation failure's backtrace,
    /// exit 134 (helper-291); so did 1,000,000 (48 MB) while the list was copied twice and every line scanned
    /// before the missing newline was seen (helper-295). Read, the list GitHub gave (1 member) is the collapse it
    /// is, and FILE is kept. The limit is 400000 KiB, near gh-users's floor: glibc's malloc reserved 64 MiB for
    /// each arena, and the run aborted in 5 runs of 5 until it kept two under a limit.
    @Test func aLargeSnapshotNotAsWrittenIsReadWithinAMemoryLimit() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 100) { server in
            #expect(try await changes(server).status == 0)
            let recorded = try Data(contentsOf: URL(fileURLWithPath: snapshot))
            let header = try #require(recorded.split(separator: UInt8(ascii: "\n")).first)
            var edited = Data(header) + Data("\n".utf8)
            let count = 1_000_000
            for id in 1...count {
                edited += Data("{\"id\":\(id),\"login\":\"user-\(id)\",\"role\":\"member\"}".utf8)
                edited += Data((id < count ? ",\n" : "\n").utf8)
            }
            edited += Data("]}".utf8)
            try edited.write(to: URL(fileURLWithPath: snapshot))
            let result = try await BinaryRunner.shell(
                #"ulimit -v 400000; "$GH_USERS" members acme --changes "$SNAPSHOT" --api-url "$API" --no-cache"#,
                environment: [
                    "SNAPSHOT": snapshot, "API": server.baseURL, "GH_TOKEN": StandInTokens.token(for: "octocat"),
                ])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
            #expect(result.stderr.contains("came back with 1 account while the snapshot holds 1000000"))
            #expect(result.stderr.hasSuffix("gh-users: the snapshot file '\(snapshot)' was left as it was.\n"))
            #expect(result.stdout.isEmpty)
            #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) == edited)
        }
    }

    /// A nightly job's csv log, appended to (`>> FILE`): one header at its top, then each run's changes, and a run
    /// with no change adds nothing; a log whose header ends in LF, or follows a byte order mark, is the same log, as
    /// `list --output` takes it. Before, every run added a header, which a loader took for a record (a cron
    /// review's find). A log that begins otherwise gets the header, as a new file does, and so does one stdout
    /// does not append to (`1<>`), written from its start (the header kept there; a regression review's find).
    /// Two runs into one `>` (`{ run; run; } > log`) write one header too: the second run's stdout is past the
    /// first's records, though it does not append (a regression review's find).
    @Test func aCSVLogAppendedToHasOneHeader() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 100) { server in
            let header = "change,login,id,previous_login,role,previous_role"
            let files = ["log", "other", "lf", "bom", "open"].map { folder.appendingPathComponent($0 + ".csv").path }
            let starts = ["", "date\r\n", header + "\n", "\u{FEFF}" + header + "\r\n", header + "\r\nold,line\r\n"]
            for (file, start) in zip(files, starts) { try Data(start.utf8).write(to: URL(fileURLWithPath: file)) }
            func run(into file: String, _ redirection: String = ">>") async throws -> RunResult {
                try await BinaryRunner.shell(
                    #""$GH_USERS" members acme --changes "$SNAPSHOT" --format csv --api-url "$API" --no-cache "#
                        + redirection + #" "$LOG""#,
                    environment: [
                        "SNAPSHOT": snapshot, "API": server.baseURL, "LOG": file,
                        "GH_TOKEN": StandInTokens.token(for: "octocat"),
                    ])
            }
            #expect(try await run(into: files[0]).status == 0)
            try set("jollyotter6", "member", server)
            #expect(try await run(into: files[0]).status == 0)
            #expect(try await run(into: files[0]).status == 0)
            let id = try #require(server.population.user(login: "jollyotter6")).id
            for (index, member) in [nil, "member", nil, "member"].enumerated() {
                try set("jollyotter6", member, server)
                #expect(try await run(into: files[index + 1], index == 3 ? "1<>" : ">>").status == 0)
            }
            // Decoded as they are: `String(contentsOfFile:)` drops a byte order mark.
            let texts = try files.map {
                String(decoding: try Data(contentsOf: URL(fileURLWithPath: $0)), as: UTF8.self)
            }
            let (added, removed) = ("added,jollyotter6,\(id),,member,\r\n", "removed,jollyotter6,\(id),,member,\r\n")
            // Two snapshots that both lack jollyotter6, then two runs that report it, through one `>`.
            let paths = ["1.json", "2.json", "grouped.csv"].map { folder.appendingPathComponent($0).path }
            let (first, second, grouped) = (paths[0], paths[1], paths[2])
            try set("jollyotter6", nil, server)
            let twice =
                #"for file in "$FIRST" "$SECOND"; do "$GH_USERS" members acme --changes "$file" --format csv "#
                + #"--api-url "$API" --no-cache; done"#
            let environment = [
                "FIRST": first, "SECOND": second, "API": server.baseURL,
                "GH_TOKEN": StandInTokens.token(for: "octocat"),
            ]
            #expect(try await BinaryRunner.shell(twice + " > /dev/null", environment: environment).status == 0)
            try set("jollyotter6", "member", server)
            let grouping = try await BinaryRunner.shell(
                twice + #" > "$GROUPED""#, environment: environment.merging(["GROUPED": grouped]) { $1 })
            #expect(grouping.status == 0, "\(grouping.stderr)")
            let groupedText = try String(contentsOfFile: grouped, encoding: .utf8)
            #expect(groupedText == header + "\r\n" + added + added, "\(groupedText)")
            #expect(texts[0] == header + "\r\n" + added, "\(texts[0])")
            #expect(texts[1] == "date\r\n" + header + "\r\n" + removed, "\(texts[1])")
            #expect(texts[2] == header + "\n" + added, "\(texts[2])")
            #expect(texts[3] == "\u{FEFF}" + header + "\r\n" + removed, "\(texts[3])")
            #expect(texts[4].hasPrefix(header + "\r\n" + added), "\(texts[4])")
        }
    }

    /// A log whose last line has no end (a run killed as it wrote): changes that would join that line are not
    /// written, and not recorded, so the run after the line is mended reports them. Before, a csv header was glued
    /// to the cut line; tsv's and ndjson's first change would have been. So is one that begins with a byte order
    /// mark, which the check once took for a file of a mark alone (a review's find).
    @Test(arguments: [
        ("csv", "change,login\r\nadded,cut"), ("ndjson", "{\"change\":"), ("tsv", "added\tcut"),
        ("csv", "\u{FEFF}change,login,id,previous_login,role,previous_role\r\nadded,cut"), ("tsv", "\u{FEFF}a"),
    ])
    func changesAreNotGluedToALogsUnendedLine(format: String, start: LoggedText) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 100) { server in
            let log = folder.appendingPathComponent("log").path
            func run() async throws -> RunResult {
                try await BinaryRunner.shell(
                    #""$GH_USERS" members acme --changes "$SNAPSHOT" --format "$FORMAT" --api-url "$API" "#
                        + #"--no-cache >> "$LOG""#,
                    environment: [
                        "SNAPSHOT": snapshot, "API": server.baseURL, "LOG": log, "FORMAT": format,
                        "GH_TOKEN": StandInTokens.token(for: "octocat"),
                    ])
            }
            #expect(try await run().status == 0)
            let recorded = try Data(contentsOf: URL(fileURLWithPath: snapshot))
            try Data(start.text.utf8).write(to: URL(fileURLWithPath: log))
            try set("jollyotter6", "member", server)
            let refused = try await run()
            #expect(refused.status == 1)
            #expect(
                refused.stderr.hasPrefix(
                    "gh-users: stdout's file '\(log)' ends inside a line (its last byte is no line end)"),
                "\(refused.stderr)")
            // Bytes, since `String(contentsOfFile:)` drops a byte order mark.
            #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == Data(start.text.utf8))
            #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) == recorded)
            // Mended, the log takes the change the refused run did not record.
            try Data((start.text + "\n").utf8).write(to: URL(fileURLWithPath: log))
            let mended = try await run()
            #expect(mended.status == 0, "\(mended.stderr)")
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)), as: UTF8.self)
            #expect(text.hasPrefix(start.text + "\n") && text.contains("jollyotter6"), "\(text)")
        }
    }

    /// A run with no change that still writes (json's `[]`) is refused at a log's unended line too, the log
    /// and FILE as they were: helper-337's SF9 glued `[]` to the line unseen.
    @Test func noChangeIsGluedToALogsUnendedLineEither() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 100) { server in
            let log = folder.appendingPathComponent("log").path
            let run = {
                try await BinaryRunner.shell(
                    #""$GH_USERS" members acme --changes "$SNAPSHOT" --json --api-url "$API" --no-cache >> "$LOG""#,
                    environment: [
                        "SNAPSHOT": snapshot, "API": server.baseURL, "LOG": log,
                        "GH_TOKEN": StandInTokens.token(for: "octocat"),
                    ])
            }
            #expect(try await run().status == 0)
            let recorded = try Data(contentsOf: URL(fileURLWithPath: snapshot))
            try Data("cut".utf8).write(to: URL(fileURLWithPath: log))
            let refused = try await run()
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("ends inside a line"), "\(refused.stderr)")
            #expect(try String(contentsOfFile: log, encoding: .utf8) == "cut")
            #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) == recorded)
        }
    }

    /// A snapshot or a state that the binary wrote, given as where records go (`>>` under `--changes`, a
    /// mistyped `--output`), is exit 1 and left byte for byte, and the changes are not recorded: records after
    /// it would break the JSON its own run reads whole (a tester's find: the next run refused it).
    @Test func aSnapshotOrAStateIsNoPlaceForRecords() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 100) { server in
            let other = folder.appendingPathComponent("followers.json").path
            let state = folder.appendingPathComponent("crawl.state").path
            let environment = [
                "SNAPSHOT": snapshot, "OTHER": other, "STATE": state, "API": server.baseURL,
                "GH_TOKEN": StandInTokens.token(for: "octocat"),
            ]
            let made = try await BinaryRunner.shell(
                #""$GH_USERS" followers octocat --changes "$OTHER" --api-url "$API" --no-cache && "#
                    + #""$GH_USERS" list --limit 3 --state "$STATE" --output "$STATE.tsv" --api-url "$API" --no-cache && "#
                    + #""$GH_USERS" members acme --changes "$SNAPSHOT" --api-url "$API" --no-cache"#,
                environment: environment)
            #expect(made.status == 0, "\(made.stderr)")
            let (followers, crawl, members) = try (
                Data(contentsOf: URL(fileURLWithPath: other)), Data(contentsOf: URL(fileURLWithPath: state)),
                Data(contentsOf: URL(fileURLWithPath: snapshot))
            )
            // With nothing changed, nothing would be written, yet the mistake is said at once, not on the first
            // run that has a change to lose (a review's find: it recorded, exit 0).
            let quiet = try await BinaryRunner.shell(
                #""$GH_USERS" members acme --changes "$SNAPSHOT" --api-url "$API" --no-cache >> "$OTHER""#,
                environment: environment)
            #expect(quiet.status == 1)
            #expect(quiet.stderr.contains("is the snapshot of 'gh-users followers octocat'"), "\(quiet.stderr)")
            try set("jollyotter6", "member", server)
            let appended = try await BinaryRunner.shell(
                #""$GH_USERS" members acme --changes "$SNAPSHOT" --api-url "$API" --no-cache >> "$OTHER""#,
                environment: environment)
            #expect(appended.status == 1)
            #expect(
                appended.stderr.hasPrefix(
                    "gh-users: stdout's file '\(other)' is the snapshot of 'gh-users followers octocat', which "
                        + "gh-users reads whole and replaces"), "\(appended.stderr)")
            // An access map resumed into `>> FILE` is checked as list's crawl is (a review's find).
            let map = try await BinaryRunner.shell(
                #""$GH_USERS" access acme --state "$STATE.map" --api-url "$API" --no-cache >> "$OTHER""#,
                environment: environment)
            #expect(map.status == 1)
            #expect(
                map.stderr.hasPrefix(
                    "gh-users: the file stdout appends to, '\(other)', is the snapshot of 'gh-users followers octocat'"),
                "\(map.stderr)")
            #expect(!FileManager.default.fileExists(atPath: state + ".map"))
            let output = try await BinaryRunner.shell(
                #""$GH_USERS" list --limit 2 --output "$STATE" --format ndjson --api-url "$API" --no-cache"#,
                environment: environment)
            #expect(output.status == 1)
            #expect(
                output.stderr.hasPrefix("gh-users: the output file '\(state)' is the state of a list crawl"),
                "\(output.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == followers)
            #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == crawl)
            #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) == members)
        }
    }

    /// FILE records the API root it was made against: the same `members acme --changes FILE` against another
    /// stand-in (another server, whose list differs) is refused before anything is sent to it, FILE left byte for
    /// byte. Before, the second server's list was compared with the first's and FILE overwritten, exit 0.
    @Test func aSnapshotOfOneServerIsRefusedOnAnother() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withStandIn(users: 100) { first in
            try await withStandIn(users: 100) { second in
                let recorded = try await changes(first)
                #expect(recorded.status == 0, "\(recorded.stderr)")
                let text = try String(contentsOfFile: snapshot, encoding: .utf8)
                #expect(text.hasPrefix(#"{"version":1,"api_url":"\#(first.baseURL)","command":"members","#), "\(text)")
                let before = try Data(contentsOf: URL(fileURLWithPath: snapshot))
                try set("jollyotter6", "member", second)
                let sent = second.requests.count
                let other = try await changes(second, ["--format", "tsv"])
                #expect(other.status == 1, "\(other.stderr)")
                #expect(other.stdout.isEmpty, "\(other.stdout)")
                #expect(
                    other.stderr
                        == "gh-users: the snapshot file '\(snapshot)' was made against the API at \(first.baseURL), "
                        + "not against \(second.baseURL), which this run uses (--api-url, GH_USERS_API_URL or GH_HOST). "
                        + "It was left as it is: give each server its own snapshot file (for the same server under a new "
                        + "name, edit its \"api_url\")\n")
                #expect(second.requests.count == sent)
                #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) == before)
                // The first server's runs carry on with FILE.
                let again = try await changes(first, ["--format", "tsv"])
                #expect(again.status == 0, "\(again.stderr)")
                #expect(again.stdout.isEmpty, "\(again.stdout)")
            }
        }
    }
}
