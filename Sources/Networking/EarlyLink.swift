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
    @TaskLocal package static var listener: (@Sendable (String) -> Void)?

    /// `operation` with `listener` set, for its duration.
    @inline(never)
    package static func telling<T: Sendable>(
        _ listener: @escaping @Sendable (String) -> Void, _ operation: @Sendable () async throws -> T
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

    /// The observer that tells `listener` a 200's next page.
    static func nextPage(to listener: @escaping @Sendable (String) -> Void) -> HeadObserver {
        HeadObserver { status, headers in
            guard status == 200, let next = LinkHeader(headers["link"]).next else { return }
            listener(next)
        }
    }
}
