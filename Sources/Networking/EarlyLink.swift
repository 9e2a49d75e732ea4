import Foundation

/// Who wants to know a page's next URL as soon as the answer's head arrives, before its body is read and
/// decoded: GitHub sends `Link` in the head. A page's body can arrive paced over several milliseconds, and
/// decoding 100 accounts takes a few more (issue 29, `Scripts/bench --network`). The head is readable only once
/// the TLS record that holds it is whole: behind the bench's nginx, whose records are up to 16 KB, a page's head
/// and body share one, so there only the decoding is saved. A paging loop sets `listener` around one page's load;
/// a GET sent under it whose answer is a 200 with a `Link: rel="next"` calls it with that URL, once per attempt, from
/// URLSession's queue. The URL is as the head gave it: whoever asks for it checks its origin as for any next
/// page (`ErrorMapping.nextPageURL`).
package enum EarlyLink {
    /// What a head tells: the next page's URL, and the length of the body this head announces (nil when it
    /// announces none, or a compressed one, whose length says nothing of what it inflates to), so that a loop
    /// can ask fewer pages ahead when pages are big, before the body is in.
    package struct Next: Sendable, Equatable {
        package let url: String
        package let bodyBytes: Int?

        package init(url: String, bodyBytes: Int? = nil) {
            self.url = url
            self.bodyBytes = bodyBytes
        }
    }

    @TaskLocal package static var listener: (@Sendable (Next) -> Void)?

    /// `operation` with `listener` set, for its duration.
    @inline(never)
    package static func telling<T: Sendable>(
        _ listener: @escaping @Sendable (Next) -> Void, _ operation: @Sendable () async throws -> T
    ) async throws -> T {
        try await $listener.withValue(listener) { try await operation() }
    }
}

/// A request's observer of its answer's head (`HTTPRequest.onHead`). Requests compare equal whatever their
/// observers: it says nothing of what is sent.
package struct HeadObserver: Sendable, Equatable {
    package let observe: @Sendable (_ status: Int, _ headers: HTTPHeaders) -> Void

    package init(_ observe: @escaping @Sendable (_ status: Int, _ headers: HTTPHeaders) -> Void) {
        self.observe = observe
    }

    package static func == (_: HeadObserver, _: HeadObserver) -> Bool { true }

    /// The observer that tells `listener` a 200's next page, and the length its head announces.
    static func nextPage(to listener: @escaping @Sendable (EarlyLink.Next) -> Void) -> HeadObserver {
        HeadObserver { status, headers in
            guard status == 200, let next = LinkHeader(headers["link"]).next else { return }
            let length =
                headers["content-encoding"] == nil
                ? headers["content-length"].flatMap {
                    Int($0.trimmingCharacters(in: .whitespaces))
                } : nil
            listener(EarlyLink.Next(url: next, bodyBytes: length.flatMap { $0 >= 0 ? $0 : nil }))
        }
    }
}
