import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

/// The repository layer on real GitHub answers (Tests/Recorded): every recorded profile and account list decodes,
/// and each account keeps the exact bytes GitHub sent for it, whatever the era of the answer.
struct RecordedExchangesTests {
    private static func repository(_ stub: StubTransport) -> GitHubRepository {
        GitHubRepository(
            client: HTTPClient(
                configuration: HTTPClientConfiguration(
                    baseURL: URL(string: "https://api.github.com")!, userAgent: "gh-users/test"),
                transport: stub.transport, logger: .disabled, retryPolicy: RetryPolicy(maxRetries: 0)))
    }

    /// Recorded 200 answers whose route is a profile: `/users/{login}` or `/user/{id}`.
    static let profiles: [String] = Recordings.names.filter { name in
        guard let exchange = try? Recordings.load(name).exchanges[0], exchange.status == 200 else { return false }
        let segments = exchange.route.split(separator: "/")
        return segments.count == 2 && ["users", "user"].contains(segments[0])
    }

    @Test(arguments: profiles)
    func aRecordedProfileKeepsGitHubsBytes(_ name: String) async throws {
        let exchange = try Recordings.load(name).exchanges[0]
        let segments = exchange.route.split(separator: "/").map(String.init)
        let stub = StubTransport()
        stub.stub("https://api.github.com" + exchange.path, body: exchange.text)
        let user =
            segments[0] == "user"
            ? try await Self.repository(stub).user(id: try #require(Int64(segments[1])))
            : try await Self.repository(stub).user(login: try Login(validating: segments[1]))
        #expect(String(decoding: user.raw.bytes, as: UTF8.self) == exchange.text)
        #expect(user.login == JSONTokens.value("login", in: exchange.text).map { String($0.dropFirst().dropLast()) })
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func aRecordedPageOfAccountsKeepsEachAccountsBytes() async throws {
        let exchange = try Recordings.load("github3.py/users-list-first-page-2016").exchanges[0]
        let stub = StubTransport()
        stub.stub("https://api.github.com/users?since=0&per_page=10", body: exchange.text)
        let users = try await Self.repository(stub).firstPage(GitHubEndpoints.users(since: 0), perPage: 10).items
        #expect(
            users.map { JSONTokens.compact(String(decoding: $0.raw.bytes, as: UTF8.self)) }
                == JSONTokens.members(exchange.text))
        #expect(users.map(\.login).prefix(3) == ["mojombo", "defunkt", "pjhyett"])
    }
}
