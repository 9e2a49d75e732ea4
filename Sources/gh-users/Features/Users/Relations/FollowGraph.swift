import Data
import Domain

/// The follow graph's set operations on one account: its followers, or whom it follows (the output list),
/// kept or dropped by whether they are in the other list. Memory grows with the smaller of the two lists:
/// when the other list is no larger, its ids are held and the output list streams past them; when the output
/// list is the smaller, its records are held while the other list streams, and what is left is written at the
/// end. Either way the cost is the pages of both lists; the sizes come from the account's profile.
struct FollowGraph: Sendable {
    enum Filter: Sendable, Equatable {
        /// In both lists (`--mutual`).
        case mutual
        /// In the output list only (`--not-followed-back`, `--not-following-back`).
        case difference
    }

    let github: any GitHubReader
    /// nil: the token's own account.
    let login: Login?
    let output: UserRelation
    let filter: Filter

    private var other: UserRelation { output == .followers ? .following : .followers }

    func preparation(perPage: Int) -> ListDeclaration<RelationsOptions, User>.Preparation {
        let state = FollowGraphState()
        let outputList = GitHubEndpoints.relations(output, of: login)
        let seen = SeenIDs()
        let keep: (User) -> Bool = { user in
            guard let held = state.heldIDs else { return true }
            return held.contains(user.id) == (filter == .mutual)
        }
        return .init(
            load: { cursor throws(DomainError) in
                if let cursor { return try await github.page(outputList, at: cursor) }
                if try await holdsTheOtherList() {
                    state.heldIDs = Set(try await everyone(other).map(\.id))
                    return try await github.firstPage(outputList, perPage: perPage)
                }
                // The output list is the smaller: hold it, stream the other, and keep what the filter asks for.
                let candidates = try await everyone(output)
                var inOther = Set<Int64>()
                let candidateIDs = Set(candidates.map(\.id))
                try await stream(other) { page in
                    for user in page where candidateIDs.contains(user.id) { inOther.insert(user.id) }
                }
                return Page(items: candidates.filter { inOther.contains($0.id) == (filter == .mutual) }, next: nil)
            },
            admission: .init(
                admit: { user in seen.admit(user.id) && keep(user) },
                isNew: { !seen.contains($0.id) }
            )
        )
    }

    /// True when the other list is no larger than the output list, or when the sizes are not known.
    private func holdsTheOtherList() async throws(DomainError) -> Bool {
        let profile = try await github.fetch(login.map(GitHubEndpoints.user) ?? authenticatedProfile)
        let counts = (followers: profile.followers, following: profile.following)
        guard let followers = counts.followers, let following = counts.following else { return true }
        let (outputCount, otherCount) = output == .followers ? (followers, following) : (following, followers)
        return otherCount <= outputCount
    }

    private var authenticatedProfile: Resource<User> {
        let me = GitHubEndpoints.authenticatedUser
        return Resource(path: me.path, missing: me.missing) { body throws(DomainError) in try me.decode(body).user }
    }

    private func everyone(_ relation: UserRelation) async throws(DomainError) -> [User] {
        var all: [User] = []
        try await stream(relation) { all += $0 }
        return all
    }

    /// Every page of one list, in order; a `Link` that comes back to a page already read ends it.
    private func stream(_ relation: UserRelation, _ body: ([User]) -> Void) async throws(DomainError) {
        let list = GitHubEndpoints.relations(relation, of: login)
        var page = try await github.firstPage(list, perPage: PagingPlan.maximumPerPage)
        var visited = Set<String>()
        while true {
            body(page.items)
            guard let next = page.next, visited.insert(next.url).inserted, !page.items.isEmpty else { return }
            page = try await github.page(list, at: next)
        }
    }
}

/// What one run of a set operation learned before its output list streams: the other list's ids.
private final class FollowGraphState: @unchecked Sendable {
    var heldIDs: Set<Int64>?
}
