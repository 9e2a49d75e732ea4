import Foundation

/// A GitHub repository as the user listings give it.
package struct Repo: Sendable, Equatable {
    package var id: Int64
    package var name: String
    package var fullName: String
    package var description: String?
    package var language: String?
    /// Nil where GitHub sent none (or null): never taken as false or 0, so no format says what GitHub did not.
    package var fork: Bool?
    package var stargazers: Int?
    package var forks: Int?
    package var htmlURL: String?
    package var raw: RawJSON

    package init(
        id: Int64,
        name: String,
        fullName: String,
        description: String? = nil,
        language: String? = nil,
        fork: Bool? = false,
        stargazers: Int? = 0,
        forks: Int? = 0,
        htmlURL: String? = nil,
        raw: RawJSON
    ) {
        self.id = id
        self.name = name
        self.fullName = fullName
        self.description = description
        self.language = language
        self.fork = fork
        self.stargazers = stargazers
        self.forks = forks
        self.htmlURL = htmlURL
        self.raw = raw
    }
}

/// What `GET /users/{username}/repos` is asked for. nil leaves GitHub's default.
package struct RepoQuery: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        case owner
        case member
        case all
    }

    package enum Sort: String, Sendable, CaseIterable {
        case created
        case updated
        case pushed
        case fullName = "full_name"
    }

    /// Forks or not: GitHub has no such parameter, so this filters on each repository's `fork`; one whose `fork`
    /// GitHub did not say is in neither.
    package enum ForkFilter: Sendable, Equatable {
        case any
        case sourcesOnly
        case forksOnly

        package func admits(_ repo: Repo) -> Bool {
            switch self {
            case .any: return true
            case .sourcesOnly: return repo.fork == false
            case .forksOnly: return repo.fork == true
            }
        }
    }

    package var kind: Kind?
    package var sort: Sort?
    package var direction: SortDirection?
    package var forks: ForkFilter

    package init(kind: Kind? = nil, sort: Sort? = nil, direction: SortDirection? = nil, forks: ForkFilter = .any) {
        self.kind = kind
        self.sort = sort
        self.direction = direction
        self.forks = forks
    }
}

package enum SortDirection: String, Sendable, CaseIterable {
    case asc
    case desc
}
