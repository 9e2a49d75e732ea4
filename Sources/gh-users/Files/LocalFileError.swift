import AtomicCore

/// A local file that cannot be used as it is (a crawl's state or output, a follower snapshot). The message names
/// the file and says what was (not) done; the run stops with status 1.
struct LocalFileError: Error, Equatable, CustomStringConvertible {
    let message: String
    /// A signal stopped the reading (`interrupted`): the run says so as any interrupted run does, not this.
    private(set) var isInterruption = false
    /// False when the message says the way on itself, and a rerun of the same command is not it (`departed`).
    var resumable = true
    var description: String { message }

    /// A file whose reading a signal stopped: left as it is, the run ending as interrupted runs end.
    static let interrupted: LocalFileError = {
        var error = LocalFileError(message: "interrupted while reading")
        error.isInterruption = true
        return error
    }()

    /// Paths are quoted where the message is written (`TerminalSanitizer.quotedPath`); words a file holds (a
    /// snapshot's command or filter, a state's format) are made safe here, since the file may not be gh-users's:
    /// the message is one line, a line break in those words shown as `\n`, so none can print a line of its own.
    init(message: String) {
        self.message = TerminalSanitizer.sanitize(message)
    }
}

extension LocalFileError {
    /// Words a file holds (a snapshot's command, the API root it was made against), as a message quotes them:
    /// on one line, control and format characters shown by their escapes, at most 200 characters. The file may
    /// not be gh-users's: a line break in it must not start a line of its own, nor a huge value fill the log.
    static func held(_ text: String) -> String {
        let limit = 200
        let scalars = text.unicodeScalars
        let cut = scalars.count > limit ? String(String.UnicodeScalarView(scalars.prefix(limit))) + "…" : text
        return String(TerminalSanitizer.quotedPath(cut).dropFirst().dropLast())
    }
}
