/// Where the next page comes from: the `rel="next"` URL exactly as GitHub gave it.
package struct PageCursor: Sendable, Equatable {
    package let url: String

    package init(url: String) {
        self.url = url
    }
}

/// One page of a list, the cursor to the next one if GitHub said there is one, and, for a search, how many
/// results there are in all.
package struct Page<Item: Sendable>: Sendable {
    package let items: [Item]
    package let next: PageCursor?
    /// A search's `total_count`; nil for plain lists.
    package let totalCount: Int?
    /// A search that timed out on GitHub's side says so with `incomplete_results`.
    package let incompleteResults: Bool

    package init(items: [Item], next: PageCursor?, totalCount: Int? = nil, incompleteResults: Bool = false) {
        self.items = items
        self.next = next
        self.totalCount = totalCount
        self.incompleteResults = incompleteResults
    }
}

extension Page: Equatable where Item: Equatable {}

/// One page of accounts.
package typealias UserPage = Page<User>

extension Page where Item == User {
    package init(users: [User], next: PageCursor?) {
        self.init(items: users, next: next)
    }

    package var users: [User] { items }
}

/// Access to GitHub accounts. Implementations throw only `DomainError`.
package protocol UsersRepository: Sendable {
    /// The first page of `GET /users` after `since`.
    func listUsers(since: Int64, perPage: Int) async throws(DomainError) -> UserPage
    /// The page a cursor points at.
    func users(at cursor: PageCursor) async throws(DomainError) -> UserPage
    /// The full profile of one account.
    func user(login: Login) async throws(DomainError) -> User
    /// The full profile of the account with this id (`GET /user/{id}`).
    func user(id: Int64) async throws(DomainError) -> User
    /// The first page of an account's followers (`relation` .followers) or of whom it follows.
    func relations(_ relation: UserRelation, of login: Login, perPage: Int) async throws(DomainError) -> UserPage
}

/// Which side of the follow graph to list.
package enum UserRelation: String, Sendable, CaseIterable {
    case followers
    case following
}
