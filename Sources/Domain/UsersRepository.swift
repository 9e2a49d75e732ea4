import Foundation

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
    package var items: [Item]
    package let next: PageCursor?
    /// A search's `total_count`; nil for plain lists.
    package let totalCount: Int?
    /// A search that timed out on GitHub's side says so with `incomplete_results`.
    package let incompleteResults: Bool
    /// GitHub answered `204 No Content`: an empty list with no body, as it answers for a list it no longer
    /// serves (`GET /users/{username}/subscriptions` since July 2026).
    package let noContent: Bool
    /// The list that answered when GitHub redirected the request to another (`ResourceBody.answeredPath`).
    package var answeredPath: String?
    /// The size of the body the page was read from, where a decoder says (0 where none does): a paging loop asks
    /// fewer pages ahead of its reader when pages are big, since each costs memory in proportion.
    package var bodyBytes = 0
    /// What a list a command prepares has to say once it ends, as it stands after this page (a split search's
    /// query count), for stderr; GitHub's own pages say nothing.
    package var closingNotes: [String] = []
    /// GitHub's clock when it answered (its `Date`), where a decoder reads it: a split search's plan reaches
    /// GitHub's today on a machine whose clock is behind.
    package var answeredAt: Date?
    /// A page of a list paged by page number (`page=`) that the cache answered, for want of the network or under
    /// `--offline`. Beside pages GitHub gave now, it may not meet them: people who came or went since shifted the
    /// pages, and some were on none of them.
    package var cachedCopy: UnconfirmedCopy?

    package init(
        items: [Item], next: PageCursor?, totalCount: Int? = nil, incompleteResults: Bool = false,
        noContent: Bool = false
    ) {
        self.items = items
        self.next = next
        self.totalCount = totalCount
        self.incompleteResults = incompleteResults
        self.noContent = noContent
    }

    /// What a list's `204 No Content` means: nothing in it, and nothing after it.
    package static var noContent: Page { Page(items: [], next: nil, noContent: true) }

    /// This page with `notes` to say once the list ends.
    package func noting(_ notes: [String]) -> Page {
        var page = self
        page.closingNotes = notes
        return page
    }
}

/// Two pages are equal when they say the same; the size of the body each was read from is not part of that.
extension Page: Equatable where Item: Equatable {
    package static func == (left: Page, right: Page) -> Bool {
        left.items == right.items && left.next == right.next && left.totalCount == right.totalCount
            && left.incompleteResults == right.incompleteResults && left.noContent == right.noContent
            && left.answeredPath == right.answeredPath && left.cachedCopy == right.cachedCopy
    }
}

/// A value that may be a list's page, which Data marks when the cache answered it (`Page.cachedCopy`).
package protocol CopyMarked {
    var cachedCopy: UnconfirmedCopy? { get set }
}

extension Page: CopyMarked {}

/// The ages of the answers a run joined: the first the cache answered (`Page.cachedCopy`), and whether GitHub gave
/// one now. Both at once (`twoAges`) is a list or a sum of answers that may not meet.
package struct AnswerAges: Sendable {
    private var copy: UnconfirmedCopy?
    private var live = false

    package init() {}

    /// The first copy, where another answer came from GitHub now; nil while the answers are of one age.
    package var twoAges: UnconfirmedCopy? { live ? copy : nil }

    /// Notes an answer: `copy` where the cache gave it, nil where GitHub did.
    package mutating func note(_ copy: UnconfirmedCopy?) {
        self.copy = self.copy ?? copy
        live = live || copy == nil
    }
}

/// An answer taken from the cache without the network confirming it: under `--offline`, or because the network
/// could not be reached. A run that records what GitHub says now (`--changes`) must not record it.
package struct UnconfirmedCopy: Sendable, Equatable {
    /// The request it answered (`GET /users/octocat/followers?per_page=100&page=2`).
    package let endpoint: String
    /// When GitHub last confirmed the copy (`CachedResponse.confirmedAt`).
    package let confirmedAt: Date
    /// Taken under `--offline`, not for want of the network.
    package let offline: Bool

    package init(endpoint: String, confirmedAt: Date, offline: Bool) {
        self.endpoint = endpoint
        self.confirmedAt = confirmedAt
        self.offline = offline
    }
}

/// Profile lookups, which `show` makes many of at once (the bounded-concurrency use case).
/// Implementations throw only `DomainError`.
package protocol UsersRepository: Sendable {
    /// The full profile of one account.
    func user(login: Login) async throws(DomainError) -> User
    /// The full profile of the account with this id (`GET /user/{id}`).
    func user(id: Int64) async throws(DomainError) -> User
}

extension UsersRepository {
    /// The full profile of the account `reference` names: by login, or by id.
    package func user(_ reference: UserReference) async throws(DomainError) -> User {
        switch reference {
        case .login(let login): try await user(login: login)
        case .id(let id): try await user(id: id)
        }
    }

    /// The profiles `references` name, at most `concurrency` asked at once (`GetUsersUseCase`), each handed to `deliver` in the order asked as soon as those before it are in, so that
    /// a caller holds a window of them, not all; `deliver` returns false to stop the lookups.
    package func users(
        _ references: [UserReference], concurrency: Int, deliver: (Result<User, DomainError>) -> Bool
    ) async {
        await GetUsersUseCase(repository: self).execute(references, concurrency: concurrency, deliver: deliver)
    }
}

/// Which side of the follow graph to list.
package enum UserRelation: String, Sendable, CaseIterable {
    case followers
    case following
}
