import AtomicCore

/// What every command writes through: the streams, the resolved output settings, and the one error presenter.
struct CommandContext: Sendable {
    let io: IOStreams
    let render: RenderContext
    let presenter: ErrorPresenter
}
