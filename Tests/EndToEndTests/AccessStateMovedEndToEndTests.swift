import Foundation
import GitHubStandIn
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `access --state` where a review found the rerun still wrote records twice or said nothing: a map stopped in its
/// first repository (its state records the file empty) whose file was then moved, a csv header left past the
/// map's last repository, and stderr sent into the file with no terminal to say it on.
struct AccessStateMovedEndToEndTests {
    /// A folder of its own, removed after `body`.
    private static func inFolder(_ name: String, _ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    /// A stop before the first repository was recorded, then the file renamed: the rerun into it finds the stop's
    /// records there, keeps them and writes the rest, where before (the file known by its path alone) it wrote
    /// the first repository and the csv header again, exit 0. At 0 bytes the state's file is the one at its path
    /// with its device and inode; another file's bytes are kept only where they begin this run's records, else
    /// it is another output (a review's: any file holding bytes was taken for the moved one, and refused with a
    /// cut to 0), and the first file's leftover is named, with no cut.
    @Test func aMapStoppedInItsFirstRepositoryIsFoundInTheFileItWasMovedTo() async throws {
        try await Self.inFolder("access-moved") { folder in
            let (output, state) = (
                folder.appendingPathComponent("map.csv").path, folder.appendingPathComponent("s").path
            )
            try await withStandIn(users: 100) { server in
                let environment = [
                    "API": server.baseURL, "STATE": state, "GH_TOKEN": StandInTokens.token(for: "octocat"),
                ]
                let access = #""$GH_USERS" access github --format csv --concurrency 1 --api-url "$API" --no-cache"#
                func resume(into file: String, _ redirection: String = #" >> "$OUT""#) async throws -> RunResult {
                    var environment = environment
                    environment["OUT"] = file
                    return try await BinaryRunner.shell(
                        access + #" --state "$STATE""# + redirection, environment: environment)
                }
                let whole = try await BinaryRunner.shell(access, environment: environment)
                #expect(whole.status == 0, "\(whole.stderr)")
                server.injectFaults([.passThrough, .graphQLRateLimited(resetAfterSeconds: 600)], forPath: "/graphql")
                let stopped = try await resume(into: output)
                #expect(stopped.status == 5, "\(stopped.stderr)")
                let recorded = try String(contentsOfFile: state, encoding: .utf8)
                #expect(
                    recorded.contains(#""output_bytes":0,"#) && recorded.contains(#""output_inode":"#)
                        && !recorded.contains(#""output_tail":"#), "\(recorded)")
                // What a kill in the first repository leaves: the header and part of its records.
                let ends = whole.stdout.utf8.indices.filter { whole.stdout.utf8[$0] == UInt8(ascii: "\n") }
                try #require(ends.count > 4, "\(whole.stdout) \(whole.stderr)")
                let left = Data(whole.stdout.utf8[...whole.stdout.utf8.index(ends[2], offsetBy: 9)])
                try left.write(to: URL(fileURLWithPath: output))

                // Bytes past the state at its own path that are not this run's first records, with a state that
                // names no token's account yet: refused, and the state as it was (a review's: the account and the
                // output were saved before the comparison).
                let noViewer = recorded.replacingOccurrences(
                    of: #""viewer_id":[0-9]+,"#, with: "", options: .regularExpression)
                #expect(noViewer != recorded)
                try Data(noViewer.utf8).write(to: URL(fileURLWithPath: state))
                try Data("x,y\n".utf8).write(to: URL(fileURLWithPath: output))
                let unlike = try await resume(into: output)
                #expect(unlike.status == 1 && unlike.stderr.contains("they differ from"), "\(unlike.stderr)")
                #expect(try String(contentsOfFile: state, encoding: .utf8) == noViewer)
                try Data(recorded.utf8).write(to: URL(fileURLWithPath: state))
                try left.write(to: URL(fileURLWithPath: output))

                // Other files. One whose bytes begin this map's records is its start, copied or moved (a review's:
                // a copy got the first repository twice): kept, and no note. Any other is another output, the map
                // after what it holds, and the first file's leftover is named without a cut (its inode is all that
                // tells it, and a new file may have taken it); one that ends inside a line is refused as it is.
                let stray = "holds \(left.count) bytes past it that a stop left, which this run writes again"
                for (name, held, kept) in [
                    ("other.csv", Data("kept,by,hand\n".utf8), false), ("fresh.csv", Data(), false),
                    ("earlier.csv", Data(whole.stdout.utf8[...ends[2]]), true), ("copy.csv", left, true),
                ] {
                    let other = folder.appendingPathComponent(name).path
                    try held.write(to: URL(fileURLWithPath: other))
                    let elsewhere = try await resume(into: other)
                    #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
                    #expect(elsewhere.stderr.contains("to the byte: kept") == kept, "\(elsewhere.stderr)")
                    #expect(
                        elsewhere.stderr.contains(stray + " here, if the stopped run wrote them: then remove them")
                            == !kept, "\(elsewhere.stderr)")
                    #expect(!elsewhere.stderr.contains("truncate"), "\(elsewhere.stderr)")
                    let map = kept ? Data(whole.stdout.utf8) : held + Data(whole.stdout.utf8)
                    #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == map, "\(name)")
                    try Data(recorded.utf8).write(to: URL(fileURLWithPath: state))
                }
                let unended = folder.appendingPathComponent("unended.csv").path
                try Data("no line end".utf8).write(to: URL(fileURLWithPath: unended))
                let joined = try await resume(into: unended)
                #expect(joined.status == 1 && joined.stderr.contains("ends inside a line"), "\(joined.stderr)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: unended)) == Data("no line end".utf8))
                #expect(try String(contentsOfFile: state, encoding: .utf8) == recorded)
                // The map's start copied, then changed on GitHub (here, the copy edited): it begins with this run's
                // first line, csv's header, so it is refused, not written after (a review's: records twice, exit 0).
                let changed = folder.appendingPathComponent("changed.csv").path
                let edited = Data(whole.stdout.utf8[...ends[0]]) + Data("github/docs,someone,9,read,,[],\n".utf8)
                try edited.write(to: URL(fileURLWithPath: changed))
                let copiedChanged = try await resume(into: changed)
                #expect(
                    copiedChanged.status == 1 && copiedChanged.stderr.contains("begins with this run's first line"),
                    "\(copiedChanged.stderr)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: changed)) == edited)
                #expect(try String(contentsOfFile: state, encoding: .utf8) == recorded)
                // Another file at the state's path (the first moved away): another output too.
                try FileManager.default.moveItem(atPath: output, toPath: output + ".away")
                try Data("my,own\n".utf8).write(to: URL(fileURLWithPath: output))
                let atPath = try await resume(into: output)
                #expect(atPath.status == 0 && !atPath.stderr.contains("truncate"), "\(atPath.stderr)")
                #expect(
                    try Data(contentsOf: URL(fileURLWithPath: output)) == Data("my,own\n".utf8)
                        + Data(whole.stdout.utf8))
                try FileManager.default.removeItem(atPath: output)
                try FileManager.default.moveItem(atPath: output + ".away", toPath: output)
                try Data(recorded.utf8).write(to: URL(fileURLWithPath: state))
                let piped = try await resume(into: output, " | cat > /dev/null")
                #expect(
                    piped.status == 0
                        && piped.stderr.contains(stray + ": the map up to the stop is its first 0 bytes."),
                    "\(piped.stderr)")
                #expect(!piped.stderr.contains("truncate"), "\(piped.stderr)")
                let fresh = folder.appendingPathComponent("fresh.csv").path

                // A FIFO left at the state's path is no file to look into: before, the run waited on it for a
                // writer, its state locked.
                try Data(recorded.utf8).write(to: URL(fileURLWithPath: state))
                try FileManager.default.moveItem(atPath: output, toPath: output + ".kept")
                #expect(mkfifo(output, 0o600) == 0)
                var besideFIFO = environment
                besideFIFO["OUT"] = fresh + ".2"
                let beside = try await BinaryRunner.shell(
                    "timeout 20 " + access + #" --state "$STATE" >> "$OUT""#, environment: besideFIFO)
                #expect(beside.status == 0 && !beside.stderr.contains("a stop left"), "\(beside.stderr)")
                try FileManager.default.removeItem(atPath: output)
                try FileManager.default.moveItem(atPath: output + ".kept", toPath: output)
                // The stopped file renamed: its leftover is kept, and the map is whole, each record once.
                try Data(recorded.utf8).write(to: URL(fileURLWithPath: state))
                let moved = folder.appendingPathComponent("moved.csv").path
                try FileManager.default.moveItem(atPath: output, toPath: moved)
                let resumed = try await resume(into: moved)
                #expect(
                    resumed.status == 0 && resumed.stderr.contains("the last \(left.count) bytes of '\(moved)'"),
                    "\(resumed.stderr)")
                #expect(
                    String(decoding: try Data(contentsOf: URL(fileURLWithPath: moved)), as: UTF8.self) == whole.stdout)
            }
        }
    }

    /// A map of no record ends with csv's header alone, written as it closes: cut there by a full disk (here
    /// `ulimit -f`), stderr says where the state stands and that the same command goes on, and the rerun keeps
    /// the cut header and writes its rest. Before, the close said only that the write failed, and every rerun
    /// refused the header's bytes, exit 1, as records of no repository.
    @Test func aHeaderCutAsTheMapClosesIsKeptByTheRerun() async throws {
        try await Self.inFolder("access-header") { folder in
            let output = folder.appendingPathComponent("map.csv").path
            try await withStandIn(users: 100) { server in
                let environment = [
                    "API": server.baseURL, "OUT": output, "STATE": folder.appendingPathComponent("s").path,
                    "GH_TOKEN": StandInTokens.token(for: "octocat"),
                ]
                let access =
                    #""$GH_USERS" access github --affiliation outside --permission admin --format csv "#
                    + #"--api-url "$API" --no-cache"#
                let whole = try await BinaryRunner.shell(access, environment: environment)
                #expect(whole.status == 0 && whole.stdout.hasPrefix("repository,login,"), "\(whole.stderr)")
                #expect(whole.stdout.utf8.filter { $0 == UInt8(ascii: "\n") }.count == 1, "\(whole.stdout)")
                let before = Data((String(repeating: "x", count: 1_019) + "\n").utf8)
                try before.write(to: URL(fileURLWithPath: output))
                let cut = try await BinaryRunner.shell(
                    "ulimit -f 1; " + access + #" --state "$STATE" >> "$OUT""#, environment: environment)
                #expect(cut.status == 1, "\(cut.stderr)")
                #expect(
                    cut.stderr.contains(
                        "records the map up to github/")
                        && cut.stderr.contains(
                            "; run the same command again, appending to the same output, to go on."),
                    "\(cut.stderr)")
                #expect(
                    try Data(contentsOf: URL(fileURLWithPath: output)) == before + Data(whole.stdout.utf8.prefix(4)))
                let resumed = try await BinaryRunner.shell(
                    access + #" --state "$STATE" >> "$OUT""#, environment: environment)
                #expect(resumed.status == 0 && resumed.stderr.contains("the last 4 bytes of"), "\(resumed.stderr)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == before + Data(whole.stdout.utf8))
            }
        }
    }

    /// `>> OUT 2>&1` with no terminal: the refusal goes into OUT only where the next run is sure to refuse it (the
    /// state of a stopped map counts OUT's bytes; `recordsWrittenButNotRecordedAreKeptByTheRerun`). A file with
    /// no state yet, and a complete map's, are left as they are: a review found the message as a new map's
    /// first line, and after a complete map, where no run would ever see it.
    @Test func stderrIntoTheFileIsSaidThereOnlyWhereTheNextRunFindsIt() async throws {
        try await Self.inFolder("access-mixed") { folder in
            let (output, state) = (
                folder.appendingPathComponent("map.csv").path, folder.appendingPathComponent("s").path
            )
            try await withStandIn(users: 100) { server in
                let environment = [
                    "API": server.baseURL, "OUT": output, "STATE": state,
                    "GH_TOKEN": StandInTokens.token(for: "octocat"),
                ]
                let access =
                    #"setsid -w "$GH_USERS" access github --format csv --api-url "$API" --no-cache --state "$STATE" "#
                    + #">> "$OUT""#
                let first = try await BinaryRunner.shell(access + " 2>&1", environment: environment)
                #expect(first.status == 1)
                #expect(try Data(contentsOf: URL(fileURLWithPath: output)).isEmpty)
                #expect(!FileManager.default.fileExists(atPath: state))
                #expect(server.requests.isEmpty)
                let whole = try await BinaryRunner.shell(access, environment: environment)
                #expect(whole.status == 0, "\(whole.stderr)")
                let map = try Data(contentsOf: URL(fileURLWithPath: output))
                let again = try await BinaryRunner.shell(access + " 2>&1", environment: environment)
                #expect(again.status == 1)
                #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == map)
            }
        }
    }

    /// Another file's bytes at a 0-byte state are decided once. Found to be no part of the map, the state names
    /// that file before the map is written after them, so a stop then goes on there (a review's: the state still
    /// named the first file, and the rerun wrote the map again after the stopped one, exit 0). A repository of
    /// no records decides nothing: a copied csv header of an empty map is kept at its close (it was written twice).
    @Test func anotherFilesBytesAreDecidedOnce() async throws {
        try await Self.inFolder("access-guess") { folder in
            let state = folder.appendingPathComponent("s").path
            try await withStandIn(users: 100) { server in
                let environment = [
                    "API": server.baseURL, "STATE": state, "GH_TOKEN": StandInTokens.token(for: "octocat"),
                ]
                func run(_ options: String, into file: String, before: String = "") async throws -> RunResult {
                    var environment = environment
                    environment["OUT"] = folder.appendingPathComponent(file).path
                    return try await BinaryRunner.shell(
                        before + #""$GH_USERS" access github --format csv --api-url "$API" --no-cache "# + options
                            + #" >> "$OUT""#, environment: environment)
                }
                func contents(_ file: String) throws -> Data {
                    try Data(contentsOf: folder.appendingPathComponent(file))
                }
                let whole = try await run("", into: "whole.csv")
                #expect(whole.status == 0, "\(whole.stderr)")
                #expect(try await run(#"--state "$STATE""#, into: "a.csv", before: "ulimit -f 1; ").status == 1)
                let filler = Data((String(repeating: "x", count: 22) + "\n").utf8)
                try filler.write(to: folder.appendingPathComponent("b.csv"))
                let stopped = try await run(#"--state "$STATE""#, into: "b.csv", before: "ulimit -f 1; ")
                #expect(stopped.status == 1 && stopped.stderr.contains("The last 1001 bytes of"), "\(stopped.stderr)")
                #expect(try String(contentsOfFile: state, encoding: .utf8).contains("b.csv"))
                let resumed = try await run(#"--state "$STATE""#, into: "b.csv")
                #expect(resumed.status == 0, "\(resumed.stderr)")
                #expect(try contents("b.csv") == filler + contents("whole.csv"))

                // An empty map's csv header, its state set back to before its first repository, then copied.
                try FileManager.default.removeItem(atPath: state)
                let empty = "--affiliation outside --permission admin"
                #expect(try await run(empty + #" --state "$STATE""#, into: "empty.csv").status == 0)
                let header = try contents("empty.csv")
                let text = try String(contentsOfFile: state, encoding: .utf8)
                let reopened = text.replacingOccurrences(of: #""complete":true"#, with: #""complete":false"#)
                    .replacingOccurrences(of: #""after":"[^"]*""#, with: #""after":null"#, options: .regularExpression)
                    .replacingOccurrences(
                        of: #""repositories":[0-9]+"#, with: #""repositories":0"#, options: .regularExpression)
                try Data(reopened.utf8).write(to: URL(fileURLWithPath: state))
                try header.write(to: folder.appendingPathComponent("copy.csv"))
                let copied = try await run(empty + #" --state "$STATE""#, into: "copy.csv")
                #expect(copied.status == 0 && copied.stderr.contains("to the byte: kept"), "\(copied.stderr)")
                #expect(try contents("copy.csv") == header)
            }
        }
    }

    /// A state from before `output_tail` was recorded (its file known by its path alone) whose `output_bytes`
    /// falls inside a line of the file: the bytes past it are no stop's records, and the run says so.
    /// (helper-328: dropping that check went unseen.)
    @Test func aRecordedLengthInsideALineIsRefusedAsSuch() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-al1-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (output, state) = (folder.appendingPathComponent("map.csv").path, folder.appendingPathComponent("s").path)
        try await withStandIn(users: 100) { server in
            let environment = [
                "API": server.baseURL, "STATE": state, "OUT": output, "GH_TOKEN": StandInTokens.token(for: "octocat"),
            ]
            let access = #""$GH_USERS" access github --format csv --concurrency 1 --api-url "$API" --no-cache"#
            let whole = try await BinaryRunner.shell(access, environment: environment)
            #expect(whole.status == 0, "\(whole.stderr)")
            let bytes = Array(whole.stdout.utf8)
            let ends = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }
            try #require(ends.count > 3, "\(whole.stdout)")
            // The header and two records in the file; the state counts the header and 5 bytes of the first record.
            let held = Array(bytes[...ends[2]])
            try Data(held).write(to: URL(fileURLWithPath: output))
            let recorded = ends[0] + 1 + 5
            let text =
                #"{"version":1,"command":"access","of":"github","filters":{},"format":"csv","after":null,"#
                + #""repositories":0,"records":0,"output_bytes":\#(recorded),"output":"\#(output)","#
                + #""unreadable":[],"missing":[],"complete":false}"# + "\n"
            try text.write(toFile: state, atomically: true, encoding: .utf8)
            let rerun = try await BinaryRunner.shell(access + #" --state "$STATE" >> "$OUT""#, environment: environment)
            #expect(rerun.status != 0, "\(rerun.stderr)")
            #expect(rerun.stderr.contains("the recorded length falls inside a line"), "\(rerun.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(held))
        }
    }
}
