import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

/// An account by id and the follow lists, through the real repository.
struct UsersEndpointTests {
    @Test func userByIDAndRelations() async throws {
        let stub = StubTransport()
        stub.stub("https://api.github.com/user/583231", body: #"{"login":"octocat","id":583231}"#)
        stub.stub(
            "https://api.github.com/users/octocat/followers?per_page=100",
            headers: [("Link", #"<https://api.github.com/user/583231/followers?per_page=100&page=2>; rel="next""#)],
            body: try fixture("users-list.json")
        )
        let repository = GitHubRepository(client: client(stub))
        #expect(try await repository.user(id: 583231).login == "octocat")
        let page = try await repository.firstPage(
            GitHubEndpoints.relations(.followers, of: try Login(validating: "octocat")), perPage: 100)
        #expect(page.items.map(\.login) == ["octocat"])
        #expect(page.next?.url == "https://api.github.com/user/583231/followers?per_page=100&page=2")
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func aMissingIDNamesIt() async {
        let stub = StubTransport()
        stub.stub("https://api.github.com/user/9", status: 404, body: #"{"message":"Not Found"}"#)
        await #expect(throws: DomainError.notFound(resource: "account with id 9")) {
            try await GitHubRepository(client: client(stub)).user(id: 9)
        }
    }

    /// A list under an organization (`/orgs/{org}/…`) that GitHub answers 404 names the organization, not a user.
    @Test func aMissingOrganizationIsNamedSo() async throws {
        let underAnOrganization = Endpoint(
            "orgs/list-public-members", .get, "/orgs/{org}/public_members", shape: .accounts, paging: .link,
            docs: "https://docs.github.com/rest/orgs/members#list-public-organization-members")
        let stub = StubTransport()
        stub.stub(
            "https://api.github.com/orgs/no-such-org/public_members?per_page=30", status: 404,
            body: #"{"message":"Not Found"}"#)
        stub.stub(
            "https://api.github.com/orgs/no-such-org/public_members?per_page=30", status: 404,
            body: #"{"message":"Not Found"}"#)
        let org = try Login(validating: "no-such-org")
        let repository = GitHubRepository(client: client(stub))
        await #expect(throws: DomainError.notFound(resource: "organization 'no-such-org'")) {
            try await repository.firstPage(GitHubEndpoints.records(underAnOrganization, of: org), perPage: 30)
        }
        await #expect(throws: DomainError.notFound(resource: "organization 'no-such-org'")) {
            try await repository.firstPage(
                GitHubEndpoints.accounts(underAnOrganization, under: .organization(org)), perPage: 30)
        }
    }
}
