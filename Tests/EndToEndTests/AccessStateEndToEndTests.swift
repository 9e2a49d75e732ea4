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
            #expect(cut.stderr.contains("which the rerun keeps where they are its own first records"), "\(cut.stderr)")
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
            #expect(
                fromStart.stderr.contains(
                    "the last 1024 bytes of '\(output)', written past the map's start by the run "
                        + "that stopped, are this run's first records to the byte: kept"), "\(fromStart.stderr)")
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
    /// github/docs, then github/linguist's records appended as that kill would leave them): the rerun finds them
    /// to be its own first records, keeps them, says so, and writes only the rest, where before the map held them
    /// twice, exit 0 (a review's find). Bytes past the state that are not, or a file shorter than the state
    /// records, are refused with the file and the state as they were.
    @Test func recordsWrittenButNotRecordedAreKeptByTheRerun() async throws {
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
            let resumeInto = { (file: String) in
                var environment = environment
                environment["OUT"] = file
                return try await BinaryRunner.shell(access + #" --state "$STATE" >> "$OUT""#, environment: environment)
            }
            let resume = { try await resumeInto(output) }
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

            // Not this run's first records: another organization's line, records of a repository the map wrote
            // (appended by `--repo docs`), a note without its line end, a line cut short and another map's lines
            // after it, or fewer bytes than recorded. Refused, with nothing written, both as they were.
            let unlike = "are not the records this run reads again"
            for (tail, reason) in [
                (Data("other/repo,octocat,1,read,member,[],\n".utf8), unlike),
                (Data("github/docs,octocat,1,read,member,[],\n".utf8), unlike),
                (Data("checked by mona".utf8), unlike),
                (rest.prefix(rest.count / 2) + Data("github/docs,octocat,1,read,member,[],\n".utf8), unlike),
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

            // The next repository's records whole, and cut inside a line: each is kept, and the rest follows.
            let kept = { (bytes: Int) in
                "the last \(bytes) bytes of '\(output)', written past the records of github/docs by the run that "
                    + "stopped, are this run's first records to the byte: kept"
            }
            for left in [rest.count, rest.count / 2] {
                try (written + rest.prefix(left)).write(to: outputURL)
                let resumed = try await resume()
                #expect(resumed.status == 0 && resumed.stderr.contains(kept(left)), "\(resumed.stderr)")
                #expect(String(decoding: try Data(contentsOf: outputURL), as: UTF8.self) == whole.stdout)
                try recorded.write(to: URL(fileURLWithPath: state))
            }

            // stderr into the same file would put the run's messages among the records: refused before anything
            // is asked, or the token checked. With no terminal to say it on (`setsid`, as under cron) it is said
            // on stderr, the file, where before the run ended silently, exit 1; and without a token, the token's
            // message went into the file, exit 4. The state is as it was, and the rerun refuses those bytes.
            let asked = server.requests.count
            for token in [StandInTokens.token(for: "octocat"), ""] {
                try (written + rest).write(to: outputURL)
                var noTerminal = environment
                noTerminal["GH_TOKEN"] = token
                let mixed = try await BinaryRunner.shell(
                    "setsid -w " + access + #" --state "$STATE" >> "$OUT" 2>&1"#, environment: noTerminal)
                let said = String(
                    decoding: try Data(contentsOf: outputURL).dropFirst(written.count + rest.count), as: UTF8.self)
                #expect(mixed.status == 1, "\(said)")
                #expect(
                    said.hasPrefix("gh-users: with --state, stderr must not go to '\(output)' too (2>&1)"), "\(said)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == recorded)
            }
            #expect(server.requests.count == asked)
            let afterMixed = try await resume()
            #expect(afterMixed.status == 1 && afterMixed.stderr.contains("(truncate -s \(written.count) "))
            try (written + rest).write(to: outputURL)

            // The file copied over itself (a new inode at the same path, as `sed -i` or an editor's save leave it),
            // then moved to another name: still the one the state counts, by its content.
            try FileManager.default.copyItem(atPath: output, toPath: output + ".copy")
            try FileManager.default.removeItem(atPath: output)
            try FileManager.default.moveItem(atPath: output + ".copy", toPath: output)
            let copied = try await resume()
            #expect(copied.status == 0 && copied.stderr.contains(kept(rest.count)), "\(copied.stderr)")
            try recorded.write(to: URL(fileURLWithPath: state))
            try (written + rest).write(to: outputURL)
            try FileManager.default.moveItem(atPath: output, toPath: output + ".moved")
            var moved = environment
            moved["OUT"] = output + ".moved"
            let renamed = try await BinaryRunner.shell(access + #" --state "$STATE" >> "$OUT""#, environment: moved)
            #expect(
                renamed.status == 0 && renamed.stderr.contains("of '\(output).moved', written past"),
                "\(renamed.stderr)")
            #expect(
                String(decoding: try Data(contentsOf: URL(fileURLWithPath: output + ".moved")), as: UTF8.self)
                    == whole.stdout)

            // The map's rest into a file of its own: the first file's leftover is named, with the cut that
            // removes it there.
            try recorded.write(to: URL(fileURLWithPath: state))
            try (written + rest).write(to: outputURL)
            let elsewhere = try await resumeInto(output + ".rest")
            #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
            #expect(
                elsewhere.stderr.contains(
                    "which this run writes again here: remove them from it (truncate -s \(written.count) "),
                "\(elsewhere.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: output + ".rest")) == rest)
            #expect(try Data(contentsOf: outputURL) == written + rest)

            // Bytes past the map's last repository, which no record of this run can begin: the map ends, exit 1,
            // nothing written, the state as it was (before: exit 0 without a word, and never recorded whole).
            let reopened = try String(contentsOfFile: state, encoding: .utf8).replacingOccurrences(
                of: #""complete":true"#, with: #""complete":false"#)
            try Data(reopened.utf8).write(to: URL(fileURLWithPath: state))
            let restFile = URL(fileURLWithPath: output + ".rest")
            try (rest + Data("github/zzz,mona\n".utf8)).write(to: restFile)
            let ended = try await resumeInto(output + ".rest")
            #expect(ended.status == 1, "\(ended.stderr)")
            #expect(
                ended.stderr.contains("this run has no records to write after the last repository the state counts"),
                "\(ended.stderr)")
            #expect(try Data(contentsOf: restFile) == rest + Data("github/zzz,mona\n".utf8))
            #expect(try String(contentsOfFile: state, encoding: .utf8) == reopened)
        }
    }

    /// Without the repository among `--fields` the records are compared all the same: another map's lines
    /// appended after a stop (a review lost a second map appended with its own state) are refused, nothing
    /// written; the stop's own records are kept, and the map goes on after them.
    @Test func withoutTheRepositoryTheLeftoverIsComparedToo() async throws {
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
            #expect(refused.status == 1 && refused.stderr.contains("they differ from"), "\(refused.stderr)")
            #expect(refused.stderr.contains("(truncate -s \(written.count) "), "\(refused.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == written + other)
            let rest = Data(whole.stdout.utf8.dropFirst(written.count))
            try (written + rest.prefix(rest.count - 3)).write(to: URL(fileURLWithPath: output))
            let resumed = try await resume()
            #expect(resumed.status == 0 && resumed.stderr.contains("to the byte: kept"), "\(resumed.stderr)")
            #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self) == whole.stdout)
        }
    }
}
