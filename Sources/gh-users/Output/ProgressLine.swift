import AtomicCore

/// One line on stderr that says how a long listing is going ("Fetched 3 pages · 300 accounts · 1200/s"),
/// redrawn in place and erased when the command ends. Only on a terminal: a pipe or a log file never gets it.
final class ProgressLine {
    private let io: IOStreams
    private let noun: String
    private let started = ContinuousClock.now
    private var visible = false

    init(io: IOStreams, noun: String) {
        self.io = io
        self.noun = noun
    }

    /// On a terminal's stderr, unless stdout is a pipe whose reader may print to the same terminal.
    var isEnabled: Bool { io.stderrIsTTY && !io.stdoutIsPipe }

    func update(pages: Int, items: Int) {
        guard isEnabled else { return }
        let elapsed = ContinuousClock.now - started
        let seconds = elapsed.inSeconds
        var text = "Fetched \(Counted.text(pages, "page")) · \(Counted.text(items, plural: noun))"
        if seconds >= 0.5 { text += " · \(Int(Double(items) / seconds))/s" }
        show(text)
    }

    /// Any one-line status ("Unfollowing 2 of 5: octocat"), redrawn in place like the paging progress, within
    /// the terminal's width (`IOStreams.drawStatusLine`).
    func show(_ text: String) {
        guard isEnabled else { return }
        io.drawStatusLine(text)
        visible = true
    }

    /// Erases the line so that data, a message or the shell prompt starts on a clean line.
    func clear() {
        guard visible else { return }
        io.drawStatusLine("")
        visible = false
    }
}
