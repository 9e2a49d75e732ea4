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
    /// stdout writes after what `stdoutFile` held when the run began: it appends, or an earlier run moved its
    /// offset (`{ gh-users …; gh-users …; } > log`).
    var stdoutContinues = false
    /// How the command waits on its reader (`OutputSink.waitForReader`): the real clock, or a test's.
    var sleep: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    /// The clock a write command spaces its writes by: the real one, or a test's.
    var writeClock = WriteClock.live
}

extension CommandContext {
    /// This context for a run that waits out the search limit whatever its flags (`search --split`), whose
    /// hints ask for a longer `--max-wait` alone.
    func waitingOutSearchLimit() -> CommandContext {
        var presenter = presenter
        presenter.waitsOutSearchLimit = true
        var context = CommandContext(
            io: io, render: render, presenter: presenter, common: common, programName: programName,
            stdoutFile: stdoutFile, stdoutContinues: stdoutContinues)
        (context.sleep, context.writeClock) = (sleep, writeClock)
        return context
    }

    /// A run a signal cut short, said once on stderr: exit 130, or 143 and 129 after SIGTERM and SIGHUP.
    func interrupted() -> CommandOutcome {
        io.writeErr(presenter.present(.cancelled).message)
        return .failed(.cancelled)
    }

    /// The context for output that is appended to: tsv unless a format was asked for, and with `--output` the
    /// file in place of stdout, which is no terminal (or stdout's pipe through a `PipeTally`).
    func appending(to file: (any OutputSink)?) -> CommandContext {
        let io = file.map(io.writingOutput) ?? io
        let render = RenderContext.resolve(common, io: io, requested: common.format ?? .tsv, now: self.render.now)
        var context = CommandContext(
            io: io, render: render, presenter: presenter, common: common, programName: programName,
            stdoutFile: file == nil ? stdoutFile : nil, stdoutContinues: file == nil && stdoutContinues)
        (context.sleep, context.writeClock) = (sleep, writeClock)
        return context
    }
}
