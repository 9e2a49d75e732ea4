import Foundation
import Networking

/// Canned responses by URL. An unexpected request throws, and `unusedStubs` names the stubs never used.
package final class StubTransport: @unchecked Sendable {
    private let lock = NSLock()
    private var stubs: [(url: String, result: Result<HTTPResponse, TransportError>)] = []
    package private(set) var received: [HTTPRequest] = []

    package init() {}

    package func stub(_ url: String, status: Int = 200, headers: [(String, String)] = [], body: String = "[]") {
        let response = HTTPResponse(
            status: status,
            headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }),
            body: Data(body.utf8),
            url: URL(string: url)!
        )
        lock.withLock { stubs.append((url, .success(response))) }
    }

    package func fail(_ url: String, with error: TransportError) {
        lock.withLock { stubs.append((url, .failure(error))) }
    }

    package var transport: HTTPTransport {
        { [self] request in try self.respond(request) }
    }

    private func respond(_ request: HTTPRequest) throws -> HTTPResponse {
        try lock.withLock {
            received.append(request)
            guard let index = stubs.firstIndex(where: { $0.url == request.url.absoluteString }) else {
                throw TransportError.other("unexpected request \(request.url.absoluteString)")
            }
            return try stubs.remove(at: index).result.get()
        }
    }

    /// URLs that were stubbed and never requested; a test expects this to be empty.
    package var unusedStubs: [String] {
        lock.withLock { stubs.map(\.url) }
    }
}
