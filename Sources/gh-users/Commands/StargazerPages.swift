import Data
import Domain
import Foundation
import JSONBytes

/// Where `stargazers` reads its pages: REST (`GET /repos/{owner}/{repo}/stargazers`, the star media type), or
/// GraphQL's `Repository.stargazers(orderBy: {field: STARRED_AT, direction: ASC})`, which gives the same
/// `{"starred_at", "user"}` records in the same order (oldest star first).
///
/// REST serves at most 400 pages (40,000 stargazers): page 401 is a 422 and its `Link` header never points past
/// page 400, so following links stops quietly short. So:
/// - `--via graphql` pages GraphQL from the start;
/// - a run that may want more than REST reaches (`--all`, or `--limit` above 40,000, or above 400 pages of a
///   smaller `--per-page`: `restReach(perPage:)`) first asks `GET /repos/{owner}/{repo}` for `stargazers_count`,
///   and when that is above the reach pages GraphQL from the start (GraphQL's cursors are opaque, so there is no
///   cursor for "after REST's 40,000th": starting there costs one request, never 400);
/// - if REST still ends at its cap and the count is now above what it gave (stars added during the run), GraphQL
///   is paged from the start, and every stargazer REST already gave is skipped by the user's id: none is written
///   twice, none skipped.
/// Every record is keyed by its user's id, which the list's admission uses to write each stargazer once.
enum StargazerPages {
    /// The most stargazers REST lists: 400 pages of 100.
    static let restCap = Endpoint.stargazers.itemCap ?? 40_000
    /// The most pages REST serves.
    static let restPages = 400

    /// How far REST reaches at `perPage` a page: the cap is reported as 400 pages of 100, and whether a smaller
    /// page lowers it GitHub does not say, so it is taken as the smaller of 40,000 and 400 pages.
    static func restReach(perPage: Int) -> Int {
        min(restCap, restPages * max(1, perPage))
    }
    /// A cursor of a GraphQL page is kept after this prefix (REST's are URLs); nothing after it is the first page.
    static let graphQLCursor = "graphql:"

    /// The loader for one run; nil for an OWNER/REPO that is no repository name (parsing refused it already).
    static func prepared(
        _ options: PeopleListOptions, github: GitHubReader, plan: PagingPlan,
        admission: ListAdmission<Record>
    ) -> PreparedList<Record>? {
        guard let repository = try? RepositoryName(validating: options.owner.description) else { return nil }
        let reach = restReach(perPage: plan.perPage)
        let reading = Reading(
            repository: repository, owner: options.owner, github: github,
            resource: GitHubEndpoints.records(.stargazers, under: options.owner), reach: reach)
        let viaGraphQL = options.profiles.via == .graphql
        let mayPassCap: Bool
        switch plan.limit {
        case .all: mayPassCap = true
        case .count(let count): mayPassCap = count > reach
        }
        return PreparedList(
            noting: { cursor throws(DomainError) in
                guard let cursor else {
                    if viaGraphQL { return try await reading.graphQL(after: nil, first: true) }
                    if mayPassCap, try await reading.counted() > reach {
                        reading.state.withLock { $0.pastCap = true }
                        return try await reading.graphQL(after: nil, first: true)
                    }
                    return try await reading.rest(
                        try await ListDeclaration<PeopleListOptions, Record>.firstPage(
                            reading.resource, perPage: plan.perPage, noun: "stargazers", count: "stargazers_count",
                            of: options.owner, github: github))
                }
                if cursor.url.hasPrefix(graphQLCursor) {
                    let after = String(cursor.url.dropFirst(graphQLCursor.count))
                    return try await reading.graphQL(after: after.isEmpty ? nil : after, first: false)
                }
                return try await reading.rest(try await github.page(reading.resource, at: cursor))
            },
            admission: admission)
    }

    /// What one run has read so far, for the step from REST to GraphQL.
    struct State {
        /// The users REST gave, by id: skipped when GraphQL is paged from the start after REST's cap.
        var restIDs = Set<Int64>()
        /// GraphQL was chosen or taken because REST stops at 40,000: said once the list ends.
        var pastCap = false
    }

    /// One run's reading: the repository, its REST list, and the state the loader's calls share.
    final class Reading: Sendable {
        let repository: RepositoryName
        let owner: ListOwner
        let github: GitHubReader
        let resource: ListResource<Record>
        /// How far REST reaches at this run's page size (`restReach(perPage:)`).
        let reach: Int
        let state = Locked(State())

        init(
            repository: RepositoryName, owner: ListOwner, github: GitHubReader, resource: ListResource<Record>,
            reach: Int
        ) {
            self.repository = repository
            self.owner = owner
            self.github = github
            self.resource = resource
            self.reach = reach
        }

        /// The repository's `stargazers_count` (`GET /repos/{owner}/{repo}`: a 404 is no such repository).
        func counted() async throws(DomainError) -> Int {
            let record = try await github.fetch(GitHubEndpoints.repository(owner))
            return Int(JSONText.text(of: "stargazers_count", in: record.raw.bytes)) ?? 0
        }

        /// A REST page, each record keyed by its user's id. A last page that ends at REST's cap, of a repository
        /// that counts more stargazers than REST gave, goes on through GraphQL from the start.
        func rest(_ page: Page<Record>) async throws(DomainError) -> PagedListViewModel<Record>.NotedPage {
            let records = page.items.map { record in
                Record(id: Int64(JSONText.text(at: ["user", "id"], in: record.raw.bytes)), raw: record.raw)
            }
            let read = state.withLock { state in
                state.restIDs.formUnion(records.compactMap(\.id))
                return state.restIDs.count
            }
            var next = page.next
            if next == nil, read >= reach, try await counted() > read {
                state.withLock { $0.pastCap = true }
                next = PageCursor(url: StargazerPages.graphQLCursor)
            }
            var handed = Page(items: records, next: next)
            handed.bodyBytes = page.bodyBytes
            return .init(page: handed)
        }

        /// A GraphQL page after `cursor`, without the users REST gave. Pages REST gave whole are read through here
        /// rather than handed on, so the list goes on where REST stopped. An empty first page of a repository
        /// that counts stargazers is withheld (GraphQL answers others an empty list since July 2026).
        func graphQL(after cursor: String?, first: Bool) async throws(DomainError)
            -> PagedListViewModel<Record>.NotedPage
        {
            var after = cursor
            let skipped = state.withLock { $0.restIDs }
            // REST gives at most 400 pages, so skipping them takes as many GraphQL pages of 100, and a few for stars
            // that moved; past that, the server is going round in circles.
            for _ in 0..<(StargazerPages.restCap / 100 + 50) {
                let page = try await github.stargazers(of: repository, after: after, leavingOut: skipped)
                let records = page.records
                if first, page.read == 0, page.endCursor == nil {
                    try await ListDeclaration<PeopleListOptions, Record>.refuseEmpty(
                        "stargazers", count: "stargazers_count", of: owner, github: github)
                }
                guard records.isEmpty, let next = page.endCursor, page.read > 0 else {
                    let cursor = page.endCursor.map { PageCursor(url: StargazerPages.graphQLCursor + $0) }
                    let notes = state.withLock { $0.pastCap } ? [StargazerPages.pastCapNote] : []
                    return .init(
                        page: Page(items: records, next: cursor, totalCount: page.totalCount), closingNotes: notes)
                }
                guard next != after else { break }
                after = next
            }
            throw .malformedResponse(
                endpoint: "POST /graphql",
                detail:
                    "the stargazers' pages brought nothing new (all of them were already written), so paging stopped")
        }
    }

    static let pastCapNote =
        "gh-users: GitHub's REST list of stargazers stops at 40,000 (400 pages), so they were read through GraphQL."
}

/// A value behind a lock, for state a run's loader calls share across the tasks that make them.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// `stargazers`' help: what it lists, who may list it, the 400-page cap and how it is passed.
enum StargazersHelp {
    static let spec: CommandSpec = {
        var spec = CommandSpec(
            name: "stargazers",
            abstract: "List who starred a repository, and when (\(Endpoint.stargazers)).",
            usage:
                "gh-users stargazers OWNER/REPO [--limit N | --all] [--via rest|graphql] [--full] [options]",
            discussion: """
                Lists the accounts that starred the repository, oldest star first: the table shows each login
                and when it starred (starred_at). Each record is GitHub's {"starred_at", "user"} object;
                --fields takes its top-level keys, and login: the user's login. Since July 2026 GitHub lists a
                repository's stargazers only to its admins and collaborators: it needs a token of one of them
                (with the repo scope for a private repository). When GitHub refuses (403 or 404, or an empty
                list where the repository counts some), the repository is asked for: if it exists, the refusal
                is exit status 4 and says why in one line; if not, exit status 3. For any public repository,
                star-history gives the stars gained a day.

                GitHub's REST list stops at 400 pages (40,000 stargazers): page 401 is refused, and its links
                never point past page 400. So --all, or a --limit above 40,000 (or above 400 pages of a smaller
                --per-page), first asks GET /repos/{owner}/{repo} for stargazers_count, and past that reads
                the whole list through
                GraphQL (Repository.stargazers, ordered by starredAt as REST is) from the start: GraphQL's
                cursors are opaque, so none points at REST's 40,001st, and starting over costs one request
                rather than 400. Should REST still stop at 40,000 (stars added during the run), GraphQL is read
                from its start and every stargazer already written is skipped by the user's id: none is
                written twice and none is left out; stderr says GraphQL was used. --via graphql reads the list
                through GraphQL from the start (it needs a token: exit status 4 without one). Each record has
                the same shape either way, the user's keys as REST names them: databaseId is id, id is
                node_id, url is html_url, avatarUrl is avatar_url (REST's form of it on github.com),
                isSiteAdmin is site_admin, type is User, gravatar_id is "", and url, followers_url and the
                other API addresses are built from the login as REST writes them.

                With --full each stargazer is written as its profile (GET /users/{username}; with --via
                graphql, 100 a request): under --full, the list's own keys (starred_at) are added to the
                profile, after its own keys.
                """,
            arguments: [("OWNER/REPO", "The repository, as OWNER/REPO (octocat/Hello-World).")],
            options: [],
            examples: [
                ("gh-users stargazers my-org/app", "The first 30 to star a repository you administer."),
                ("gh-users stargazers my-org/app --all --format ndjson", "Every stargazer, past 40,000 too."),
                (
                    "gh-users stargazers my-org/app --all --full --via graphql --format csv --fields login,name,starred_at",
                    "Every stargazer's name, and when they starred."
                ),
            ],
            fields: ["login", "starred_at", "user"])
        spec.listsThroughGraphQL = true
        return spec
    }()
}
