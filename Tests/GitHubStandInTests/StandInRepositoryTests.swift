import Foundation
import GitHubStandIn
import Testing

/// Key order of GitHub's `minimal-repository-items` example (github/rest-api-description, MIT License,
/// Copyright (c) 2020 GitHub) without the access-dependent `permissions` and `security_and_analysis`, followed by
/// the schema's `license`, `forks`, `open_issues` and `watchers`.
private let repositoryKeys = [
    "id", "node_id", "name", "full_name", "owner", "private", "html_url", "description", "fork", "url",
    "archive_url", "assignees_url", "blobs_url", "branches_url", "collaborators_url", "comments_url", "commits_url",
    "compare_url", "contents_url", "contributors_url", "deployments_url", "downloads_url", "events_url", "forks_url",
    "git_commits_url", "git_refs_url", "git_tags_url", "git_url", "issue_comment_url", "issue_events_url",
    "issues_url", "keys_url", "labels_url", "languages_url", "merges_url", "milestones_url", "notifications_url",
    "pulls_url", "releases_url", "ssh_url", "stargazers_url", "statuses_url", "subscribers_url", "subscription_url",
    "tags_url", "teams_url", "trees_url", "clone_url", "mirror_url", "hooks_url", "svn_url", "homepage", "language",
    "forks_count", "stargazers_count", "watchers_count", "size", "default_branch", "open_issues_count",
    "is_template", "topics", "has_issues", "has_projects", "has_wiki", "has_pages", "has_downloads",
    "has_discussions", "archived", "disabled", "visibility", "pushed_at", "created_at", "updated_at", "license",
    "forks", "open_issues", "watchers",
]

/// Values of the fixture's Hello-World that octocat's first repository must reproduce (the fixture's
/// `git_url`, `svn_url` and `mirror_url` are sample values that live GitHub does not send, so they are left out).
private let helloWorldFixture = """
    {
      "id": 1296269, "node_id": "MDEwOlJlcG9zaXRvcnkxMjk2MjY5", "name": "Hello-World",
      "full_name": "octocat/Hello-World", "private": false, "html_url": "https://github.com/octocat/Hello-World",
      "description": "This your first repo!", "fork": false, "url": "https://api.github.com/repos/octocat/Hello-World",
      "archive_url": "https://api.github.com/repos/octocat/Hello-World/{archive_format}{/ref}",
      "compare_url": "https://api.github.com/repos/octocat/Hello-World/compare/{base}...{head}",
      "contents_url": "https://api.github.com/repos/octocat/Hello-World/contents/{+path}",
      "notifications_url": "https://api.github.com/repos/octocat/Hello-World/notifications{?since,all,participating}",
      "ssh_url": "git@github.com:octocat/Hello-World.git", "clone_url": "https://github.com/octocat/Hello-World.git",
      "trees_url": "https://api.github.com/repos/octocat/Hello-World/git/trees{/sha}",
      "hooks_url": "https://api.github.com/repos/octocat/Hello-World/hooks",
      "homepage": "https://github.com", "language": null, "forks_count": 9, "stargazers_count": 80,
      "watchers_count": 80, "size": 108, "default_branch": "master", "open_issues_count": 0, "is_template": false,
      "topics": ["octocat", "atom", "electron", "api"], "has_issues": true, "has_projects": true, "has_wiki": true,
      "has_pages": false, "has_downloads": true, "has_discussions": false, "archived": false, "disabled": false,
      "visibility": "public", "pushed_at": "2011-01-26T19:06:43Z", "created_at": "2011-01-26T19:01:12Z",
      "updated_at": "2011-01-26T19:14:43Z"
    }
    """

/// Positions of `"key":` occurrences must increase; nested objects (owner, license) come after their key so the
/// scan stays on top-level keys as long as the list is in order.
private func keysAppearInOrder(_ keys: [String], in json: String) -> Bool {
    var searchStart = json.startIndex
    for key in keys {
        guard let range = json.range(of: "\"\(key)\":", range: searchStart..<json.endIndex) else {
            return false
        }
        searchStart = range.upperBound
    }
    return true
}

private func parse(_ json: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
}

@Suite struct StandInRepositoryTests {
    @Test func octocatOwnsExactlyHelloWorldAndSpoonKnifeAsInTheFixture() throws {
        let population = StandInPopulation(userCount: 1_000)
        let repositories = population.repositories(ofUserID: 1)
        #expect(repositories.map(\.name) == ["Hello-World", "Spoon-Knife"])
        #expect(repositories.map(\.fullName) == ["octocat/Hello-World", "octocat/Spoon-Knife"])
        let helloWorld = try parse(try #require(repositories.first).json())
        for (key, expected) in try parse(helloWorldFixture) {
            let produced = try #require(helloWorld[key], "\(key) missing")
            #expect(NSDictionary(dictionary: [key: produced]) == NSDictionary(dictionary: [key: expected]), "\(key)")
        }
        #expect(helloWorld["license"] is NSNull)
        let owner = try #require(helloWorld["owner"] as? [String: Any])
        #expect(owner["login"] as? String == "octocat" && owner["id"] as? Int == 1)
        #expect(try parse(population.users[0].simpleUserJSON()) as NSDictionary == owner as NSDictionary)
    }

    @Test func otterLabsHasMoreThanTwoHundredFiftyRepositoriesMatchingItsProfile() throws {
        let population = StandInPopulation(userCount: 1_000)
        let otter = try #require(population.user(login: "otter-labs-7"))
        #expect(otter.login == "Otter-Labs-7" && otter.id == 9 && otter.type == "Organization")
        #expect(otter.profile.publicRepos == 280)
        let repositories = population.repositories(ofUserID: 9)
        #expect(repositories.count == 280)
        #expect(Set(repositories.map(\.id)).count == 280)
        #expect(Set(repositories.map(\.name)).count == 280)
        #expect(repositories.allSatisfy { $0.owner == otter && $0.fullName == "Otter-Labs-7/\($0.name)" })
        // Nobody else crosses 250, so the one multi-page-of-100 owner is unambiguous.
        #expect(population.users.filter { $0.profile.publicRepos > 250 }.map(\.login) == ["Otter-Labs-7"])
    }

    @Test func everyAccountOwnsItsProfileCountWithPopulationWideUniqueIds() {
        let population = StandInPopulation(userCount: 300)
        var ids = Set<Int>()
        var created = Set<Int>()
        var total = 0
        for user in population.users {
            let owned = population.repositories(ofUserID: user.id)
            #expect(owned.count == min(user.profile.publicRepos, 300), "\(user.login)")
            for repository in owned {
                ids.insert(repository.id)
                created.insert(repository.createdAt)
                #expect(repository.pushedAt >= repository.createdAt && repository.updatedAt >= repository.pushedAt)
            }
            total += owned.count
        }
        #expect(total > 30_000)
        #expect(ids.count == total)
        #expect(created.count == total)
    }

    @Test func forksLanguagesAndDescriptionsVary() throws {
        let population = StandInPopulation(userCount: 100)
        let repositories = population.repositories(ofUserID: 9)
        for repository in repositories {
            #expect(repository.fork == (repository.index % 4 == 3))
        }
        #expect(repositories.filter(\.fork).count == 70)
        let languages = Set(repositories.map { $0.language ?? "null" })
        #expect(languages == ["Swift", "Go", "Rust", "Python", "TypeScript", "null", "C", "Ruby"])
        let stars = repositories.map(\.stargazersCount)
        #expect(stars.contains(0) && (stars.max() ?? 0) > 100_000)
        #expect(Set(repositories.map(\.forksCount)).count > 100)
        let descriptions = repositories.map(\.description)
        #expect(descriptions.contains { $0 == nil })
        #expect(descriptions.contains { $0?.contains("\u{1B}[32m") == true })
        #expect(descriptions.contains { $0?.contains("日本語") == true })
        #expect(descriptions.contains { ($0?.count ?? 0) > 1_000 })
        #expect(repositories.contains { $0.licenseKey == nil } && repositories.contains { $0.licenseKey == "mit" })
        // Mixed-case names make a byte-wise sort differ from GitHub's case-insensitive one.
        let names = repositories.map(\.fullName)
        #expect(names == names.sorted { $0.lowercased() < $1.lowercased() })
        #expect(names != names.sorted())
    }

    @Test func repositoryJSONKeepsTheFixtureKeysAndEscapesHostileText() throws {
        let population = StandInPopulation(userCount: 100)
        for repository in population.repositories(ofUserID: 9) + population.repositories(ofUserID: 1) {
            let json = repository.json()
            #expect(keysAppearInOrder(repositoryKeys, in: json), "\(repository.fullName)")
            #expect(!Array(json.utf8).contains { $0 < 0x20 }, "raw control byte in \(repository.fullName)")
            let parsed = try parse(json)
            #expect(Set(parsed.keys) == Set(repositoryKeys))
            #expect(parsed["id"] as? Int == repository.id)
            #expect(parsed["node_id"] as? String == Data("010:Repository\(repository.id)".utf8).base64EncodedString())
            #expect(parsed["fork"] as? Bool == repository.fork)
            #expect(parsed["description"] as? String == repository.description)
            #expect(parsed["stargazers_count"] as? Int == repository.stargazersCount)
            #expect(parsed["watchers"] as? Int == repository.stargazersCount)
            #expect(parsed["forks"] as? Int == repository.forksCount)
            let formatter = ISO8601DateFormatter()
            for (key, epoch) in [
                ("created_at", repository.createdAt), ("pushed_at", repository.pushedAt),
                ("updated_at", repository.updatedAt),
            ] {
                let stamp = try #require(parsed[key] as? String)
                #expect(stamp.count == 20 && stamp.hasSuffix("Z"))
                #expect(formatter.date(from: stamp).map { Int($0.timeIntervalSince1970) } == epoch)
            }
            if let license = parsed["license"] as? [String: Any] {
                #expect(Set(license.keys) == ["key", "name", "spdx_id", "url", "node_id"])
                #expect(license["key"] as? String == repository.licenseKey)
            } else {
                #expect(parsed["license"] is NSNull && repository.licenseKey == nil)
            }
        }
    }

    @Test func memberAndAllTypesAddOtherOwnersRepositories() throws {
        let population = StandInPopulation(userCount: 1_000)
        let octocat = population.users[0]
        let member = population.repositories(ofUserID: octocat.id, type: .member)
        #expect(member.count == 3)
        #expect(member.allSatisfy { $0.owner != octocat && !$0.fullName.hasPrefix("octocat/") })
        // Each member repository really is one of its owner's own repositories.
        for repository in member {
            #expect(population.repositories(ofUserID: repository.owner.id).contains(repository))
        }
        let all = population.repositories(ofUserID: octocat.id, type: .all)
        #expect(Set(all.map(\.id)) == Set((population.repositories(ofUserID: 1) + member).map(\.id)))
        #expect(all.map(\.fullName) == all.map(\.fullName).sorted { $0.lowercased() < $1.lowercased() })
        // Organizations are nobody's collaborators.
        #expect(population.repositories(ofUserID: 9, type: .member).isEmpty)
        #expect(population.repositories(ofUserID: 9, type: .all).count == 280)
    }

    @Test func pagingOtterLabsVisitsEveryRepositoryOnceUnderTheNumericIdPath() throws {
        try withStandInServer(StandInConfiguration(userCount: 1_000)) { server throws in
            let walk = try walkPages(
                server, from: "/users/Otter-Labs-7/repos?per_page=100",
                linkPrefix: "\(server.baseURL)/user/9/repos?per_page=100&page=")
            #expect(walk.responses.count == 3)
            #expect(walk.responses.map { (try? $0.jsonArray().count) ?? -1 } == [100, 100, 80])
            let ids = walk.items.compactMap { $0["id"] as? Int }
            #expect(ids == server.population.repositories(ofUserID: 9).map(\.id))
            #expect(Set(ids).count == 280)
            let fullNames = walk.items.compactMap { $0["full_name"] as? String }
            #expect(fullNames == fullNames.sorted { $0.lowercased() < $1.lowercased() })
            #expect(Set(walk.items.compactMap { $0["language"] as? String }).count == 7)
            #expect(walk.items.contains { $0["language"] is NSNull })
            #expect(walk.items.filter { $0["fork"] as? Bool == true }.count == 70)
        }
    }

    @Test func typeSortAndDirectionFollowGitHub() throws {
        try withStandInServer(StandInConfiguration(userCount: 1_000)) { server throws in
            func names(_ target: String) throws -> [String] {
                let response = try fetch(server, target, headers: tokenHeader)
                #expect(response.status == 200, "\(target)")
                return try response.jsonArray().compactMap { $0["full_name"] as? String }
            }
            func items(_ target: String) throws -> [[String: Any]] {
                try fetch(server, target, headers: tokenHeader).jsonArray()
            }
            let population = server.population
            let owner = try names("/users/octocat/repos?per_page=100")
            #expect(try names("/users/octocat/repos?type=owner&per_page=100") == owner)
            #expect(try names("/users/octocat/repos?type=bogus&per_page=100") == owner)
            let member = try names("/users/octocat/repos?type=member&per_page=100")
            #expect(member.count == 3 && member.allSatisfy { !$0.hasPrefix("octocat/") })
            let all = try names("/users/octocat/repos?type=all&per_page=100")
            #expect(all == (owner + member).sorted { $0.lowercased() < $1.lowercased() })
            #expect(try names("/users/octocat/repos?type=all&direction=desc&per_page=100") == all.reversed())

            for (sort, key) in [("created", "created_at"), ("updated", "updated_at"), ("pushed", "pushed_at")] {
                let newestFirst = try items("/users/Otter-Labs-7/repos?sort=\(sort)&per_page=100")
                let stamps = newestFirst.compactMap { $0[key] as? String }
                #expect(stamps.count == 100)
                // ISO-8601 Z stamps order the same as the instants they denote.
                #expect(stamps == stamps.sorted(by: >), "default direction for \(sort) is desc")
                let oldestFirst = try items("/users/Otter-Labs-7/repos?sort=\(sort)&direction=asc&per_page=100")
                let ascending = oldestFirst.compactMap { $0[key] as? String }
                #expect(ascending == ascending.sorted(), "\(sort) asc")
                let everything = population.repositories(ofUserID: 9).map { repository in
                    sort == "created"
                        ? repository.createdAt : sort == "updated" ? repository.updatedAt : repository.pushedAt
                }
                #expect(ascending.first == everything.min().map { isoStamp($0) })
                #expect(stamps.first == everything.max().map { isoStamp($0) })
            }
            let byName = try names("/users/Otter-Labs-7/repos?sort=full_name&direction=desc&per_page=100")
            let allNames = population.repositories(ofUserID: 9).map(\.fullName)
            #expect(byName == Array(allNames.reversed().prefix(100)))
            let response = try fetch(
                server, "/users/Otter-Labs-7/repos?type=all&sort=updated&direction=asc&per_page=50",
                headers: tokenHeader)
            let links = linkRelations(response.header("Link"))
            let prefix = "\(server.baseURL)/user/9/repos?type=all&sort=updated&direction=asc&per_page=50&page="
            #expect(links == ["next": prefix + "2", "last": prefix + "6"])
        }
    }
}

private func isoStamp(_ epoch: Int) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(epoch)))
}
