import Domain
import Foundation
import JSONBytes

/// Where a repository's stargazers are read: REST (`GET /repos/{owner}/{repo}/stargazers`, the star media type),
/// or GraphQL's `Repository.stargazers(orderBy: {field: STARRED_AT, direction: ASC})`, which gives the same
/// `{"starred_at", "user"}` records in the same order (oldest star first).
///
/// REST serves at most 400 pages (40,000 stargazers): page 401 is a 422 and its `Link` header never points past
/// page 400, so following links stops quietly short. So:
/// - a run asked to read through GraphQL pages GraphQL from the start;
/// - a run that may want more than REST reaches (all of them, or more than 40,000, or than 400 pages of a smaller
///   page: `restReach(perPage:)`) first asks `GET /repos/{owner}/{repo}` for `stargazers_count`, and when that is
///   above the reach pages GraphQL from the start (GraphQL's cursors are opaque, so there is no cursor for "after
///   REST's 40,000th": starting there costs one request, never 400);
/// - if REST still ends at its cap in such a run, and the run still wants more, the count is asked again: when it
///   is now above what REST gave (stars added during the run), GraphQL is paged from the start, and every
///   stargazer REST already gave is skipped by the user's id: none is handed on twice, none skipped. A run whose
///   limit REST's last page met asks nothing more.
/// Every record is keyed by its user's id, so a list's admission can write each stargazer once. A list withheld
/// from the token (July 2026) is refused as `firstPage(_:perPage:withheld:of:)` refuses it, through either API.
/// Once the list is read, `takeover` says whether GraphQL took over because REST stops at its reach, why, and
/// at what reach: only once a GraphQL page was asked for.
package final class StargazerReading: PageSource, @unchecked Sendable {
    /// The most stargazers REST lists: 400 pages of 100.
    package static let restCap = Endpoint.stargazers.itemCap ?? 40_000
    /// The most pages REST serves.
    package static let restPages = 400

    /// How far REST reaches at `perPage` a page: the cap is reported as 400 pages of 100, and whether a smaller
    /// page lowers it GitHub does not say, so it is taken as the smaller of 40,000 and 400 pages.
    package static func restReach(perPage: Int) -> Int {
        min(restCap, restPages * max(1, perPage))
    }

    /// A cursor of a GraphQL page is kept after this prefix (REST's are URLs); nothing after it is the first page.
    package static let graphQLCursor = "graphql:"

    private let github: GitHubRepository
    private let repository: RepositoryName
    private let owner: ListOwner
    private let resource: ListResource<Record>
    private let perPage: Int
    /// How far REST reaches at this run's page size (`restReach(perPage:)`).
    private let reach: Int
    private let viaGraphQL: Bool
    private let mayPassCap: Bool
    private let lock = NSLock()
    /// The users REST gave, by id: skipped when GraphQL is paged from the start after REST's cap.
    private var restIDs = Set<Int64>()
    /// The records REST served, repeats included: what its reach counts. A list that shifted between pages
    /// repeats one stargazer and leaves out another, so its ids fall short of the reach while its pages meet it.
    private var restRows = 0
    /// Why GraphQL was chosen or taken because REST stops at its reach; nil when it was not.
    private var pastCap: RESTTakeover?
    /// The last REST page's mark (`Page.cachedCopy`), for the empty page made past it (`pastREST`).
    private var lastRESTCopy: UnconfirmedCopy?

    /// One run's reading of `repository`'s stargazers, `plan` as the run pages.
    package init(of repository: RepositoryName, plan: PagingPlan, viaGraphQL: Bool, github: GitHubRepository) {
        self.github = github
        self.repository = repository
        let owner = ListOwner.repository(repository)
        self.owner = owner
        resource = GitHubEndpoints.records(.stargazers, under: owner)
        perPage = plan.perPage
        reach = Self.restReach(perPage: plan.perPage)
        self.viaGraphQL = viaGraphQL
        switch plan.limit {
        case .all: mayPassCap = true
        case .count(let count): mayPassCap = count > reach
        }
    }

    /// Why GraphQL took over from REST: nil when it did not (REST read the whole list, or `--via graphql`).
    package var takeover: RESTTakeover? { lock.withLock { pastCap } }

    /// Why the list was read through GraphQL rather than REST, and how far REST reached at the run's page size
    /// (`reach` stargazers, `perPage` a page: 400 pages, at most 40,000).
    package enum RESTTakeover: Sendable, Equatable {
        /// The repository counted `count` stargazers, more than REST reaches, so GraphQL was read from the start.
        case counted(count: Int, reach: Int, perPage: Int)
        /// REST ended at its reach while the repository counted more (stars added during the run).
        case stopped(reach: Int, perPage: Int)
    }

    /// The page at `cursor`; nil asks for the first. No page is told of early: a GraphQL page's cursor is in its
    /// body.
    package func page(at cursor: PageCursor?, nextPage: NextPageListener?) async throws(DomainError) -> Page<Record> {
        guard let cursor else {
            if viaGraphQL { return try await graphQL(after: nil, first: true) }
            if mayPassCap, case let count = try await counted(), count > reach {
                lock.withLock { pastCap = .counted(count: count, reach: reach, perPage: perPage) }
                return try await graphQL(after: nil, first: true)
            }
            return try await rest(
                try await github.firstPage(resource, perPage: perPage, withheld: .stargazers, of: owner))
        }
        if cursor.url.hasPrefix(Self.graphQLCursor) {
            let after = String(cursor.url.dropFirst(Self.graphQLCursor.count))
            if after.isEmpty { return try await pastREST() }
            return try await graphQL(after: after, first: false)
        }
        return try await rest(try await github.page(resource, at: cursor))
    }

    /// The repository's `stargazers_count` (`GET /repos/{owner}/{repo}`: a 404 is no such repository).
    private func counted() async throws(DomainError) -> Int {
        let record = try await github.fetch(GitHubEndpoints.repository(owner))
        return Int(JSONText.text(of: "stargazers_count", in: record.raw.bytes)) ?? 0
    }

    /// A REST page, each record keyed by its user's id. A last page that ends at REST's cap, in a run that may want
    /// more than REST reaches, names the page past REST (`pastREST()`): nothing is asked until the run wants it,
    /// so a limit this page met costs no count and says nothing.
    private func rest(_ page: Page<Record>) async throws(DomainError) -> Page<Record> {
        let records = page.items.map { record in
            Record(id: Int64(JSONText.text(at: ["user", "id"], in: record.raw.bytes)), raw: record.raw)
        }
        let served = lock.withLock {
            lastRESTCopy = page.cachedCopy
            restIDs.formUnion(records.compactMap(\.id))
            restRows += records.count
            return restRows
        }
        var next = page.next
        if next == nil, mayPassCap, served >= reach {
            next = PageCursor(url: Self.graphQLCursor)
        }
        var handed = Page(items: records, next: next)
        handed.bodyBytes = page.bodyBytes
        handed.cachedCopy = page.cachedCopy
        return handed
    }

    /// The page after REST's last, asked for only when the run wants more: when the repository now counts more
    /// stargazers than REST gave (stars added during the run), GraphQL's first page without them, and the takeover
    /// is recorded; else an empty last page.
    private func pastREST() async throws(DomainError) -> Page<Record> {
        let read = lock.withLock { restIDs.count }
        guard try await counted() > read else {
            // Made here, not GitHub's: as old as the REST page before it (helper-314's false alarm).
            var end = Page<Record>(items: [], next: nil)
            end.cachedCopy = lock.withLock { lastRESTCopy }
            return end
        }
        lock.withLock { pastCap = .stopped(reach: reach, perPage: perPage) }
        return try await graphQL(after: nil, first: false)
    }

    /// A GraphQL page after `cursor`, without the users REST gave. Pages REST gave whole are read through here
    /// rather than handed on, so the list goes on where REST stopped. An empty first page of a repository that
    /// counts stargazers is withheld (GraphQL answers others an empty list since July 2026, or `FORBIDDEN`).
    private func graphQL(after cursor: String?, first: Bool) async throws(DomainError) -> Page<Record> {
        var after = cursor
        let skipped = lock.withLock { restIDs }
        // REST gives at most 400 pages, so skipping them takes as many GraphQL pages of 100, and a few for stars
        // that moved; past that, the server is going round in circles.
        for _ in 0..<(Self.restCap / 100 + 50) {
            let page: StargazerPage
            do throws(DomainError) {
                page = try await github.stargazers(of: repository, after: after, leavingOut: skipped)
            } catch {
                throw github.withholding(graphQL: error, .stargazers, of: owner)
            }
            if first, page.read == 0, page.endCursor == nil {
                try await github.refuseEmpty(.stargazers, of: owner)
            }
            guard page.records.isEmpty, let next = page.endCursor, page.read > 0 else {
                let cursor = page.endCursor.map { PageCursor(url: Self.graphQLCursor + $0) }
                return Page(items: page.records, next: cursor, totalCount: page.totalCount)
            }
            guard next != after else { break }
            after = next
        }
        throw .malformedResponse(
            endpoint: "POST /graphql",
            detail: "the stargazers' pages brought nothing new (all of them were already written), so paging stopped")
    }
}
