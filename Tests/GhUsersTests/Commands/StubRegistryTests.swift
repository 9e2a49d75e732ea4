import Foundation
import Networking
import TestSupport
import Testing

/// The stub registry the command tests stand on: it must name an unexpected request and a stub never used, or
/// those tests would pass without proving their requests.
struct StubRegistryTests {
    private func send(_ stubs: StubTransport, _ method: HTTPMethod, _ url: String, accept: String) async -> Bool {
        var headers = HTTPHeaders()
        headers.set("Accept", accept)
        let request = HTTPRequest(method: method, url: URL(string: url)!, headers: headers)
        return (try? await stubs.transport(request)) != nil
    }

    @Test func aRequestMatchesByMethodPathQueryInAnyOrderAndAccept() async {
        let stubs = StubTransport()
        stubs.register(RequestMatcher("GET /users/octocat/starred?per_page=30&sort=updated", accept: "star"))
        #expect(
            await send(
                stubs, .get, "https://api.github.com/users/octocat/starred?sort=updated&per_page=30", accept: "star"))
        #expect(stubs.problems.isEmpty)
    }

    @Test(arguments: [
        (HTTPMethod.put, "https://api.github.com/users/octocat/keys?per_page=30", "json"),
        (.get, "https://api.github.com/users/octocat/gists?per_page=30", "json"),
        (.get, "https://api.github.com/users/octocat/keys?per_page=100", "json"),
        (.get, "https://api.github.com/users/octocat/keys", "json"),
        (.get, "https://api.github.com/users/octocat/keys?per_page=30", "star"),
    ])
    func anyOtherRequestFailsNamingItAndTheStubs(method: HTTPMethod, url: String, accept: String) async {
        let stubs = StubTransport()
        stubs.register(RequestMatcher("GET /users/octocat/keys?per_page=30", accept: "json"))
        #expect(await !send(stubs, method, url, accept: accept))
        #expect(
            stubs.problems == [
                "no stub matches \(method.rawValue) \(url) (Accept: \(accept)); the stubs registered: "
                    + "GET /users/octocat/keys?per_page=30 (Accept: json)",
                "stub never used: GET /users/octocat/keys?per_page=30 (Accept: json)",
            ])
    }

    @Test func eachStubAnswersOnce() async {
        let stubs = StubTransport()
        stubs.register(RequestMatcher("GET /user"))
        #expect(await send(stubs, .get, "https://api.github.com/user", accept: "json"))
        #expect(await !send(stubs, .get, "https://api.github.com/user", accept: "json"))
        #expect(stubs.problems.count == 1)
    }
}
