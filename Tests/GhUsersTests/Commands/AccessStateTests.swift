import AtomicCore
import Data
import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

/// `access ORG --state FILE`: a map that stops goes on where it stopped, asking nothing again for the
/// repositories whose records were written; run in process against the strict stub, answered by `AccessWorld`.
struct AccessStateTests {
    /// 25 repositories `r00`…`r24` (or `repositories` of them), each with one collaborator through the base
    /// permission: with `--concurrency 1` they are read in three batches of first pages (10, 10, 5). GitHub
    /// refuses the collaborators of those `forbidden` names.
    static func world(repositories: Int = 25, forbidden: Set<String> = []) -> AccessWorld {
        var collaborators: [String: [AccessBodies.Collaborator]] = [:]
        for index in 0..<repositories {
            collaborators[String(format: "r%02d", index)] = [
                AccessBodies.Collaborator(
                    "user-\(index)", Int64(100 + index), "READ",
                    [AccessBodies.Source("Organization", "octo-org", "READ", roleName: "read")])
            ]
        }
        return AccessWorld(
            organization: "octo-org", members: [AccessBodies.Member("Mona", 1, "ADMIN", twoFactor: true)],
            collaborators: collaborators, forbidden: forbidden)
    }

    /// A harness whose GitHub answers from `world`, except that the `failing`th batch of collaborator pages
    /// (counted from 1) finds the GraphQL limit spent.
    private static func harness(_ world: AccessWorld, failing: Int? = nil) -> CommandHarness {
        let harness = CommandHarness.signedIn()
        let batches = Counter()
        harness.http.answerEvery { request, _ in
            let query = AccessWorld.query(of: request)
            if query.contains(": repository("), batches.next() == failing {
                return HTTPResponse(
                    status: 200,
                    headers: HTTPHeaders([("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1800000600")]),
                    body: Data(AccessBodies.rateLimited.utf8), url: request.url)
            }
            return world.answer(request)
        }
        return harness
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func next() -> Int {
            lock.withLock {
                count += 1
                return count
            }
        }
    }

    private static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("access-state-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private static let streams = IOStreams(
        out: CapturedOutput(), err: CapturedOutput(), stdoutIsTTY: false, stderrIsTTY: false, terminalWidth: 80,
        colorPolicy: .auto)

    private struct NotOpened: Error {}

    /// A state file `s` in `directory`, opened for a new map of octo-org in tsv.
    private static func openedState(in directory: URL) throws -> (file: AccessStateFile, path: String) {
        let path = directory.appendingPathComponent("s").path
        let fresh = AccessState(organization: "octo-org", filters: [:], format: .tsv, fields: nil, apiURL: nil)
        guard case .success(let file) = AccessStateFile.open(path, as: fresh, io: streams, stdoutFile: nil) else {
            throw NotOpened()
        }
        return (file, path)
    }

    private static let argv = ["access", "octo-org", "--concurrency", "1", "--fields", "repository,login"]

    /// Stopped by a spent limit in its second batch, the map goes on from the tenth repository: the two runs'
    /// output is the whole map's, and no repository's page is asked twice; a third run finds the map complete
    /// and writes nothing.
    @Test func aStoppedMapGoesOnWhereItStopped() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("octo-org.state").path

        let whole = await Self.harness(Self.world()).run(Self.argv)
        #expect(whole.status == 0, "\(whole.err)")
        #expect(whole.out.split(separator: "\n").count == 25)

        let stopped = await Self.harness(Self.world(), failing: 2).run(Self.argv + ["--state", state])
        #expect(stopped.status == 5, "\(stopped.err)")
        #expect(stopped.out.split(separator: "\n").count == 10)
        #expect(stopped.err.contains("records the map up to octo-org/r09; run the same command again"))
        let recorded = try String(contentsOfFile: state, encoding: .utf8)
        #expect(recorded.contains(#""after":"octo-org/r09""#) && recorded.contains(#""complete":false"#))

        let world = Self.world()
        let resumed = await Self.harness(world).run(Self.argv + ["--state", state])
        #expect(resumed.status == 0, "\(resumed.err)")
        #expect(stopped.out + resumed.out == whole.out)
        let asked = world.batches.flatMap { $0 }
        #expect(asked == (10..<25).map { String(format: "r%02d@", $0) })

        let again = await Self.harness(Self.world()).run(Self.argv + ["--state", state])
        #expect(again.status == 0)
        #expect(again.out.isEmpty)
        #expect(again.err.contains("nothing to do: the map in the state file"))
        #expect(again.err.contains("was read to its end (25 repositories)"))
    }

    /// An organization GitHub does not know leaves no state: the command with the name corrected goes on with the
    /// same FILE, where a state of the mistyped name was refused as another organization's map.
    @Test func aMistypedOrganizationLeavesNoState() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s").path
        let mistyped = CommandHarness.signedIn()
        mistyped.http.register(
            RequestMatcher("POST /graphql"), body: Data(AccessBodies.unknownOrganization("octo-orgg").utf8))
        let failed = await mistyped.run(["access", "octo-orgg", "--state", state])
        #expect(failed.status == 3, "\(failed.err)")
        #expect(!FileManager.default.fileExists(atPath: state))
        #expect(!FileManager.default.fileExists(atPath: state + ".lock"))

        let corrected = await Self.harness(Self.world()).run(Self.argv + ["--state", state])
        #expect(corrected.status == 0, "\(corrected.err)")
        #expect(corrected.out.split(separator: "\n").count == 25)
    }

    /// CSV's header is written once: a resumed run appends records only.
    @Test func aResumedCSVHasOneHeader() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s").path
        let csv = Self.argv + ["--format", "csv", "--state", state]
        let stopped = await Self.harness(Self.world(), failing: 2).run(csv)
        #expect(stopped.status == 5)
        #expect(stopped.out.hasPrefix("repository,login\r\n"))
        let resumed = await Self.harness(Self.world()).run(csv)
        #expect(resumed.status == 0, "\(resumed.err)")
        #expect(resumed.out.hasPrefix("octo-org/r10,user-10\r\n"))
    }

    /// A run that stopped before writing any record leaves CSV's header to the run that writes the first: the
    /// people of the first batch are all filtered out.
    @Test func aCSVHeaderComesWithTheFirstRecordWhicheverRunWritesIt() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s").path
        let csv = Self.argv + ["--format", "csv", "--affiliation", "member", "--state", state]
        var collaborators: [String: [AccessBodies.Collaborator]] = [:]
        for index in 0..<25 {
            // Mona, a member, reaches only the repositories after the first batch.
            let login = index < 10 ? "outsider-\(index)" : "Mona"
            collaborators[String(format: "r%02d", index)] = [
                AccessBodies.Collaborator(login, index < 10 ? Int64(100 + index) : 1, "READ", [])
            ]
        }
        let world = AccessWorld(
            organization: "octo-org", members: [AccessBodies.Member("Mona", 1, "MEMBER", twoFactor: true)],
            collaborators: collaborators)
        let stopped = await Self.harness(world, failing: 2).run(csv)
        #expect(stopped.status == 5)
        #expect(stopped.out.isEmpty)
        let resumed = await Self.harness(world).run(csv)
        #expect(resumed.status == 0, "\(resumed.err)")
        #expect(resumed.out.hasPrefix("repository,login\r\nocto-org/r10,Mona\r\n"))
    }

    /// A repository `--repo` names that is not there is exit 3 in the run that finds it and in every run after,
    /// whatever the case the other names are given in.
    @Test func aMissingRepositoryStaysExit3() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s").path
        let first = await Self.harness(Self.world()).run(
            Self.argv + ["--repo", "r01", "--repo", "nope", "--state", state])
        #expect(first.status == 3, "\(first.err)")
        #expect(first.out == "octo-org/r01\tuser-1\n")
        let again = await Self.harness(Self.world()).run(
            Self.argv + ["--repo", "R01", "--repo", "nope", "--state", state])
        #expect(again.status == 3, "\(again.err)")
        #expect(again.out.isEmpty)
        #expect(again.err.contains("no repository 'octo-org/nope'"))
    }

    /// The state counts the repositories that are there: a --repo that is not is named, not counted. Before, the
    /// state recorded "repositories":2 and the rerun said "read to its end (2 repositories)" for one.
    @Test func aMissingRepositoryIsNotCounted() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s").path
        let argv = Self.argv + ["--repo", "r01", "--repo", "nope", "--state", state]
        #expect(await Self.harness(Self.world()).run(argv).status == 3)
        let recorded = try String(contentsOfFile: state, encoding: .utf8)
        #expect(recorded.contains(#""repositories":1,"#), "\(recorded)")
        #expect(recorded.contains(#""missing":["octo-org/nope"]"#) && recorded.contains(#""complete":true"#))
        let again = await Self.harness(Self.world()).run(argv)
        #expect(again.status == 3)
        #expect(again.err.contains("was read to its end (1 repository)"), "\(again.err)")
    }

    /// A map of which GitHub refused every repository is no map: exit 4, and the state records none, so the
    /// same command with a token that can read goes from the first repository. Before, the state recorded the
    /// map as read to its end, and the rerun wrote nothing.
    @Test func aMapOfNoReadableRepositoryIsNotRecorded() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s").path
        let argv = Self.argv + ["--repo", "r01", "--repo", "r02", "--state", state]
        let refused = await Self.harness(Self.world(forbidden: ["r01", "r02"])).run(argv)
        #expect(refused.status == 4, "\(refused.err)")
        #expect(refused.out.isEmpty)
        #expect(refused.err.contains("none of the 2 repositories of octo-org asked about"), "\(refused.err)")
        #expect(refused.err.hasSuffix("records no map: the same command reads it from the start.\n"))
        let recorded = try String(contentsOfFile: state, encoding: .utf8)
        #expect(recorded.contains(#""after":null"#) && recorded.contains(#""complete":false"#), "\(recorded)")
        let read = await Self.harness(Self.world()).run(argv)
        #expect(read.status == 0, "\(read.err)")
        #expect(read.out == "octo-org/r01\tuser-1\nocto-org/r02\tuser-2\n")
    }

    /// A state made for another map or another output is refused and left byte for byte.
    @Test(arguments: [
        ["access", "other-org", "--concurrency", "1", "--fields", "repository,login"],
        Self.argv + ["--person", "user-3"],
        Self.argv + ["--format", "ndjson"],
        ["access", "octo-org", "--concurrency", "1", "--fields", "login"],
    ])
    func aStateOfAnotherMapIsRefused(argv: [String]) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s").path
        let stopped = await Self.harness(Self.world(), failing: 2).run(Self.argv + ["--state", state])
        #expect(stopped.status == 5)
        let before = try Data(contentsOf: URL(fileURLWithPath: state))
        let world = Self.world()
        let refused = await Self.harness(world).run(argv + ["--state", state])
        #expect(refused.status == 1)
        #expect(refused.out.isEmpty)
        #expect(refused.err.contains("the state file"))
        #expect(refused.err.contains("It was left as it is"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before)
        #expect(world.batches.isEmpty)
    }

    /// A map begun with one account's token is that account's view (the repositories it could read, the 2FA
    /// states it was shown): another account's token is refused, the state left as it is, no page asked. A
    /// review's member token went on with an owner's state, and the file held two views, marked complete.
    @Test func aStateBegunWithAnotherAccountsTokenIsRefused() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s").path
        let stopped = await Self.harness(Self.world(), failing: 2).run(Self.argv + ["--state", state])
        #expect(stopped.status == 5)
        let before = try String(contentsOfFile: state, encoding: .utf8)
        #expect(before.contains(#""viewer_id":1,"#), "\(before)")
        let base = Self.world()
        let other = AccessWorld(
            organization: "octo-org", members: [AccessBodies.Member("Mona", 1, "ADMIN", twoFactor: true)],
            collaborators: [:], viewer: AccessBodies.Viewer("Hubot", 2))
        let refused = await Self.harness(other).run(Self.argv + ["--state", state])
        #expect(refused.status == 1)
        #expect(refused.out.isEmpty)
        #expect(
            refused.err.contains(
                "continues a map read with the token of account id 1, and this token is "
                    + "account id 2's"), "\(refused.err)")
        #expect(try String(contentsOfFile: state, encoding: .utf8) == before)
        #expect(other.batches.isEmpty)
        // The first account's token goes on.
        let resumed = await Self.harness(base).run(Self.argv + ["--state", state])
        #expect(resumed.status == 0, "\(resumed.err)")
        #expect(stopped.out.split(separator: "\n").count + resumed.out.split(separator: "\n").count == 25)
    }

    /// A state naming a field twice (by hand: gh-users never writes one) is refused and left as it is: the rerun
    /// it would ask for, with those fields, is exit 64.
    @Test func aStateNamingAFieldTwiceIsRefused() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s")
        #expect(await Self.harness(Self.world(), failing: 2).run(Self.argv + ["--state", state.path]).status == 5)
        let edited = try String(contentsOf: state, encoding: .utf8)
            .replacingOccurrences(of: #"["repository","login"]"#, with: #"["repository","login","login"]"#)
        try edited.write(to: state, atomically: true, encoding: .utf8)
        let refused = await Self.harness(Self.world()).run(Self.argv + ["--state", state.path])
        #expect(refused.status == 1)
        #expect(refused.err.contains("names a field twice"), "\(refused.err)")
        #expect(try String(contentsOf: state, encoding: .utf8) == edited)
    }

    /// A state edited by hand is refused and left as it is, before any request: a count no run reaches (adding a
    /// repository's records to it overflowed, and the run died of SIGILL without a word, its records written
    /// again on every rerun), or a key given twice (read as its first value, where jq shows the last).
    @Test(arguments: [
        (#""records":\d+"#, #""records":9223372036854775800"#, "past 2^53"),
        (#""repositories":\d+"#, #""repositories":9223372036854775807"#, "past 2^53"),
        (#""records":"#, #""records":0,"records":"#, #"gives "records" twice"#),
        (#""records":"#, #""output_bytes":-1,"output":"/o","records":"#, #"a negative "output_bytes""#),
        // A fingerprint that is no string: the message names it among what the file must hold.
        (
            #""records":"#, #""output_bytes":0,"output":"/o","output_tail":7,"records":"#,
            #""output_tail" and "output_inode" (strings)"#
        ),
        // After a value 65 levels deep, where the scan for a repeated key stops: Foundation read the first.
        (
            #""records":"#,
            #""x":"# + String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
                + #","records":0,"records":"#, "nests deeper than 64 levels"
        ),
        // A key of a thousand characters is named by its first 200, as other values a file holds.
        (
            #""records":"#,
            #"""# + String(repeating: "k", count: 1_000) + #"":0,""# + String(repeating: "k", count: 1_000)
                + #"":0,"records":"#, String(repeating: "k", count: 200) + "…\" twice"
        ),
    ])
    func aStateEditedPastWhatARunWritesIsRefused(pattern: String, replacement: String, said: String) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s")
        #expect(await Self.harness(Self.world(), failing: 2).run(Self.argv + ["--state", state.path]).status == 5)
        let written = try String(contentsOf: state, encoding: .utf8)
        let edited = written.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        #expect(edited != written)
        try edited.write(to: state, atomically: true, encoding: .utf8)
        let world = Self.world()
        let refused = await Self.harness(world).run(Self.argv + ["--state", state.path])
        #expect(refused.status == 1)
        #expect(refused.err.contains(said) && refused.err.contains("It was left as it is"), "\(refused.err)")
        #expect(try String(contentsOf: state, encoding: .utf8) == edited)
        #expect(world.batches.isEmpty)
    }

    /// A state edited to the bound, 2^53 records, is read, and its counts stay at the bound: the run goes on and
    /// records its place, and the next run reads the file (before: the run wrote the repository's records, then
    /// refused to record them, exit 1, so every rerun wrote them again).
    @Test func aStateAtTheBoundStaysAtIt() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s")
        let stopped = await Self.harness(Self.world(), failing: 2).run(Self.argv + ["--state", state.path])
        #expect(stopped.status == 5)
        let edited = try String(contentsOf: state, encoding: .utf8).replacingOccurrences(
            of: #""records":\d+"#, with: #""records":9007199254740992"#, options: .regularExpression)
        try edited.write(to: state, atomically: true, encoding: .utf8)
        let resumed = await Self.harness(Self.world()).run(Self.argv + ["--state", state.path])
        #expect(resumed.status == 0, "\(resumed.err)")
        let recorded = try String(contentsOf: state, encoding: .utf8)
        #expect(recorded.contains(#""records":9007199254740992"#), "\(recorded)")
        #expect(recorded.contains(#""complete":true"#), "\(recorded)")
        let again = await Self.harness(Self.world()).run(Self.argv + ["--state", state.path])
        #expect(again.out.isEmpty)
        #expect(!again.err.contains("past 2^53"), "\(again.err)")
    }

    /// A partial map stays partial across runs: the repositories GitHub refused before the stop are still
    /// named, and the run that completes it is exit 1.
    @Test func refusalsBeforeTheStopAreStillNamed() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s").path
        var collaborators: [String: [AccessBodies.Collaborator]] = [:]
        for index in 0..<25 { collaborators[String(format: "r%02d", index)] = [] }
        let world = AccessWorld(
            organization: "octo-org", members: [], collaborators: collaborators, forbidden: ["r03"])
        let stopped = await Self.harness(world, failing: 2).run(Self.argv + ["--state", state])
        #expect(stopped.status == 5)
        let resumed = await Self.harness(world).run(Self.argv + ["--state", state])
        #expect(resumed.status == 1)
        #expect(resumed.err.contains("collaborators of 1 repository of 25"))
        #expect(resumed.err.contains("octo-org/r03"))
        let again = await Self.harness(world).run(Self.argv + ["--state", state])
        #expect(again.status == 1)
        #expect(again.err.contains("octo-org/r03"))
    }

    /// A save that fails leaves the state as its file holds it, which the message after a full disk names:
    /// before, the repository whose save failed was named as recorded (a review's find).
    @Test func aFailedSaveLeavesTheStateAsItsFileHoldsIt() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var (file, path) = try Self.openedState(in: directory)
        try file.written("octo-org/r00", records: 2, read: .read)
        try FileManager.default.createDirectory(atPath: path + ".tmp", withIntermediateDirectories: false)
        #expect(throws: LocalFileError.self) { try file.written("octo-org/r01", records: 3, read: .read) }
        #expect(file.state.after == "octo-org/r00" && file.state.records == 2 && file.state.repositories == 1)
    }

    /// A repository that wrote nothing (one the token cannot read) is saved with the next that writes, or when
    /// the map closes or stops: saved after each, a member's map of 1,000 repositories it could not read rewrote
    /// the growing list of them a thousand times, 21 MB of state (a review's find).
    @Test func aRepositoryThatWroteNothingIsSavedWithTheNextThatWrites() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var (file, path) = try Self.openedState(in: directory)
        func saved() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
        try file.written("octo-org/r00", records: 2, read: .read)
        let first = try saved()
        try file.written("octo-org/r01", records: 0, read: .refused)
        try file.written("octo-org/r02", records: 0, read: .refused)
        #expect(try saved() == first && file.state.after == "octo-org/r00")
        try file.written("octo-org/r03", records: 1, read: .read)
        let third = try saved()
        #expect(third.contains(#""after":"octo-org/r03""#) && third.contains("octo-org/r02"), "\(third)")
        try file.written("octo-org/r04", records: 0, read: .refused)
        try file.saveUnsaved()
        let last = try saved()
        #expect(last.contains(#""after":"octo-org/r04""#), "\(last)")
        // A long run of them is saved once it is a tenth of those read, 100 at least: a kill loses little of it.
        for index in 5..<104 { try file.written("octo-org/r\(index)", records: 0, read: .refused) }
        #expect(try saved() == last)
        try file.written("octo-org/r104", records: 0, read: .refused)
        #expect(try saved().contains(#""after":"octo-org/r104""#))
    }

    /// A run whose stdout is no file (a pipe, `| cat >> OUT`) cannot keep the file's length the state records:
    /// it drops it, so a later rerun appending to that file cuts nothing of what this run wrote through the
    /// pipe (before: refused, with advice to cut the file back past those records).
    @Test func aRunToAPipeDropsTheRecordedOutputLength() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s").path
        let fresh = AccessState(organization: "octo-org", filters: [:], format: .tsv, fields: nil, apiURL: "http://a")
        var recorded = fresh
        (recorded.after, recorded.records, recorded.outputBytes, recorded.output) = ("octo-org/r00", 2, 90, "/o.tsv")
        try Data(recorded.encoded).write(to: URL(fileURLWithPath: path))
        guard case .success(var file) = AccessStateFile.open(path, as: fresh, io: Self.streams, stdoutFile: nil) else {
            Issue.record("the state did not open")
            return
        }
        #expect(file.state.outputBytes == nil && file.state.output == nil && file.state.after == "octo-org/r00")
        try file.written("octo-org/r01", records: 3, read: .read)
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!saved.contains("output_bytes") && saved.contains(#""after":"octo-org/r01""#), "\(saved)")
    }

    /// A state records a fingerprint of its output's bytes before their recorded length, and reads it back; one whose last repository is of another organization is refused (before: a state edited
    /// to `"after":"other-org/b"` wrote the map's repositories a second time).
    @Test func theOutputsIdentityIsRecordedAndAnotherOrganizationsPlaceRefused() {
        var state = AccessState(organization: "o", filters: [:], format: .tsv, fields: nil, apiURL: nil)
        (state.outputBytes, state.output, state.outputTail) = (10, "/a.tsv", "9e3779b9")
        state.after = "O/b"
        guard case .success(let decoded) = AccessState.decode(state.encoded) else {
            Issue.record("the state did not decode")
            return
        }
        #expect(decoded == state)
        state.after = "o-old/b"
        guard case .failure(let problem) = AccessState.decode(state.encoded) else {
            Issue.record("a state whose last repository is another organization's was taken")
            return
        }
        #expect(problem.detail.contains("an \"after\" that is not a repository of \"of\""), "\(problem)")
    }

    /// What a full disk's stop says: the bytes past the state's place to remove, with the command that does
    /// it; none to remove is no "Then" after nothing (a review's find); on a pipe, none, since a pipe's bytes
    /// cannot be taken back (a review saw it told to cut 20,669 bytes of a pipe).
    @Test func aCutMapSaysWhatToRemoveOnlyWhereItCanBe() {
        var state = AccessState(organization: "o", filters: [:], format: .csv, fields: nil, apiURL: nil)
        state.after = "o/a"
        let rerun = "run the same command again, appending to the same output, to go on."
        #expect(
            AccessOutput.cutAdvice(state, shown: "'s'", file: "m.csv", bytes: 120, pipe: false)
                == "gh-users: the state file 's' records the map up to o/a. The last 120 bytes of 'm.csv' are of the "
                + "repository after it, which the rerun writes again whole: remove them first (truncate -s -120 "
                + "m.csv), then \(rerun)\n")
        // The command is quoted for the shell it is pasted into (before: a name quoted for the eye alone, which
        // truncate took for another file, or a quote that broke the command: a review's find).
        let hostile = AccessOutput.cutAdvice(state, shown: "'s'", file: "it's\u{1B}[31m\n.tsv", bytes: 5, pipe: false)
        #expect(hostile.contains(#"(truncate -s -5 $'it\'s\e[31m\n.tsv'), then"#), "\(hostile)")
        #expect(!hostile.contains("\u{1B}"))
        // A state that records the file's length: the rerun cuts them itself.
        var measured = state
        (measured.outputBytes, measured.output) = (4_096, "/m.csv")
        #expect(
            AccessOutput.cutAdvice(measured, shown: "'s'", file: "/m.csv", bytes: 120, pipe: false)
                == "gh-users: the state file 's' records the map up to o/a. The last 120 bytes of '/m.csv' are of "
                + "the repository after it, which the rerun keeps where they are its own first records to the byte: "
                + "\(rerun)\n")
        #expect(
            AccessOutput.cutAdvice(state, shown: "'s'", file: nil, bytes: 0, pipe: false)
                == "gh-users: the state file 's' records the map up to o/a; \(rerun)\n")
        state.after = nil
        #expect(
            AccessOutput.cutAdvice(state, shown: "'s'", file: nil, bytes: 20_669, pipe: true)
                == "gh-users: the state file 's' records the map before its first repository; what the reader took "
                + "past that comes again when you \(rerun)\n")
    }

    @Test(arguments: [
        ["--json"], ["--format", "table"], ["--changes", "c.json"], ["--state", ""], ["--state", "-"],
    ])
    func whatCannotBeResumedIsAUsageError(extra: [String]) async {
        let run = await CommandHarness.signedIn().run(
            ["access", "octo-org"] + (extra.first == "--state" ? extra : ["--state", "s"] + extra))
        #expect(run.status == 64)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("--state"))
    }
}
