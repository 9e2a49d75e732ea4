import Foundation
import Testing

@testable import gh_users

struct SignalStatusTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func aCommandCancelledByASignalExitsWith128PlusIt(signal: Int32, status: Int32) {
        let state = InterruptState.untimed()
        _ = state.interrupt(signal: signal)
        #expect(state.exitStatus(for: ExitCode.interrupted) == status)
        #expect(state.signalStatus == status)
        // The process then ends by the signal itself; a status of another signal's, or none, is an exit.
        #expect(state.endsBySignal(status))
        #expect(!state.endsBySignal(status == 130 ? 143 : 130))
        #expect(!InterruptState.untimed().endsBySignal(status))
    }

    /// A signal its starter ignored (`nohup`'s SIGHUP) is seen as such, and is left ignored; one left at its
    /// default is caught (helper-331's mutations I7 and I8: neither told).
    @Test func aSignalIgnoredAtStartIsToldFromOneThatIsNot() {
        let previous = signal(SIGUSR2, SIG_IGN)
        defer { signal(SIGUSR2, previous) }
        #expect(InterruptHandler.ignoredAtStart(SIGUSR2))
        #expect(!InterruptHandler.ignoredAtStart(SIGURG))
    }

    @Test func theFirstSignalDecides() {
        let state = InterruptState.untimed()
        _ = state.interrupt(signal: SIGTERM)
        _ = state.interrupt(signal: SIGINT)
        #expect(state.exitStatus(for: ExitCode.interrupted) == 143)
    }

    @Test func anyOtherStatusStands() {
        let state = InterruptState.untimed()
        #expect(state.exitStatus(for: ExitCode.interrupted) == ExitCode.interrupted)
        _ = state.interrupt(signal: SIGHUP)
        // The command had finished (or failed otherwise) before it noticed the signal.
        #expect(state.exitStatus(for: ExitCode.success) == ExitCode.success)
        #expect(state.exitStatus(for: ExitCode.rateLimited) == ExitCode.rateLimited)
        #expect(!state.endsBySignal(ExitCode.success) && !state.endsBySignal(ExitCode.rateLimited))
    }
}
