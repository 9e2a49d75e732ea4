import Data
import Domain
import Foundation
import Testing

@testable import gh_users

/// GitHub's lists held in memory: a second `ResourceRepository`, so the list view model's paging, limits and
/// errors are tested without HTTP. Each page is GitHub's JSON and the next page's URL, by the target asked
/// (`/users?since=0&per_page=2`, or a `Link` URL); a target with no page is GitHub's 404.
private final class InMemoryResourceRepository: ResourceRepository, @unchecked Sendable {
    private let lock = NSLock()
    private let pages: [String: (json: String, next: String?)]
    private var asked: [String] = []
    var requests: [String] { lock.withLock { asked } }

    init(_ pages: [String: (json: String, next: String?)]) {
        self.pages = pages
    }

    func fetch<Value: Sendable>(_ resource: Resource<Value>, nextPage: NextPageListener?) async throws(DomainError)
        -> Value
    {
        try answer(resource, at: resource.target, nextPage: nextPage)
    }

    func page<Item: Sendable>(_ list: ListResource<Item>, at cursor: PageCursor, nextPage: NextPageListener?)
        async throws(DomainError) -> Page<Item>
    {
        try answer(list.first, at: cursor.url, nextPage: nextPage)
    }

    func waitingOutPerMinuteLimits() -> any ResourceRepository { self }

    /// As GitHub's head would, a page names the next one to `nextPage` before its body is decoded.
    private func answer<Value: Sendable>(_ resource: Resource<Value>, at target: String, nextPage: NextPageListener?)
        throws(DomainError) -> Value
    {
        lock.withLock { asked.append(target) }
        guard let page = pages[target] else { throw .notFound(resource: resource.missing) }
        if let next = page.next { nextPage?(NextPageNotice(url: next, bodyBytes: page.json.utf8.count)) }
        return try resource.decode(
            ResourceBody(bytes: Array(page.json.utf8), next: page.next.map(PageCursor.init(url:)), label: target))
    }
}

private func accounts(_ ids: ClosedRange<Int>) -> String {
    "[" + ids.map { #"{"login":"u\#($0)","id":\#($0),"type":"User","site_admin":false}"# }.joined(separator: ",") + "]"
}

struct InMemoryListTests {
    private let followers = GitHubEndpoints.relations(.followers, of: try! Login(validating: "octocat"))

    private func model(_ github: InMemoryResourceRepository, limit: ItemLimit) -> PagedListViewModel<User> {
        PagedListViewModel(
            limit: limit, list: followers, perPage: 2, github: github,
            admitting: .rule(ListAdmission(admit: { _ in true })))
    }

    private var threePages: InMemoryResourceRepository {
        InMemoryResourceRepository([
            "/users/octocat/followers?per_page=2": (accounts(1...2), "p2"),
            "p2": (accounts(3...4), "p3"),
            "p3": (accounts(5...5), nil),
        ])
    }

    @Test func everyPageIsReadInOrderAndTheListEnds() async throws {
        let github = threePages
        let model = model(github, limit: .all)
        var ids: [Int64] = []
        while !model.isExhausted { ids += try await model.loadNextPage().map(\.id) }
        #expect(ids == [1, 2, 3, 4, 5])
        #expect(Set(github.requests) == ["/users/octocat/followers?per_page=2", "p2", "p3"])
        #expect(github.requests.count == 3)
    }

    @Test func theLimitStopsPagingAndSaysThereIsMore() async throws {
        let github = threePages
        let model = model(github, limit: .count(3))
        var ids: [Int64] = []
        while !model.isExhausted { ids += try await model.loadNextPage().map(\.id) }
        #expect(ids == [1, 2, 3])
        #expect(model.hasMore)
        #expect(!github.requests.contains("p3"))
    }

    @Test func aMissingPageIsTheRepositorysError() async throws {
        let github = InMemoryResourceRepository(["/users/octocat/followers?per_page=2": (accounts(1...2), "gone")])
        let model = model(github, limit: .all)
        #expect(try await model.loadNextPage().map(\.id) == [1, 2])
        await #expect(throws: DomainError.notFound(resource: followers.first.missing)) {
            _ = try await model.loadNextPage()
        }
    }

    @Test func aLinkBackToAPageFollowedIsACycle() async throws {
        let github = InMemoryResourceRepository([
            "/users/octocat/followers?per_page=2": (accounts(1...2), "p2"),
            "p2": (accounts(3...4), "p3"),
            "p3": (accounts(5...6), "p2"),
        ])
        let model = model(github, limit: .all)
        var failure: DomainError?
        var ids: [Int64] = []
        do {
            while !model.isExhausted { ids += try await model.loadNextPage().map(\.id) }
        } catch {
            failure = error
        }
        #expect(ids == [1, 2, 3, 4, 5, 6])
        #expect(failure != nil)
        #expect(github.requests.filter { $0 == "p2" }.count == 1)
    }
}
