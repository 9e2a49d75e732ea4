import Foundation
import GitHubStandIn
import Testing

/// `access ORG --state FILE` through the built binary against the stand-in: a map stopped by a spent GraphQL limit
/// after its first repository is taken on by the same command, and the two outputs together are the map one run
/// writes; a third run finds it complete and writes nothing.
struct AccessStateEndToEndTests {
    @Test func aMapStoppedAfterARepositoryIsTakenOnByTheSameCommand() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-access-state-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("github.state").path
        try await withStandIn(users: 100) { server in
            func access(_ extra: [String]) async throws -> RunResult {
                try await BinaryRunner.run(
                    [
                        "access", "github", "--format", "ndjson", "--concurrency", "1", "--api-url", server.baseURL,
                        "--no-cache",
                    ] + extra,
                    environment: ["GH_TOKEN": StandInTokens.token(for: "octocat")])
            }
            let whole = try await access([])
            #expect(whole.status == 0, "\(whole.stderr)")
            #expect(whole.stdout.contains("github/docs") && whole.stdout.contains("github/linguist"))

            // The members and the names pass; the batch of both repositories is too large (a 502, as GitHub
            // answers a query that ran out of time) and is asked again one repository at a time; the first of
            // those passes, and the limit is spent at the second.
            server.injectFaults(
                [
                    .passThrough, .passThrough, .status(502, body: ""), .passThrough,
                    .graphQLRateLimited(resetAfterSeconds: 600),
                ],
                forPath: "/graphql")
            let stopped = try await access(["--state", state])
            #expect(stopped.status == 5, "\(stopped.stderr)")
            #expect(stopped.stderr.contains("records the map up to github/docs; run the same command again"))
            #expect(whole.stdout.hasPrefix(stopped.stdout) && !stopped.stdout.isEmpty)
            let recorded = try String(contentsOfFile: state, encoding: .utf8)
            #expect(recorded.contains(#""after":"github/docs""#) && recorded.contains(#""complete":false"#))

            let resumed = try await access(["--state", state])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(stopped.stdout + resumed.stdout == whole.stdout)
            #expect(!resumed.stdout.contains("github/docs"))

            let again = try await access(["--state", state])
            #expect(again.status == 0)
            #expect(again.stdout.isEmpty)
            #expect(again.stderr.contains("nothing to do"))

            // As for `list --state`: a stdout a rerun's `>` would empty is refused before anything is asked.
            let asked = server.requests.count
            let truncating = try await BinaryRunner.shell(
                #""$GH_USERS" access github --state "$STATE.2" --api-url "$API" > "$STATE.out""#,
                environment: [
                    "STATE": state, "API": server.baseURL, "GH_TOKEN": StandInTokens.token(for: "octocat"),
                ])
            #expect(truncating.status == 1)
            #expect(truncating.stderr.contains("with --state, stdout must append to"), "\(truncating.stderr)")
            // access writes to stdout alone: --output, which it does not take, is not offered. With no state yet
            // there is none to restore or remove (before: "restore it or remove the state file", a review's find).
            #expect(
                truncating.stderr.hasSuffix("counts. Nothing was asked: run with >> FILE\n"), "\(truncating.stderr)")
            // Nor with a list crawl's state there, which is no map's to restore or remove: it is said as what it is,
            // first (a review's find).
            try Data(#"{"version":1,"since":5,"output_bytes":3}"#.utf8).write(to: URL(fileURLWithPath: state + ".3"))
            let listState = try await BinaryRunner.shell(
                #""$GH_USERS" access github --state "$STATE.3" --api-url "$API" > "$STATE.out""#,
                environment: [
                    "STATE": state, "API": server.baseURL, "GH_TOKEN": StandInTokens.token(for: "octocat"),
                ])
            #expect(
                listState.stderr.hasSuffix(
                    "is the state of a list crawl, not a gh-users access state. It was left as it is: give --state a "
                        + "file of its own for this run\n"), "\(listState.stderr)")
            // Nor with another map's (ndjson, where this run writes tsv): its difference is said.
            let otherMap = try await BinaryRunner.shell(
                #""$GH_USERS" access github --state "$STATE" --api-url "$API" > "$STATE.out""#,
                environment: [
                    "STATE": state, "API": server.baseURL, "GH_TOKEN": StandInTokens.token(for: "octocat"),
                ])
            #expect(otherMap.status == 1)
            #expect(
                otherMap.stderr.contains(" continues ") && !otherMap.stderr.contains("remove the state file"),
                "\(otherMap.stderr)")
            // Nor with a state that cannot be made: that is said first, as list says it, so the fix of `>` is not
            // followed by a second refusal (before: the `>>` advice, then this on the rerun; a review's find).
            let noFolder = try await BinaryRunner.shell(
                #""$GH_USERS" access github --state "$STATE.none/s" --api-url "$API" > "$STATE.out""#,
                environment: [
                    "STATE": state, "API": server.baseURL, "GH_TOKEN": StandInTokens.token(for: "octocat"),
                ])
            #expect(noFolder.status == 1)
            #expect(
                noFolder.stderr.hasPrefix("gh-users: cannot create the lock beside the state file ")
                    && !noFolder.stderr.contains(">>"), "\(noFolder.stderr)")
            #expect(server.requests.count == asked)
        }
    }

    /// A write cut short by a full disk (here `ulimit -f`, 3 KiB: the first repository fits, the second is cut)
    /// under `>>`: stderr says where the state stands and how many bytes past it the rerun removes, and the rerun
    /// leaves the map whole, none of it twice. Before, stderr said only that the write failed, and the rerun wrote
    /// the cut repository again after its cut part, exit 0 (a review's find). A state of an older gh-users, which
    /// records no output length, is refused instead, with what to remove by hand.
    @Test func aWriteCutByAFullDiskSaysWhatToRemoveAndTheRerunMendsIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-access-cut-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (output, state) = (
            folder.appendingPathComponent("map.ndjson").path, folder.appendingPathComponent("s").path
        )
        try await withStandIn(users: 100) { server in
            let environment = [
                "API": server.baseURL, "OUT": output, "STATE": state, "GH_TOKEN": StandInTokens.token(for: "octocat"),
            ]
            let access = #""$GH_USERS" access github --format ndjson --concurrency 1 --api-url "$API" --no-cache"#
            func resume(after command: String = "") async throws -> RunResult {
                try await BinaryRunner.shell(
                    command + access + #" --state "$STATE" >> "$OUT""#, environment: environment)
            }
            /// The state as an older gh-users wrote it, without the output's length and name.
            func older() throws {
                let text = try String(contentsOfFile: state, encoding: .utf8)
                let stripped = text.replacingOccurrences(
                    of: #","output_bytes":[0-9]+,"output":"[^"]*""#, with: "", options: .regularExpression)
                #expect(stripped != text)
                try Data(stripped.utf8).write(to: URL(fileURLWithPath: state))
            }
            let whole = try await BinaryRunner.shell(access, environment: environment)
            #expect(whole.status == 0 && whole.stdout.utf8.count > 3072, "\(whole.stderr)")
            let cut = try await resume(after: "ulimit -f 3; ")
            #expect(cut.status == 1, "\(cut.stderr)")
            #expect(cut.stderr.contains("records the map up to github/docs. The last "), "\(cut.stderr)")
            #expect(cut.stderr.contains("which the rerun removes and writes again whole"), "\(cut.stderr)")
            let cutFile = try Data(contentsOf: URL(fileURLWithPath: output))
            #expect(cutFile.count == 3072 && cutFile.last != UInt8(ascii: "\n"))
            let mended = try await resume()
            #expect(mended.status == 0, "\(mended.stderr)")
            #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self) == whole.stdout)

            // An older state: the cut line would join the first record, so the rerun is refused before any
            // request, the output and the state as they were (a review's find: only a file of gh-users's own was
            // refused here); removing what the advice names mends it.
            try FileManager.default.removeItem(atPath: state)
            try Data().write(to: URL(fileURLWithPath: output))
            let again = try await resume(after: "ulimit -f 3; ")
            let bytes = try #require(
                again.stderr.split(separator: "The last ").last.flatMap { Int($0.prefix { $0.isNumber }) },
                "\(again.stderr)")
            try older()
            let (recorded, asked) = (try Data(contentsOf: URL(fileURLWithPath: state)), server.requests.count)
            let asItIs = try await resume()
            #expect(asItIs.status == 1)
            #expect(
                asItIs.stderr.contains(
                    "'\(output)', ends inside a line (its last byte is no line end): a record cut short, which this "
                        + "run's first record would join. Nothing was written, and the file is as it was: remove what "
                        + "follows the records of github/docs, the last repository the state records"),
                "\(asItIs.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == cutFile)
            #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == recorded)
            #expect(server.requests.count == asked)
            let rerun = try await resume(after: #"truncate -s -\#(bytes) "$OUT" && "#)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self) == whole.stdout)
            // Cut inside the first repository, an older state records none: the rerun writes the map from the
            // start, so the advice is to remove all the interrupted run wrote, not only its last line (a review's
            // find). The state of this gh-users records the file's length, and the rerun cuts it back.
            try FileManager.default.removeItem(atPath: state)
            try Data().write(to: URL(fileURLWithPath: output))
            let early = try await resume(after: "ulimit -f 1; ")
            #expect(early.status == 1, "\(early.stderr)")
            let earlyState = try Data(contentsOf: URL(fileURLWithPath: state))
            try older()
            let refused = try await resume()
            #expect(refused.status == 1)
            #expect(
                refused.stderr.contains(
                    "remove all that the interrupted run wrote, a csv header too (its state records no repository "
                        + "yet, so the rerun writes the map from its first repository)"), "\(refused.stderr)")
            try earlyState.write(to: URL(fileURLWithPath: state))
            let fromStart = try await resume()
            #expect(fromStart.status == 0, "\(fromStart.stderr)")
            #expect(fromStart.stderr.contains("removed the last 1024 bytes"), "\(fromStart.stderr)")
            #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self) == whole.stdout)
            // A whole map cut afterwards is no map done: refused, the file and the state as they were, where
            // before the complete state ended the run first, "nothing to do", exit 0 (a review's find).
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            try handle.truncate(atOffset: UInt64(whole.stdout.utf8.count - 5))
            try handle.close()
            let (cutMap, complete) = (
                try Data(contentsOf: URL(fileURLWithPath: output)), try Data(contentsOf: URL(fileURLWithPath: state))
            )
            let afterWhole = try await resume()
            #expect(afterWhole.status == 1)
            #expect(afterWhole.stderr.contains("remove both it and the state file"), "\(afterWhole.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == cutMap)
            #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == complete)
        }
    }

    /// A kill between a repository's records reaching the file and the state's save (here: the stop after
    /// github/docs, then github/linguist's records appended as that kill would leave them): the rerun cuts them,
    /// says so, and writes them once, where before the map held them twice, exit 0 (a review's find). Bytes past
    /// the state that are no repository of the map, or a file shorter than the state records, are refused with
    /// the file as it was.
    @Test func recordsWrittenButNotRecordedAreCutBeforeTheRerun() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-access-kill-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (output, state) = (
            folder.appendingPathComponent("map.tsv").path, folder.appendingPathComponent("s").path
        )
        let outputURL = URL(fileURLWithPath: output)
        try await withStandIn(users: 100) { server in
            let environment = [
                "API": server.baseURL, "OUT": output, "STATE": state, "GH_TOKEN": StandInTokens.token(for: "octocat"),
            ]
            let access = #""$GH_USERS" access github --format csv --concurrency 1 --api-url "$API" --no-cache"#
            let resume = {
                try await BinaryRunner.shell(access + #" --state "$STATE" >> "$OUT""#, environment: environment)
            }
            let whole = try await BinaryRunner.shell(access, environment: environment)
            #expect(whole.status == 0, "\(whole.stderr)")
            server.injectFaults(
                [
                    .passThrough, .passThrough, .status(502, body: ""), .passThrough,
                    .graphQLRateLimited(resetAfterSeconds: 600),
                ],
                forPath: "/graphql")
            let stopped = try await resume()
            #expect(stopped.status == 5, "\(stopped.stderr)")
            let written = try Data(contentsOf: outputURL)
            #expect(try String(contentsOfFile: state, encoding: .utf8).contains(#""output_bytes":\#(written.count),"#))
            let rest = Data(whole.stdout.utf8.dropFirst(written.count))
            #expect(String(decoding: rest, as: UTF8.self).hasPrefix("github/linguist,"))
            let recorded = try Data(contentsOf: URL(fileURLWithPath: state))

            // Not the map's: a line of another organization's, records of a repository the map wrote (appended
            // by `--repo docs`), a note without its line end, or fewer bytes than recorded. Refused, as they were.
            for (tail, reason) in [
                (Data("other/repo,octocat,1,read,member,[],\n".utf8), "not a record of github's map"),
                (Data("github/docs,octocat,1,read,member,[],\n".utf8), "sorts at or before github/docs"),
                (Data("checked by mona".utf8), "not a record of github's map"),
                (Data(), "fewer than the \(written.count) the state file"),
            ] {
                // Without its last line: the file ends at a line end, so only the length tells the loss.
                let lastLine = written.dropLast().lastIndex(of: UInt8(ascii: "\n")).map { written.prefix(through: $0) }
                let changed = tail.isEmpty ? try #require(lastLine) : written + tail
                try changed.write(to: outputURL)
                let refused = try await resume()
                #expect(refused.status == 1 && refused.stderr.contains(reason), "\(refused.stderr)")
                #expect(try Data(contentsOf: outputURL) == changed)
                #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == recorded)
            }

            // The next repository's records whole, and cut inside a line: each is removed and written once.
            for kept in [rest.count, rest.count / 2] {
                try (written + rest.prefix(kept)).write(to: outputURL)
                let resumed = try await resume()
                #expect(resumed.status == 0, "\(resumed.stderr)")
                #expect(
                    resumed.stderr.contains(
                        "removed the last \(kept) bytes of '\(output)', written past the records of github/docs by the run that stopped"
                    ), "\(resumed.stderr)")
                #expect(String(decoding: try Data(contentsOf: outputURL), as: UTF8.self) == whole.stdout)
                try recorded.write(to: URL(fileURLWithPath: state))
            }

            // stderr into the same file would put the run's messages among the records: refused before anything.
            try (written + rest).write(to: outputURL)
            let mixed = try await BinaryRunner.shell(
                access + #" --state "$STATE" >> "$OUT" 2>&1"#, environment: environment)
            #expect(mixed.status == 1)
            let said = String(
                decoding: try Data(contentsOf: outputURL).dropFirst(written.count + rest.count), as: UTF8.self)
            #expect(said.contains("stderr must not go to"), "\(said)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == recorded)

            // The file renamed after the stop is still the one the state counts: its leftover is cut there.
            try (written + rest).write(to: outputURL)
            try FileManager.default.moveItem(atPath: output, toPath: output + ".moved")
            var moved = environment
            moved["OUT"] = output + ".moved"
            let renamed = try await BinaryRunner.shell(access + #" --state "$STATE" >> "$OUT""#, environment: moved)
            #expect(
                renamed.status == 0 && renamed.stderr.contains("removed the last \(rest.count) bytes"),
                "\(renamed.stderr)")
            #expect(
                String(decoding: try Data(contentsOf: URL(fileURLWithPath: output + ".moved")), as: UTF8.self)
                    == whole.stdout)
        }
    }

    /// Without the repository among `--fields`, nothing tells a stop's leftover from another run's lines (a review
    /// lost a second map appended with its own state): the rerun cuts nothing, exit 1, and names the length to
    /// cut back to; cut so, it goes on, and the file is the whole map.
    @Test func withoutTheRepositoryTheRerunAsksForTheCut() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-access-kept-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("map.ndjson").path
        try await withStandIn(users: 100) { server in
            let environment = [
                "API": server.baseURL, "OUT": output, "STATE": folder.appendingPathComponent("s").path,
                "GH_TOKEN": StandInTokens.token(for: "octocat"),
            ]
            let access =
                #""$GH_USERS" access github --format ndjson --fields login,permission --concurrency 1 "#
                + #"--api-url "$API" --no-cache"#
            let resume = {
                try await BinaryRunner.shell(access + #" --state "$STATE" >> "$OUT""#, environment: environment)
            }
            let whole = try await BinaryRunner.shell(access, environment: environment)
            server.injectFaults(
                [
                    .passThrough, .passThrough, .status(502, body: ""), .passThrough,
                    .graphQLRateLimited(resetAfterSeconds: 600),
                ],
                forPath: "/graphql")
            #expect(try await resume().status == 5)
            let written = try Data(contentsOf: URL(fileURLWithPath: output))
            let other = Data(#"{"login":"another map's","permission":"read"}"#.utf8 + [10])
            try (written + other).write(to: URL(fileURLWithPath: output))
            let refused = try await resume()
            #expect(
                refused.status == 1 && refused.stderr.contains("--fields leave out repository"), "\(refused.stderr)")
            #expect(refused.stderr.contains("(truncate -s \(written.count) "), "\(refused.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == written + other)
            try written.write(to: URL(fileURLWithPath: output))
            let resumed = try await resume()
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self) == whole.stdout)
        }
    }
}
