import AtomicCore
import AtomicLogger

/// stderr once the token is known: every message on its way out goes through the session's Redactor, so text
/// a server sent back (a message, a request id, a header quoted in a complaint, a warning) never shows the
/// token, whichever part of gh-users wrote it. Messages are written whole, one write each, so a token is
/// never split across two writes.
struct RedactingSink: OutputSink {
    let inner: any OutputSink
    let redactor: Redactor

    func write(_ bytes: [UInt8]) throws {
        try inner.write(redactor.redacted(bytes) ?? bytes)
    }

    var readerHasLeft: Bool { inner.readerHasLeft }
    var unreadBytes: Int? { inner.unreadBytes }
    var isOpen: Bool { inner.isOpen }
}

extension IOStreams {
    /// These streams with stderr masking `redactor`'s secrets; as they are when there is none.
    func maskingErrors(with redactor: Redactor) -> IOStreams {
        redactor.isEmpty ? self : writingErrors { RedactingSink(inner: $0, redactor: redactor) }
    }
}
