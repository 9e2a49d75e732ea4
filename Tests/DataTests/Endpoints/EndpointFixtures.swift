import Foundation
import Networking
import TestSupport
import Testing

/// GitHub's documented example body for an endpoint, from the test bundle's `Fixtures` folder.
func fixture(_ name: String) throws -> String {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
    return try String(contentsOf: url, encoding: .utf8)
}

/// A client for api.github.com over a stub transport, which never retries, so each stub answers once.
func client(_ stub: StubTransport) -> HTTPClient {
    HTTPClient(
        configuration: HTTPClientConfiguration(baseURL: URL(string: "https://api.github.com")!, userAgent: "t"),
        transport: stub.transport,
        logger: .disabled,
        retryPolicy: RetryPolicy(maxRetries: 0)
    )
}
