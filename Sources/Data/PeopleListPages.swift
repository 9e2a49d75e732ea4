import AtomicCore
import Domain
import Foundation
import JSONBytes

/// A repository's list that GitHub shows only its admins and collaborators since July 2026 (its stargazers and
/// watchers): what it is called, and the repository's key that counts it.
package struct WithheldList: Sendable, Equatable {
    /// What the list's items are called ("stargazers").
    package let noun: String
    /// The repository's key that counts the list (`stargazers_count`).
    package let countKey: String

    package static let stargazers = WithheldList(noun: "stargazers", countKey: "stargazers_count")
    package static let watchers = WithheldList(noun: "watchers", countKey: "subscribers_count")
}

/// A repository's list GitHub withholds from others since July 2026 (`WithheldList`), paged: its first page through
/// the check that tells a withheld list from a missing repository or an empty list
/// (`GitHubRepository.firstPage(_:perPage:withheld:of:)`), then each `Link` URL the page before named.
package struct WithheldPages<Item: Sendable>: PageSource {
    package let list: ListResource<Item>
    package let withheld: WithheldList
    package let owner: ListOwner
    package let perPage: Int
    package let github: GitHubRepository

    package func page(at cursor: PageCursor?, nextPage: NextPageListener?) async throws(DomainError) -> Page<Item> {
        guard let cursor else {
            return try await github.firstPage(list, perPage: perPage, withheld: withheld, of: owner)
        }
        return try await github.page(list, at: cursor, nextPage: nextPage)
    }
}

extension GitHubRepository {
    /// A repository's watchers, `perPage` to a page, refused as GitHub withholds them since July 2026.
    package func watchers(of owner: ListOwner, perPage: Int) -> WithheldPages<User> {
        WithheldPages(
            list: GitHubEndpoints.accounts(.watchers, under: owner), withheld: .watchers, owner: owner,
            perPage: perPage, github: self)
    }
}

extension GitHubRepository {
    /// The first page of a list GitHub withholds from others (`WithheldList`): a 403 or 404 (a 404 as every
    /// people list's, `ResourceRepository.firstPage(_:perPage:)`), or an empty first page, asks
    /// `GET /repos/{owner}/{repo}`, to tell a repository that does not exist (its 404) or a list that is empty (its
    /// count 0) from the list withheld: a refusal whose problem is `.withheld(repository:list:)`.
    package func firstPage<Item: Sendable>(
        _ resource: ListResource<Item>, perPage: Int, withheld list: WithheldList, of owner: ListOwner
    ) async throws(DomainError) -> Page<Item> {
        let page: Page<Item>
        do throws(DomainError) {
            page = try await firstPage(resource, perPage: perPage)
        } catch {
            throw await withholding(error, list, of: owner)
        }
        guard page.items.isEmpty, page.next == nil else { return page }
        try await refuseEmpty(list, of: owner, noContent: page.noContent)
        return page
    }

    /// An empty first page (or a 204's none) of a repository whose count says it has some: withheld, unless the
    /// repository's `permissions` say the token may triage it or more, as only a collaborator may (a public
    /// repository's `pull` is everyone's): then the list is GitHub's answer and its count lags (a count is cached,
    /// or a star was taken back between the two requests), which a warning says (helper-325).
    package func refuseEmpty(_ list: WithheldList, of owner: ListOwner, noContent: Bool = false)
        async throws(DomainError)
    {
        let asked = GitHubEndpoints.repository(owner)
        let repository = try await fetch(asked)
        let counted = Int(JSONText.text(of: list.countKey, in: repository.raw.bytes)) ?? 0
        guard counted > 0 else { return }
        // The literal `true` alone (not the string "true"), of an object that names each role once (helper-326).
        let permissions = JSONText.value(at: ["permissions"], in: repository.raw.bytes) ?? []
        try ResponseDecoder.refuseRepeatedKey(permissions, endpoint: "GET " + asked.path)
        let granted = ["admin", "maintain", "push", "triage"].first { role in
            JSONText.value(at: [role], in: permissions) == Array("true".utf8)
        }
        if let granted {
            logger.warning(
                "GitHub lists no \(list.noun) of \(owner), where its count says \(counted), to a token that has "
                    + "\(granted) on it: its counts can lag behind its lists")
            return
        }
        let (status, answer) = noContent ? (204, "no list") : (200, "an empty list")
        throw Self.withheld(list, of: owner, status: status, saying: "\(answer), of \(counted); ")
    }

    /// Why GitHub refused the list: the repository is missing or the list is withheld. A 404 has asked for the
    /// repository already (still `notFound` when it is missing, a refusal when it exists); a 403 asks it here.
    /// Any other failure is the list's own.
    private func withholding(_ error: DomainError, _ list: WithheldList, of owner: ListOwner) async -> DomainError {
        switch error {
        // A 404's words are GitHub's "Not Found", or gh-users's own where the repository was asked for.
        case .unauthorized(404, _, _, _): return Self.withheld(list, of: owner, status: 404)
        case .unauthorized(403, let said, _, _):
            do throws(DomainError) {
                _ = try await fetch(GitHubEndpoints.repository(owner))
            } catch {
                return error
            }
            return Self.withheld(list, of: owner, status: 403, said: said)
        default: return error
        }
    }

    /// A `FORBIDDEN` error at a GraphQL list GitHub withholds (reported beside the empty list since July 2026:
    /// anuraghazra/github-readme-stats#4921, pkgjs/statusboard#54), which its reader marks `.withheld`, is the
    /// rule REST's 403 is, with GitHub's words; any other failure (a 401, an IP allow list's) is its own.
    package func withholding(graphQL error: DomainError, _ list: WithheldList, of owner: ListOwner) -> DomainError {
        guard case .unauthorized(let status, let said, .withheld, _) = error else { return error }
        return Self.withheld(list, of: owner, status: status, said: said)
    }

    /// The July 2026 rule, in one line, as a refusal, with what GitHub `said` where it said more than its status
    /// (a token's missing permission is another cause, which the rule alone hid: a review's find). It carries no
    /// request id: the answer is GitHub's rule, not a failure to report to GitHub.
    private static func withheld(
        _ list: WithheldList, of owner: ListOwner, status: Int, saying prefix: String = "", said: String? = nil
    ) -> DomainError {
        // Cut, so that a long message leaves the line's end (the way round for stars) in the 300 columns it gets.
        let words = said.flatMap { $0.isEmpty || $0 == ErrorMapping.reasonPhrase(status) ? nil : $0 }.map {
            $0.count > 150 ? String($0.prefix(149)) + "…" : $0
        }
        return .unauthorized(
            status: status,
            message: prefix
                + "since July 2026 GitHub lists a repository's \(list.noun) only to its admins and collaborators"
                + (words.map { " (GitHub said: \($0))" } ?? ""),
            problem: .withheld(repository: owner.description, list: list.noun))
    }
}

extension GitHubRepository {
    /// The token's own account (`GET /user`), to tell a list the token sees only part of from the whole; nil for a
    /// GitHub App's installation token, which is no user (`GET /user` is its 403 "Resource not accessible by
    /// integration") and has no account to look for.
    package func tokenAccount() async throws(DomainError) -> User? {
        do throws(DomainError) {
            return try await fetch(GitHubEndpoints.authenticatedUser).user
        } catch {
            if case .unauthorized(403, let message, _, _) = error,
                message.contains("Resource not accessible by integration")
            {
                return nil
            }
            throw error
        }
    }
}
