import Foundation
import Networking

/// Canned responses, each answering one request. A stub matches by URL (`stub(_:)`), or, as cli/cli's httpmock
/// registry does, by a `RequestMatcher` (`register(_:)`). A request no stub matches throws and is kept in
/// `unmatched`, unless `answerEvery(_:)` scripts the rest; `unusedStubs` names the stubs never used; `problems`
/// says both in words for a failing test.
package final class StubTransport: @unchecked Sendable {
    private struct Stub {
        let name: String
        let matches: @Sendable (HTTPRequest) -> Bool
        let answer: @Sendable (HTTPRequest) -> Result<HTTPResponse, TransportError>
    }

    private let lock = NSLock()
    private var stubs: [Stub] = []
    private var registered: [String] = []
    private var script: (@Sendable (_ request: HTTPRequest, _ index: Int) -> HTTPResponse)?
    private var scripted = 0
    package private(set) var received: [HTTPRequest] = []
    /// The requests no stub matched, in words (`GET https://api.github.com/users?since=0 (Accept: …)`).
    package private(set) var unmatched: [String] = []

    package init() {}

    package func stub(_ url: String, status: Int = 200, headers: [(String, String)] = [], body: String = "[]") {
        let response = HTTPResponse(
            status: status,
            headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }),
            body: Data(body.utf8),
            url: URL(string: url)!
        )
        add(Stub(name: url, matches: { $0.url.absoluteString == url }, answer: { _ in .success(response) }))
    }

    package func fail(_ url: String, with error: TransportError) {
        add(Stub(name: url, matches: { $0.url.absoluteString == url }, answer: { _ in .failure(error) }))
    }

    /// Answers the one request `matcher` names with `status`, `headers` and `body`, from the URL it was sent to,
    /// or from `redirectedTo` (a path and query on the same origin): the answer of a redirect the transport
    /// followed, as GitHub redirects a non-member's `/orgs/{org}/members` to `/orgs/{org}/public_members`.
    package func register(
        _ matcher: RequestMatcher, status: Int = 200, headers: [(String, String)] = [], body: Data = Data(),
        redirectedTo: String? = nil
    ) {
        let fields = HTTPHeaders(headers.map { (name: $0.0, value: $0.1) })
        add(
            Stub(name: matcher.description, matches: matcher.matches) { request in
                let answered = redirectedTo.flatMap { URL(string: $0, relativeTo: request.url)?.absoluteURL }
                return .success(
                    HTTPResponse(status: status, headers: fields, body: body, url: answered ?? request.url))
            })
    }

    /// Answers every request no stub matches with what `answer` makes of it and of how many it answered before
    /// (from 0): a GitHub of a few lines for what GitHub should never send, such as lists without end or counts
    /// out of every range. Requests it answers are in `received`; it is never unused, and nothing goes unmatched.
    package func answerEvery(_ answer: @escaping @Sendable (_ request: HTTPRequest, _ index: Int) -> HTTPResponse) {
        lock.withLock { script = answer }
    }

    package var transport: HTTPTransport {
        { [self] request in try self.respond(request) }
    }

    private func add(_ stub: Stub) {
        lock.withLock {
            stubs.append(stub)
            registered.append(stub.name)
        }
    }

    private func respond(_ request: HTTPRequest) throws -> HTTPResponse {
        try lock.withLock {
            received.append(request)
            guard let index = stubs.firstIndex(where: { $0.matches(request) }) else {
                if let script {
                    defer { scripted += 1 }
                    return script(request, scripted)
                }
                unmatched.append(RequestMatcher.describe(request))
                throw TransportError.other("unexpected request \(request.url.absoluteString)")
            }
            return try stubs.remove(at: index).answer(request).get()
        }
    }

    /// URLs that were stubbed and never requested; a test expects this to be empty.
    package var unusedStubs: [String] {
        lock.withLock { stubs.map(\.name) }
    }

    /// Every unmatched request and every unused stub, each naming what was registered; empty when the run
    /// sent exactly the requests the test expected.
    package var problems: [String] {
        lock.withLock {
            let list = registered.isEmpty ? "none" : registered.joined(separator: "; ")
            return unmatched.map { "no stub matches \($0); the stubs registered: \(list)" }
                + stubs.map { "stub never used: \($0.name)" }
        }
    }
}

/// One request a test expects: method and path, the query as a set of items (an absent query is an empty
/// one), and the Accept header only when one is given.
package struct RequestMatcher: Sendable, CustomStringConvertible {
    package let method: HTTPMethod
    package let path: String
    package let query: [String]
    package let accept: String?

    /// `"GET /users/octocat/keys?per_page=30"`: a method, a space, then the path and query as sent.
    package init(_ request: String, accept: String? = nil) {
        let parts = request.split(separator: " ", maxSplits: 1).map(String.init)
        method = HTTPMethod(rawValue: parts[0]) ?? .get
        let target = parts.count > 1 ? parts[1] : "/"
        let pieces = target.split(separator: "?", maxSplits: 1).map(String.init)
        path = pieces[0]
        query = pieces.count > 1 ? pieces[1].split(separator: "&").map(String.init).sorted() : []
        self.accept = accept
    }

    /// The path and query, as written.
    package var target: String {
        query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }

    package func matches(_ request: HTTPRequest) -> Bool {
        guard request.method == method,
            let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
            components.percentEncodedPath == path,
            (components.percentEncodedQuery ?? "").split(separator: "&").map(String.init).sorted() == query
        else { return false }
        return accept.map { request.headers["Accept"] == $0 } ?? true
    }

    package var description: String {
        method.rawValue + " " + target + (accept.map { " (Accept: \($0))" } ?? "")
    }

    static func describe(_ request: HTTPRequest) -> String {
        request.method.rawValue + " " + request.url.absoluteString
            + (request.headers["Accept"].map { " (Accept: \($0))" } ?? "")
    }
}
