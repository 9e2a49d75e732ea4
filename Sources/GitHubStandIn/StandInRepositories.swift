// The repository JSON below (key names, key order, URL templates) and octocat's Hello-World values are modelled on
// GitHub's documented example `repos-list-for-user.json` (`minimal-repository-items`, the 200 of
// `GET /users/{username}/repos`), taken from GitHub's OpenAPI description, github/rest-api-description
// (MIT License, Copyright (c) 2020 GitHub). Everything else is synthetic.

/// The `type` parameter of `GET /users/{username}/repos`.
package enum StandInRepositoryType: String, Sendable, CaseIterable {
    /// Repositories the account owns; GitHub's default.
    case owner
    /// Repositories of other accounts the account collaborates on.
    case member
    case all
}

/// The `sort` parameter of `GET /users/{username}/repos`.
package enum StandInRepositorySort: String, Sendable, CaseIterable {
    case fullName = "full_name"
    case created
    case updated
    case pushed

    /// GitHub sorts names A to Z but dates newest first unless told otherwise.
    package var ascendingByDefault: Bool { self == .fullName }
}

/// One public repository of the population.
///
/// Everything follows from the owner and `index`, the repository's 0-based position among the owner's own
/// repositories, so lists are reproducible and any repository can be rebuilt without storing it. The cheap fields
/// used for sorting are stored; the text only JSON needs is computed when written.
package struct StandInRepository: Sendable, Equatable, StandInRecord {
    /// Accounts own at most this many repositories, which also keeps ids unique: `2_000_000 + (ordinal - 1) * 300
    /// + index`, far from octocat's fixture ids.
    package static let maximumPerOwner = 300

    package let owner: StandInUser
    package let index: Int
    package let id: Int
    package let name: String
    /// `owner/name`, the key of GitHub's default sort.
    package let fullName: String
    /// Every fourth repository (index 3, 7, ...) is a fork.
    package let fork: Bool
    /// Cycles through Swift, Go, Rust, Python, TypeScript, null, C and Ruby.
    package let language: String?
    package let stargazersCount: Int
    package let forksCount: Int
    /// Kilobytes, as GitHub reports it.
    package let size: Int
    package let openIssuesCount: Int
    /// Unix seconds; creation times are distinct across the whole population.
    package let createdAt: Int
    /// Unix seconds, never before `createdAt`.
    package let pushedAt: Int
    /// Unix seconds, never before `pushedAt`.
    package let updatedAt: Int

    static let languages: [String?] = ["Swift", "Go", "Rust", "Python", "TypeScript", nil, "C", "Ruby"]
    private static let nameWords = [
        "api-client", "Dotfiles", "awesome-list", "cli", "Website", "docs", "infra", "sandbox", "Playground", "notes",
        "legacy-app", "rust-experiments", "go-tools", "SwiftKit", "ml.models", "my_scripts", "zeta", "Alpha",
        "homebrew-tap", "terraform-modules", "blog", "benchmarks", "ZigZag", "parser",
    ]
    private static let firstGeneratedID = 2_000_000
    /// 2009-01-01T00:00:00Z; generated creation times spread over the following 2^28 seconds (8.5 years).
    private static let firstCreatedAt = 1_230_768_000

    init(owner: StandInUser, index: Int) {
        self.owner = owner
        self.index = index
        let global = (owner.ordinal - 1) * Self.maximumPerOwner + index
        let hash = Self.mix(global)
        if let fixed = StandInOctocatRepository.byIndex(owner: owner, index: index) {
            id = fixed.id
            name = fixed.name
            fork = false
            language = fixed.language
            stargazersCount = fixed.stargazersCount
            forksCount = fixed.forksCount
            size = fixed.size
            openIssuesCount = fixed.openIssuesCount
            createdAt = fixed.createdAt
            pushedAt = fixed.pushedAt
            updatedAt = fixed.updatedAt
        } else {
            id = Self.firstGeneratedID + global
            name = "\(Self.nameWords[(index * 7 + owner.ordinal) % Self.nameWords.count])-\(index + 1)"
            fork = index % 4 == 3
            language = Self.languages[(index + owner.ordinal) % Self.languages.count]
            // Magnitudes from 0 to hundreds of thousands, so count columns and number formatting get exercised.
            let scales = [1, 10, 100, 1_000, 10_000, 100_000, 400_000]
            stargazersCount = (hash >> 3) % scales[hash % scales.count]
            forksCount = stargazersCount / (1 + (hash >> 24) % 9)
            size = (hash >> 32) % 250_000
            openIssuesCount = (hash >> 40) % 60
            // An odd multiplier permutes 0..<2^28, so no two repositories share a creation time.
            createdAt = Self.firstCreatedAt + (global &* 40_503) % (1 << 28)
            pushedAt = createdAt + 60 + (hash >> 8) % (1 << 27)
            updatedAt = pushedAt + (hash >> 16) % 2_592_000
        }
        fullName = owner.login + "/" + name
    }

    /// Sometimes null and sometimes hostile: index 1 carries ANSI colour escapes, index 2 CJK text and index 3 is
    /// over a thousand characters long, so every owner with four or more repositories shows all three.
    package var description: String? {
        if let fixed = StandInOctocatRepository.byIndex(owner: owner, index: index) {
            return fixed.description
        }
        switch index {
        case 1:
            return "Build \u{1B}[32mpassing\u{1B}[0m, coverage \u{1B}[1;31m12%\u{1B}[0m"
        case 2:
            return "高速な JSON パーサー：日本語の説明文と中文描述"
        case 3:
            return String(repeating: "An extremely long description that keeps on going. ", count: 24)
        default:
            if index % 5 == 4 {
                return nil
            }
            let parts = StandInNameParts(ordinal: owner.ordinal + index)
            return "\(parts.capitalizedAdjective) \(parts.noun) toolkit, part \(index + 1)."
        }
    }

    /// GitHub sends a URL, an empty string or null depending on how the field was last edited.
    package var homepage: String? {
        if let fixed = StandInOctocatRepository.byIndex(owner: owner, index: index) {
            return fixed.homepage
        }
        switch index % 3 {
        case 0:
            return "https://\(name.lowercased()).example.com"
        case 1:
            return nil
        default:
            return ""
        }
    }

    package var topics: [String] {
        if let fixed = StandInOctocatRepository.byIndex(owner: owner, index: index) {
            return fixed.topics
        }
        switch index % 4 {
        case 0:
            return []
        case 1:
            return [language?.lowercased() ?? "tools"]
        case 2:
            return ["cli", "terminal"]
        default:
            return ["github-api", "swift", "testing"]
        }
    }

    /// The `key` of the repository's license (`mit`, `apache-2.0`, ...), nil when GitHub would send
    /// `"license": null`.
    package var licenseKey: String? { license?.key }

    var license: StandInLicense? {
        if StandInOctocatRepository.byIndex(owner: owner, index: index) != nil {
            return nil
        }
        return StandInLicense.all[index % StandInLicense.all.count]
    }

    package var defaultBranch: String {
        if let fixed = StandInOctocatRepository.byIndex(owner: owner, index: index) {
            return fixed.defaultBranch
        }
        return index % 2 == 0 ? "main" : "master"
    }

    package var archived: Bool {
        StandInOctocatRepository.byIndex(owner: owner, index: index) == nil && index % 11 == 10
    }

    /// The `minimal-repository` object of `GET /users/{username}/repos`, keys in the fixture's order. `permissions` and `security_and_analysis` are left out because GitHub only
    /// sends them to callers with access to the repository; `license`, `forks`, `open_issues` and `watchers`
    /// follow `updated_at` as in the schema and in live responses.
    package func write(into writer: inout JSONByteWriter) {
        let fixed = StandInOctocatRepository.byIndex(owner: owner, index: index)
        let pathLogin = owner.loginPathComponent
        let apiBase = Array("https://api.github.com/repos/\(pathLogin)/\(name)".utf8)
        writer.raw("{\"id\":")
        writer.integer(id)
        writer.raw(",\"node_id\":\"")
        Base64Text.append("010:Repository\(id)", to: &writer.bytes)
        writer.raw("\",\"name\":")
        writer.string(name)
        writer.raw(",\"full_name\":")
        writer.string(fullName)
        writer.raw(",\"owner\":")
        owner.writeSimpleUser(into: &writer)
        writer.raw(",\"private\":false,\"html_url\":\"https://github.com/")
        writer.unescaped(owner.login)
        writer.raw("/")
        writer.unescaped(name)
        writer.raw("\",\"description\":")
        writer.optionalString(description)
        writer.raw(",\"fork\":")
        writer.boolean(fork)
        writer.raw(",\"url\":\"")
        writer.bytes.append(contentsOf: apiBase)
        writer.raw("\"")
        for field in Self.urlFields {
            writer.raw(field.key)
            switch field.base {
            case .api:
                writer.bytes.append(contentsOf: apiBase)
            case .git:
                // The fixture's `git:github.com/...` lost its slashes; live responses use git://.
                writer.raw("git://github.com/")
                writer.unescaped(owner.login)
                writer.raw("/")
                writer.unescaped(name)
            case .ssh:
                writer.raw("git@github.com:")
                writer.unescaped(owner.login)
                writer.raw("/")
                writer.unescaped(name)
            }
            writer.raw(field.suffix)
        }
        writer.raw(",\"clone_url\":\"https://github.com/")
        writer.unescaped(owner.login)
        writer.raw("/")
        writer.unescaped(name)
        writer.raw(".git\",\"mirror_url\":null,\"hooks_url\":\"")
        writer.bytes.append(contentsOf: apiBase)
        writer.raw("/hooks\",\"svn_url\":\"https://github.com/")
        writer.unescaped(owner.login)
        writer.raw("/")
        writer.unescaped(name)
        writer.raw("\",\"homepage\":")
        writer.optionalString(homepage)
        writer.raw(",\"language\":")
        writer.optionalString(language)
        writer.raw(",\"forks_count\":")
        writer.integer(forksCount)
        writer.raw(",\"stargazers_count\":")
        writer.integer(stargazersCount)
        writer.raw(",\"watchers_count\":")
        writer.integer(stargazersCount)
        writer.raw(",\"size\":")
        writer.integer(size)
        writer.raw(",\"default_branch\":")
        writer.string(defaultBranch)
        writer.raw(",\"open_issues_count\":")
        writer.integer(openIssuesCount)
        writer.raw(",\"is_template\":")
        writer.boolean(fixed == nil && index % 13 == 12)
        writer.raw(",\"topics\":[")
        for (position, topic) in topics.enumerated() {
            if position > 0 {
                writer.raw(",")
            }
            writer.string(topic)
        }
        writer.raw("],\"has_issues\":")
        // GitHub turns issues off on new forks.
        writer.boolean(!fork)
        writer.raw(",\"has_projects\":true,\"has_wiki\":")
        writer.boolean(fixed.map(\.hasWiki) ?? (index % 3 != 0))
        writer.raw(",\"has_pages\":")
        writer.boolean(fixed.map(\.hasPages) ?? (index % 6 == 0))
        writer.raw(",\"has_downloads\":true,\"has_discussions\":")
        writer.boolean(fixed == nil && index % 7 == 0)
        writer.raw(",\"archived\":")
        writer.boolean(archived)
        writer.raw(",\"disabled\":false,\"visibility\":\"public\",\"pushed_at\":")
        writer.string(UTCTimestamp.iso8601(pushedAt))
        writer.raw(",\"created_at\":")
        writer.string(UTCTimestamp.iso8601(createdAt))
        writer.raw(",\"updated_at\":")
        writer.string(UTCTimestamp.iso8601(updatedAt))
        writer.raw(",\"license\":")
        if let license {
            license.write(into: &writer)
        } else {
            writer.null()
        }
        writer.raw(",\"forks\":")
        writer.integer(forksCount)
        writer.raw(",\"open_issues\":")
        writer.integer(openIssuesCount)
        writer.raw(",\"watchers\":")
        writer.integer(stargazersCount)
        writer.raw("}")
    }

    private enum URLBase {
        case api
        case git
        case ssh
    }

    /// The URL fields from `archive_url` to `trees_url`, in fixture order; most are the repository's API URL plus
    /// a suffix, but the clone addresses `git_url` and `ssh_url` sit among them.
    private static let urlFields: [(key: StaticString, base: URLBase, suffix: StaticString)] = [
        (",\"archive_url\":\"", .api, "/{archive_format}{/ref}\""),
        (",\"assignees_url\":\"", .api, "/assignees{/user}\""),
        (",\"blobs_url\":\"", .api, "/git/blobs{/sha}\""),
        (",\"branches_url\":\"", .api, "/branches{/branch}\""),
        (",\"collaborators_url\":\"", .api, "/collaborators{/collaborator}\""),
        (",\"comments_url\":\"", .api, "/comments{/number}\""),
        (",\"commits_url\":\"", .api, "/commits{/sha}\""),
        (",\"compare_url\":\"", .api, "/compare/{base}...{head}\""),
        (",\"contents_url\":\"", .api, "/contents/{+path}\""),
        (",\"contributors_url\":\"", .api, "/contributors\""),
        (",\"deployments_url\":\"", .api, "/deployments\""),
        (",\"downloads_url\":\"", .api, "/downloads\""),
        (",\"events_url\":\"", .api, "/events\""),
        (",\"forks_url\":\"", .api, "/forks\""),
        (",\"git_commits_url\":\"", .api, "/git/commits{/sha}\""),
        (",\"git_refs_url\":\"", .api, "/git/refs{/sha}\""),
        (",\"git_tags_url\":\"", .api, "/git/tags{/sha}\""),
        (",\"git_url\":\"", .git, ".git\""),
        (",\"issue_comment_url\":\"", .api, "/issues/comments{/number}\""),
        (",\"issue_events_url\":\"", .api, "/issues/events{/number}\""),
        (",\"issues_url\":\"", .api, "/issues{/number}\""),
        (",\"keys_url\":\"", .api, "/keys{/key_id}\""),
        (",\"labels_url\":\"", .api, "/labels{/name}\""),
        (",\"languages_url\":\"", .api, "/languages\""),
        (",\"merges_url\":\"", .api, "/merges\""),
        (",\"milestones_url\":\"", .api, "/milestones{/number}\""),
        (",\"notifications_url\":\"", .api, "/notifications{?since,all,participating}\""),
        (",\"pulls_url\":\"", .api, "/pulls{/number}\""),
        (",\"releases_url\":\"", .api, "/releases{/id}\""),
        (",\"ssh_url\":\"", .ssh, ".git\""),
        (",\"stargazers_url\":\"", .api, "/stargazers\""),
        (",\"statuses_url\":\"", .api, "/statuses/{sha}\""),
        (",\"subscribers_url\":\"", .api, "/subscribers\""),
        (",\"subscription_url\":\"", .api, "/subscription\""),
        (",\"tags_url\":\"", .api, "/tags\""),
        (",\"teams_url\":\"", .api, "/teams\""),
        (",\"trees_url\":\"", .api, "/git/trees{/sha}\""),
    ]

    /// SplitMix64's finaliser: spreads neighbouring indexes over unrelated values, non-negative.
    static func mix(_ value: Int) -> Int {
        var state = UInt64(truncatingIfNeeded: value) &+ 0x9E37_79B9_7F4A_7C15
        state = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
        state = (state ^ (state >> 27)) &* 0x94D0_49BB_1331_11EB
        state ^= state >> 31
        return Int(truncatingIfNeeded: state >> 1)
    }
}

/// octocat's two repositories, as on GitHub; Hello-World's values come from the fixture.
struct StandInOctocatRepository {
    var id: Int
    var name: String
    var description: String
    var homepage: String
    var language: String?
    var stargazersCount: Int
    var forksCount: Int
    var size: Int
    var openIssuesCount: Int
    var defaultBranch: String
    var topics: [String]
    var hasWiki: Bool
    var hasPages: Bool
    var createdAt: Int
    var pushedAt: Int
    var updatedAt: Int

    private static let repositories = [
        StandInOctocatRepository(
            id: 1_296_269, name: "Hello-World", description: "This your first repo!", homepage: "https://github.com",
            language: nil, stargazersCount: 80, forksCount: 9, size: 108, openIssuesCount: 0, defaultBranch: "master",
            topics: ["octocat", "atom", "electron", "api"], hasWiki: true, hasPages: false,
            // 2011-01-26T19:01:12Z, 19:06:43Z and 19:14:43Z.
            createdAt: 1_296_068_472, pushedAt: 1_296_068_803, updatedAt: 1_296_069_283),
        StandInOctocatRepository(
            id: 1_300_192, name: "Spoon-Knife", description: "This repo is for demonstration purposes only.",
            homepage: "", language: "HTML", stargazersCount: 12_900, forksCount: 145_000, size: 2,
            openIssuesCount: 5_000, defaultBranch: "main", topics: [], hasWiki: false, hasPages: true,
            // 2011-01-27T19:30:43Z, 2024-08-21T16:42:46Z and 2024-09-03T09:21:22Z.
            createdAt: 1_296_156_643, pushedAt: 1_724_258_566, updatedAt: 1_725_355_282),
    ]

    static func byIndex(owner: StandInUser, index: Int) -> StandInOctocatRepository? {
        guard owner.ordinal == 1, index < repositories.count else {
            return nil
        }
        return repositories[index]
    }
}

/// The license objects GitHub embeds in repositories; `nil` entries stand for `"license": null`.
struct StandInLicense {
    var key: String
    var name: String
    var spdxID: String
    /// GitHub's own license ids, which its node ids encode.
    var number: Int

    static let all: [StandInLicense?] = [
        StandInLicense(key: "mit", name: "MIT License", spdxID: "MIT", number: 13),
        StandInLicense(key: "apache-2.0", name: "Apache License 2.0", spdxID: "Apache-2.0", number: 2),
        nil,
        StandInLicense(key: "gpl-3.0", name: "GNU General Public License v3.0", spdxID: "GPL-3.0", number: 9),
        // GitHub's placeholder for a license file it cannot identify: no SPDX id and no URL.
        StandInLicense(key: "other", name: "Other", spdxID: "NOASSERTION", number: 0),
    ]

    func write(into writer: inout JSONByteWriter) {
        writer.raw("{\"key\":")
        writer.string(key)
        writer.raw(",\"name\":")
        writer.string(name)
        writer.raw(",\"spdx_id\":")
        writer.string(spdxID)
        writer.raw(",\"url\":")
        if key == "other" {
            writer.null()
        } else {
            writer.raw("\"https://api.github.com/licenses/")
            writer.unescaped(key)
            writer.raw("\"")
        }
        writer.raw(",\"node_id\":\"")
        Base64Text.append("07:License\(number)", to: &writer.bytes)
        writer.raw("\"}")
    }
}

/// Repository lists. An account owns `min(public_repos, 300)` repositories, so the profile count and the list
/// agree; User accounts whose ordinal is not a multiple of 5 also collaborate on up to three repositories of
/// other accounts, which `type=member` and `type=all` show.
extension StandInPopulation {
    /// The account's repositories in GitHub's default order (`full_name` ascending, ignoring case); empty for
    /// unknown ids.
    package func repositories(ofUserID id: Int, type: StandInRepositoryType = .owner) -> [StandInRepository] {
        guard let user = user(id: id) else {
            return []
        }
        return repositories(of: user, type: type, sort: .fullName, ascending: true)
    }

    /// Sorted as `GET /users/{username}/repos` would: by the key, ties (dates only) broken by ascending id.
    package func repositories(
        of user: StandInUser, type: StandInRepositoryType, sort: StandInRepositorySort, ascending: Bool
    ) -> [StandInRepository] {
        var list: [StandInRepository] = []
        if type != .member {
            list = ownedRepositories(of: user)
        }
        if type != .owner {
            list += memberRepositories(of: user)
        }
        switch sort {
        case .fullName:
            // Sorting lowercased keys once beats lowercasing inside the comparator for 300 entries.
            let keyed = list.map { (key: $0.fullName.lowercased(), repository: $0) }
            let sorted = keyed.sorted { ascending ? $0.key < $1.key : $0.key > $1.key }
            return sorted.map(\.repository)
        case .created:
            return Self.sortedByDate(list, ascending: ascending, date: \.createdAt)
        case .updated:
            return Self.sortedByDate(list, ascending: ascending, date: \.updatedAt)
        case .pushed:
            return Self.sortedByDate(list, ascending: ascending, date: \.pushedAt)
        }
    }

    package func ownedRepositoryCount(of user: StandInUser) -> Int {
        min(StandInProfileNumbers(ordinal: user.ordinal).publicRepos, StandInRepository.maximumPerOwner)
    }

    /// In creation order (index order), before any sort.
    func ownedRepositories(of user: StandInUser) -> [StandInRepository] {
        (0..<ownedRepositoryCount(of: user)).map { StandInRepository(owner: user, index: $0) }
    }

    /// Up to three repositories of accounts 101, 202, ... positions further on (wrapping), skipping the account
    /// itself, repeats and owners without repositories.
    func memberRepositories(of user: StandInUser) -> [StandInRepository] {
        guard user.type == "User", user.ordinal % 5 != 0, users.count > 1 else {
            return []
        }
        var result: [StandInRepository] = []
        var owners: Set<Int> = [user.ordinal]
        for step in 1...12 where result.count < 3 {
            let ownerOrdinal = (user.ordinal - 1 + step * 101) % users.count + 1
            guard owners.insert(ownerOrdinal).inserted else {
                continue
            }
            let owner = users[ownerOrdinal - 1]
            let count = ownedRepositoryCount(of: owner)
            guard count > 0 else {
                continue
            }
            result.append(StandInRepository(owner: owner, index: (user.ordinal * 7 + step) % count))
        }
        return result
    }

    private static func sortedByDate(
        _ list: [StandInRepository], ascending: Bool, date: KeyPath<StandInRepository, Int>
    ) -> [StandInRepository] {
        list.sorted { first, second in
            let a = first[keyPath: date]
            let b = second[keyPath: date]
            if a != b {
                return ascending ? a < b : a > b
            }
            return first.id < second.id
        }
    }
}
