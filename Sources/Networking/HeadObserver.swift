import Foundation

/// A request's observer of its answer's head (`HTTPRequest.onHead`), told the status and headers as soon as they
/// arrive, before the body is read and decoded. Requests compare equal whatever their observers: it says nothing
/// of what is sent.
///
/// A paging loop uses it to ask for the next page early: GitHub sends `Link` in the head, and a page's body can
/// arrive paced over several milliseconds, with decoding 100 accounts taking a few more (issue 29, `Scripts/bench
/// --network`). The head is readable only once the TLS record that holds it is whole: behind the bench's nginx,
/// whose records are up to 16 KB, a page's head and body share one, so there only the decoding is saved. The
/// observer is given with the request (Data's `fetch(_:nextPage:)`), never set around it.
package struct HeadObserver: Sendable, Equatable {
    package let observe: @Sendable (_ status: Int, _ headers: HTTPHeaders) -> Void
    /// Told the bytes of body that have arrived so far, as they pass 1 MiB, 2, 4, 8 and so on: the transport
    /// calls it after the head, from URLSession's queue.
    package let grew: (@Sendable (_ bodyBytes: Int) -> Void)?

    package init(
        _ observe: @escaping @Sendable (_ status: Int, _ headers: HTTPHeaders) -> Void,
        grew: (@Sendable (_ bodyBytes: Int) -> Void)? = nil
    ) {
        self.observe = observe
        self.grew = grew
    }

    package static func == (_: HeadObserver, _: HeadObserver) -> Bool { true }

    /// The observer that tells `listener` a 200's next page (its URL as the head gave it: whoever asks for it
    /// checks its origin as for any next page, `ErrorMapping.nextPageURL`), and the length of the body this head
    /// announces: nil when it announces none, or a compressed one, whose length says nothing of what it inflates
    /// to. When it announces none, `listener` is told again each time the transport says the body grew, with
    /// its length so far.
    package static func nextPage(to listener: @escaping @Sendable (_ url: String, _ bodyBytes: Int?) -> Void)
        -> HeadObserver
    {
        let unannounced = UnannouncedNext()
        return HeadObserver(
            { status, headers in
                guard status == 200, let next = LinkHeader(headers["link"]).next else { return }
                let length =
                    headers["content-encoding"] == nil
                    ? headers["content-length"].flatMap {
                        Int($0.trimmingCharacters(in: .whitespaces))
                    } : nil
                let announced = length.flatMap { $0 >= 0 ? $0 : nil }
                if announced == nil { unannounced.url = next }
                listener(next, announced)
            },
            grew: { bytes in
                guard let next = unannounced.url else { return }
                listener(next, bytes)
            })
    }
}

/// The next page a head named without announcing its body's length, for the reports of its body's growth.
private final class UnannouncedNext: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    var url: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
