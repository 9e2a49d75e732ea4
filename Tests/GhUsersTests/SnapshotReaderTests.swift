import AtomicCore
import Foundation
import Testing

@testable import gh_users

/// stdout as a pipe whose reader is scripted: it takes nothing (`unread` stays), or has gone away.
private final class ScriptedPipe: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var written = 0
    private let left: Bool
    private let takes: Bool
    private let refusesWrites: Bool

    /// `refusesWrites`: the reader left before the write, which fails as EPIPE makes it; else it left after.
    init(left: Bool = false, takes: Bool = false, refusesWrites: Bool = false) {
        self.left = left
        self.takes = takes
        self.refusesWrites = refusesWrites
    }

    func write(_ bytes: [UInt8]) throws {
        if refusesWrites, !bytes.isEmpty { throw CocoaError(.fileWriteUnknown) }
        lock.withLock { written += bytes.count }
    }
    var readerHasLeft: Bool { left }
    var unreadBytes: Int? { lock.withLock { takes ? 0 : written } }
}

/// What `--changes` does once its changes are written to a pipe: FILE is replaced only when the reader took
/// them all; a reader that left, one that takes nothing (waited on for 5 s of the injected clock) and a signal
/// during the wait leave it as it was, and say so.
struct SnapshotReaderTests {
    private let snapshot = PeopleSnapshot(
        subject: .init(command: "collaborators", owner: "octocat/Hello-World", filters: [:]),
        people: [.init(id: 1, login: "octocat", role: "admin")])
    private let changes = [ListChange(kind: .added, id: 1, login: "octocat", role: "admin")]

    private func record(
        to sink: ScriptedPipe, at path: String, changes: [ListChange]? = nil, format: OutputFormat = .tsv,
        sleep: @escaping @Sendable (Duration) async -> Void
    ) async -> (CommandOutcome?, String) {
        let err = CapturedOutput()
        var context = CommandContext(
            io: IOStreams(
                out: sink, err: err, stdoutIsTTY: false, stderrIsTTY: false, terminalWidth: 80, colorPolicy: .auto),
            render: RenderContext.resolve(requested: format, isTTY: false, colorEnabled: false, width: 80, now: .now),
            presenter: ErrorPresenter(now: .now, hasToken: true))
        context.sleep = sleep
        let file = PeopleSnapshotFile(path: path)
        let outcome = await file.record(
            snapshot, problem: nil, listed: "collaborators octocat/Hello-World", count: 1,
            changes: changes ?? self.changes,
            roles: true, command: context)
        return (outcome, err.text)
    }

    @Test func aReaderThatTakesEverythingHasTheSnapshotRecorded() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (outcome, err) = await record(to: ScriptedPipe(takes: true), at: folder("c.json"), sleep: { _ in })
        #expect(outcome == nil, "\(err)")
        #expect(FileManager.default.fileExists(atPath: folder("c.json")))
    }

    /// With no change there is nothing to miss: a reader that left, or takes nothing, does not stop the record,
    /// and nothing is waited for; also where the format writes something then (csv's header, json's `[]`), which
    /// a reader that left made fail, and the run exit 1 without recording (a review's find).
    @Test(arguments: [true, false], [OutputFormat.tsv, .csv, .json])
    func noChangeIsRecordedWhateverTheReader(left: Bool, format: OutputFormat) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let slept = Slept()
        let (outcome, err) = await record(
            to: ScriptedPipe(left: left, refusesWrites: left), at: folder("c.json"), changes: [], format: format,
            sleep: { slept.add($0) })
        #expect(outcome == nil, "\(err)")
        #expect(err.isEmpty && slept.total == .zero)
        #expect(FileManager.default.fileExists(atPath: folder("c.json")))
    }

    /// `… --changes F | grep -q added`: the reader found what it wanted and left, after the write or before it.
    @Test(arguments: [false, true]) func aReaderThatLeftIsSaidAndTheFileIsNotWritten(before: Bool) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (outcome, err) = await record(
            to: ScriptedPipe(left: true, refusesWrites: before), at: folder("c.json"), sleep: { _ in })
        #expect(outcome == .setupFailed)
        #expect(
            err
                == "gh-users: the reader of stdout went away before it took every change, so they were not recorded "
                + "and the next run reports them again.\ngh-users: nothing was recorded: the snapshot file "
                + "'\(folder("c.json"))' was not made.\n")
        #expect(!FileManager.default.fileExists(atPath: folder("c.json")))
    }

    /// The snapshot is written and flushed beside FILE before any change goes out: when it cannot be (here a
    /// directory stands at `FILE.tmp`; a full disk alike), nothing is written and FILE is left as it was. Before,
    /// the changes went out first, and the next run wrote them again after them (a review's find).
    @Test func aSnapshotThatCannotBeWrittenStopsTheRunBeforeAnyChange() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder("c.json.tmp"), withIntermediateDirectories: false)
        let sink = ScriptedPipe()
        let (outcome, err) = await record(to: sink, at: folder("c.json"), sleep: { _ in })
        #expect(outcome == .setupFailed)
        #expect(sink.unreadBytes == 0)
        #expect(err.contains("Nothing was written.\n"), "\(err)")
        #expect(!FileManager.default.fileExists(atPath: folder("c.json")))
    }

    /// `Popen(…, stdout=PIPE).wait()` reads nothing until the process ends: 5 s of the injected clock, then exit 1.
    @Test func aReaderThatTakesNothingIsWaitedOnFiveSecondsAndTheFileIsNotWritten() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let slept = Slept()
        let (outcome, err) = await record(to: ScriptedPipe(), at: folder("c.json"), sleep: { slept.add($0) })
        #expect(outcome == .setupFailed)
        #expect(slept.total == .seconds(5))
        #expect(err.hasPrefix("gh-users: the reader of stdout took none of the last changes in 5 seconds"), "\(err)")
        #expect(err.hasSuffix("was not made.\n"))
        #expect(!FileManager.default.fileExists(atPath: folder("c.json")))
    }

    /// SIGTERM while the reader still has the changes cancels the run: nothing is recorded (exit 143 in the
    /// binary, where the signal's number replaces 130).
    @Test func aSignalDuringTheWaitLeavesTheFileAsItWas() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        // Its own task, so that the cancellation the signal brings ends the run, not the test.
        let run = Task {
            await record(
                to: ScriptedPipe(), at: folder("c.json"), sleep: { _ in withUnsafeCurrentTask { $0?.cancel() } })
        }
        let (outcome, err) = await run.value
        #expect(outcome == .failed(.cancelled))
        #expect(
            err
                == "gh-users: interrupted\ngh-users: nothing was recorded: the snapshot file '\(folder("c.json"))' "
                + "was not made.\n")
        #expect(!FileManager.default.fileExists(atPath: folder("c.json")))
    }
}

/// The time an injected clock was asked to sleep.
private final class Slept: @unchecked Sendable {
    private let lock = NSLock()
    private var sum = Duration.zero

    func add(_ duration: Duration) { lock.withLock { sum += duration } }
    var total: Duration { lock.withLock { sum } }
}
