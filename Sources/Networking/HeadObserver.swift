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

    package init(_ observe: @escaping @Sendable (_ status: Int, _ headers: HTTPHeaders) -> Void) {
        self.observe = observe
    }

    package static func == (_: HeadObserver, _: HeadObserver) -> Bool { true }

    /// The observer that tells `listener` a 200's next page (its URL as the head gave it: whoever asks for it
    /// checks its origin as for any next page, `ErrorMapping.nextPageURL`), and the length of the body this head
    /// announces: nil when it announces none, or a compressed one, whose length says nothing of what it inflates
    /// to.
    package static func nextPage(to listener: @escaping @Sendable (_ url: String, _ bodyBytes: Int?) -> Void)
        -> HeadObserver
    {
        HeadObserver { status, headers in
            guard status == 200, let next = LinkHeader(headers["link"]).next else { return }
            let length =
                headers["content-encoding"] == nil
                ? headers["content-length"].flatMap {
                    Int($0.trimmingCharacters(in: .whitespaces))
                } : nil
            listener(next, length.flatMap { $0 >= 0 ? $0 : nil })
        }
    }
}
