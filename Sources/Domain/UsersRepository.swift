/// Where the next page comes from: the `rel="next"` URL exactly as GitHub gave it.
package struct PageCursor: Sendable, Equatable {
    package let url: String

    package init(url: String) {
        self.url = url
    }
}

/// One page of accounts, and the cursor to the next one if GitHub said there is one.
package struct UserPage: Sendable, Equatable {
    package let users: [User]
    package let next: PageCursor?

    package init(users: [User], next: PageCursor?) {
        self.users = users
        self.next = next
    }
}

/// Access to GitHub accounts. Implementations throw only `DomainError`.
package protocol UsersRepository: Sendable {
    /// The first page of `GET /users` after `since`.
    func listUsers(since: Int64, perPage: Int) async throws(DomainError) -> UserPage
    /// The page a cursor points at.
    func users(at cursor: PageCursor) async throws(DomainError) -> UserPage
    /// The full profile of one account.
    func user(login: Login) async throws(DomainError) -> User
}
