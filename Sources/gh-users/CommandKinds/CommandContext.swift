import AtomicCore

/// What every command writes through: the streams, the resolved output settings, the one error presenter,
/// and what a hint needs to repeat the command line (the shared options, the program's name).
struct CommandContext: Sendable {
    let io: IOStreams
    let render: RenderContext
    let presenter: ErrorPresenter
    var common = CommonOptions()
    /// `gh-users`, or on a terminal the name the user invoked it by (`./gh-users`), for hints to run.
    var programName = "gh-users"
    /// The regular file stdout appends to, when it is one (`>> users.tsv`): where a rerun must append too.
    var stdoutFile: String?
    /// How the command waits on its reader (`OutputSink.waitForReader`): the real clock, or a test's.
    var sleep: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    /// The clock a write command spaces its writes by: the real one, or a test's.
    var writeClock = WriteClock.live
}
