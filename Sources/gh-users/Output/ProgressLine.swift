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

    var isEnabled: Bool { io.stderrIsTTY }

    func update(pages: Int, items: Int) {
        guard isEnabled else { return }
        let elapsed = ContinuousClock.now - started
        let seconds = elapsed.inSeconds
        var text = "Fetched \(Counted.text(pages, "page")) · \(Counted.text(items, plural: noun))"
        if seconds >= 0.5 { text += " · \(Int(Double(items) / seconds))/s" }
        show(text)
    }

    /// Any one-line status ("Unfollowing 2 of 5: octocat"), redrawn in place like the paging progress. Cut to
    /// the terminal's width, short of its last column: a line that wraps is erased only in its last row, and a
    /// narrow pane filled with stale copies of it.
    func show(_ text: String) {
        guard isEnabled else { return }
        io.writeErr("\r\u{1B}[2K" + DisplayWidth.truncate(text, toWidth: max(1, io.stderrWidth - 1)))
        visible = true
    }

    /// Erases the line so that data, a message or the shell prompt starts on a clean line.
    func clear() {
        guard visible else { return }
        io.writeErr("\r\u{1B}[2K")
        visible = false
    }
}
