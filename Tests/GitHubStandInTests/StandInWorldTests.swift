import Foundation
import TestSupport
import Testing

@testable import GitHubStandIn

/// Without `user_view_type`: GitHub's real answers carry it since 2024, its documented examples do not.
private func keys(_ record: String) -> [String] {
    JSONTokens.keys(record).filter { $0 != "user_view_type" }
}

/// The keys of the first record of the documented body `name`.
private func documentedKeys(_ name: String) throws -> [String] {
    keys(try #require(JSONTokens.members(documented(name)).first))
}

/// GitHub's rules as generic code over the world (`World/world.json`), issue 40.
@Suite struct StandInWorldTests {
    let world = StandInWorld.file

    /// A person's permission is the highest of their grants (ownership, the base permission, a team's, a child
    /// team's parent's, a direct one; `StandInGraphQLTests` lists each source). The world is consistent: no member is
    /// an outside collaborator; octocat owns repositories and is a public member, so the demo shows every command.
    @Test func aPermissionIsTheHighestOfEveryGrantInAConsistentWorld() throws {
        let docs = try #require(world.repository("github", "docs"))
        // linguists is justice-league's child: its members have the parent's push on github/docs, granted by the
        // parent; where both grant (triage beside the child's maintain), each is a source.
        let inherited = StandInWorld.Grant(source: "team justice-league", level: 2)
        #expect(world.grants(of: "kitsune-fox", on: docs).last == inherited)
        var both = world
        both.organizations[0].teams[0].repositories["github/linguist"] = "triage"
        let sources = try both.grants(of: "kitsune-fox", on: #require(both.repository("github", "linguist")))
        #expect(sources.suffix(2).map(\.source) == ["team linguists", inherited.source])
        #expect(world.permission(of: "Yamada-Taro", on: docs) == 4)
        #expect(world.permission(of: "eager-falcon-20", on: docs) == nil)
        let hello = try #require(world.repository("octocat", "Hello-World"))
        #expect(world.permission(of: "kitsune-fox", on: hello) == nil)
        #expect(hello.collaborators.values.allSatisfy { $0 == "push" }, "an account's repository grants push alone")
        for organization in world.organizations {
            #expect(world.outsideCollaborators(of: organization).allSatisfy { organization.member($0) == nil })
        }
        let github = try #require(world.organization("github"))
        #expect(world.outsideCollaborators(of: github) == ["livelyfalcon26", "RapidFalcon31"])
        #expect(world.repositories.contains { $0.owner == "octocat" })
        #expect(world.organizations.contains { $0.members.contains { $0.login == "octocat" && $0.isPublic } })
    }

    static let everyone = [
        "CalmFalcon19", "Happy-Otter-5", "jollyotter6", "kitsune-fox", "lively-otter-8", "octocat", "Yamada-Taro",
    ]
    static let shown = ["CalmFalcon19", "jollyotter6", "octocat", "Yamada-Taro"]
    static let team = "/orgs/github/teams/justice-league/members"
    static let collaborators = "/repos/github/docs/collaborators"

    /// What is not there: an organization's paths, a repository's, a team and an account.
    static let missing =
        ["", "/members", "/outside_collaborators", "/invitations"].map { "/orgs/no-such-org" + $0 }
        + ["", "/forks", "/contributors", "/collaborators", "/assignees", "/stargazers/history", "/stargazers/count"]
        .map { "/repos/octocat/nothing" + $0 } + ["/orgs/github/teams/no-such-team/members", "/users/no-such-account"]

    /// GitHub's read rules over the world (see `StandInRouteRequest.worldList`), and two of rows served from a body.
    static let reads: [Step] =
        missing.map { Step($0, as: "octocat", 404) } + [
            Step("/orgs/no-such-org/public_members", as: nil, 404), Step(members, as: "kitsune-fox", everyone),
            Step("/orgs/github/public_members", as: "octocat", shown),
            Step(members + "?role=admin", as: "octocat", ["lively-otter-8", "octocat"]),
            Step(
                members + "?role=member", as: "octocat", everyone.filter { $0 != "octocat" && $0 != "lively-otter-8" }),
            Step(members + "?filter=2fa_disabled", as: "octocat", ["Happy-Otter-5"]),
            Step(members + "?filter=2fa_insecure", as: "octocat", ["jollyotter6"]),
            // To anyone else GitHub's 422 "Only owners can use this filter."; to a non-member, with a token or
            // without, the public members with 200 (the 302 of its 2012 docs went in 2014, developer.github.com#574).
            Step(members + "?filter=2fa_disabled", as: "Yamada-Taro", 422),
            Step(members + "?filter=2fa_disabled", as: nil, 422), Step(members, as: "eager-falcon-20", shown),
            Step(members, as: nil, shown), Step(team, as: "eager-falcon-20", 404),
            Step("/orgs/github/invitations", as: "Yamada-Taro", 403),
            Step("/orgs/github/outside_collaborators", as: "Yamada-Taro", 403),
            Step("/orgs/github/outside_collaborators?filter=2fa_disabled", as: "octocat", []),  // both have 2FA on
            Step(team, as: "Yamada-Taro", ["octocat", "Yamada-Taro", "kitsune-fox", "Happy-Otter-5"]),
            Step(team + "?role=maintainer", as: "Yamada-Taro", ["octocat", "kitsune-fox"]),
            Step(collaborators, as: "kitsune-fox", 200), Step(collaborators, as: "CalmFalcon19", 403),
            Step(collaborators + "?affiliation=outside", as: "octocat", ["livelyfalcon26"]),
            Step(collaborators + "?affiliation=direct", as: "octocat", ["Yamada-Taro", "livelyfalcon26"]),
            Step(collaborators + "?permission=admin", as: "octocat", ["octocat", "Yamada-Taro", "lively-otter-8"]),
            Step(
                "GET", "/repos/github/docs", as: "CalmFalcon19", 200,
                ["name": "docs", "permissions.pull": "1", "permissions.push": "0", "source": "absent"]),
            Step(
                "/orgs/github/invitations", as: "octocat", 200,
                text: JSONTokens.compact(documented("orgs-list-pending-invitations"))),
            Step("/repos/octocat/Hello-World/contributors", as: nil, ["octocat", "Yamada-Taro"]),
            Step("/repos/octocat/Hello-World/assignees", as: "octocat", ["HappyFalcon23", "octocat", "Yamada-Taro"]),
            Step("/repos/octocat/Hello-World/subscribers", as: "octocat", ["octocat", "kitsune-fox", "Yamada-Taro"]),
        ]
        // Stargazers and watchers only to the owner and collaborators (octocat and Yamada-Taro for Hello-World):
        // anyone else gets 404, as for a repository that does not exist.
        + ["stargazers", "subscribers"].flatMap { list in
            let path = "/repos/octocat/Hello-World/" + list
            return [
                Step(path, as: nil, 404), Step(path, as: "kitsune-fox", 404), Step(path, as: "octocat", 200),
                Step(path, as: "Yamada-Taro", 200), Step("/repos/octocat/nothing/" + list, as: "octocat", 404),
            ]
        }
        // Issue 26: since July 2026 GitHub answers another account's watched repositories 204, to everyone (its REST
        // page for watching, "New access restrictions"; python-github-backup #521 and #522).
        + [nil, "octocat"].flatMap { login in
            ["/users/octocat/subscriptions?per_page=100", "/users/no-such-user/subscriptions"].map {
                Step($0, as: login, 204)
            }
        }
        // A capped row answers an empty page inside its cap; pages past it are `StandInRouteTableTests.refusals`.
        + [Step("/users/octocat/events/public?per_page=7&page=43", as: "octocat", 200, text: "[]")]

    @Test(arguments: reads) func aReadIsAnsweredByGitHubsRules(_ read: Step) throws {
        try read.run(on: standIn())
    }

    /// Out of the organization is out of its teams and its repositories (GitHub's "Remove an organization member").
    @Test func aMemberRemovedLeavesTheOrganizationsTeamsAndRepositories() throws {
        let server = try standIn()
        #expect(try fetch(server, "/orgs/github/members/Yamada-Taro", method: "DELETE", as: "octocat").status == 204)
        #expect(try logins(fetch(server, Self.team, as: "octocat")) == ["octocat", "kitsune-fox", "Happy-Otter-5"])
        #expect(try !logins(fetch(server, Self.collaborators, as: "octocat")).contains("Yamada-Taro"))
    }

    /// An organization's repositories are listed by name; `anon` adds the authors with no account to the documented
    /// contributor records; forks are the world's. Each collaborator record is GitHub's, with the highest permission.
    @Test func theWorldsListsAreGitHubsRecords() throws {
        let server = try standIn()
        let all = try fetch(server, Self.collaborators + "?per_page=100", as: "octocat")
        #expect(try logins(all).count == 8)
        for record in all.records() { #expect(try keys(record) == documentedKeys("repos-list-collaborators")) }
        // A team's members are GitHub's `team-member-items`: their role, and whether a child team makes them one.
        let team = try fetch(server, Self.team, as: "octocat")
        for record in team.records() { #expect(try keys(record) == documentedKeys("teams-list-members-in-org")) }
        let roles = try team.jsonArray().map { "\($0["login"] ?? "") \($0["role"] ?? "") \($0["inherited"] ?? "")" }
        #expect(
            roles == [
                "octocat maintainer 0", "Yamada-Taro member 0", "kitsune-fox maintainer 1", "Happy-Otter-5 member 1",
            ])
        let write = #"{"admin":false,"maintain":false,"push":true,"triage":true,"pull":true},"role_name":"write""#
        #expect(all.records().contains { $0.contains(#""livelyfalcon26""#) && $0.contains(#""permissions":"# + write) })
        let named = try fetch(server, "/repos/octocat/Hello-World/contributors", as: nil)
        #expect(try keys(named.records()[0]) == documentedKeys("repos-list-contributors"))
        let anonymous = try fetch(server, "/repos/octocat/Hello-World/contributors?anon=1", as: nil).jsonArray()
        #expect(anonymous.count == 3 && anonymous.last?["type"] as? String == "Anonymous")
        // Forks: `forks_count` of them, GitHub's record under each owner, made when forked, newest first (as GitHub).
        let forks = try fetch(server, "/repos/octocat/Hello-World/forks", as: nil).jsonArray()
        let hello = try fetch(server, "/repos/octocat/Hello-World", as: nil).jsonObject()
        #expect(
            forks.compactMap { $0["full_name"] as? String } == ["Happy-Otter-5/Hello-World", "kitsune-fox/Hello-World"])
        #expect(forks.compactMap { $0["created_at"] as? String } == ["2015-08-19T09:31:27Z", "2012-03-06T23:06:50Z"])
        #expect(forks.allSatisfy { $0["stargazers_count"] as? Int == 0 && $0["network_count"] == nil }, "their own")
        #expect(forks.count == hello["forks_count"] as? Int && forks.count == hello["forks"] as? Int)
        #expect(hello["watchers"] as? Int == 12 && hello["organization"] == nil && hello["permissions"] == nil)
    }

    /// For every repository of the world, its stargazers list, its `stargazers_count`, its star count and the sum
    /// of its star history agree, also after a star and an unstar; each week is GitHub's documented record.
    @Test func everyRepositorysStarsAgreeAcrossItsListCountAndHistory() throws {
        let server = try standIn()
        func check(_ repository: StandInWorld.Repository) throws -> Int {
            let world = server.world.current
            let admins = world.people(of: repository).filter { $0.grants.level == 4 }.map(\.login)
            let admin = try #require(admins.first, "\(repository.fullName) has an admin")
            let path = "/repos/" + repository.fullName
            let listed = try (1...10).reduce(0) { listed, page in
                try listed + fetch(server, path + "/stargazers?per_page=100&page=\(page)", as: admin).jsonArray().count
            }
            let count = try fetch(server, path, as: nil).jsonObject()["stargazers_count"] as? Int
            let now = try fetch(server, path + "/stargazers/count", as: nil).jsonObject()["count"] as? Int
            let history = try fetch(server, path + "/stargazers/history?per_page=100", as: nil)
            for week in history.records() {
                #expect(try keys(week) == documentedKeys("activity-get-stargazer-history-for-repo"))
            }
            let total = try history.jsonArray().compactMap { $0["total"] as? Int }.reduce(0, +)
            #expect([count, now, total] == [listed, listed, listed], "\(repository.fullName)")
            return listed
        }
        let repositories = server.world.current.repositories
        var stars = try Dictionary(uniqueKeysWithValues: repositories.map { ($0.fullName, try check($0)) })
        // A star and an unstar of Hello-World; the population's stars of Spoon-Knife change too: one taken back,
        // then given again, now (the newest).
        for (method, name, login, change) in [
            ("PUT", "Hello-World", "Tidy-Falcon-33", 1), ("DELETE", "Hello-World", "kitsune-fox", -1),
            ("DELETE", "Spoon-Knife", "kitsune-fox", -1), ("PUT", "Spoon-Knife", "kitsune-fox", 1),
        ] {
            #expect(try fetch(server, "/user/starred/octocat/" + name, method: method, as: login).status == 204)
            stars["octocat/" + name, default: 0] += change
            let repository = try #require(server.world.current.repository("octocat", name))
            #expect(try check(repository) == stars["octocat/" + name], "after \(method) by \(login)")
        }
        let everyone = stars["octocat/Spoon-Knife"] ?? 0
        let last = "/repos/octocat/Spoon-Knife/stargazers?per_page=1&page=\(everyone)"
        #expect(try logins(fetch(server, last, as: "octocat")) == ["kitsune-fox"])
    }

    /// Each organization of the world is an account with its own login, URLs and one id (in the population's gaps)
    /// in `/orgs/{org}`, `/users/{org}`, `/user/{id}`, its repositories' `owner` and GraphQL's `repositoryOwner`.
    @Test func everyOrganizationIsAnAccountWithOneID() throws {
        let server = try standIn(StandInConfiguration(userCount: 10_000))
        for login in world.organizations.map(\.login) {
            #expect(server.population.user(login: login) == nil, "\(login)")
            let profile = try fetch(server, "/orgs/" + login).jsonObject()
            let id = profile["id"] as? Int ?? 0
            #expect(profile["repos_url"] as? String == "https://api.github.com/orgs/\(login)/repos", "\(profile)")
            let query = "query { repositoryOwner(login: \"\(login)\") { login __typename databaseId } }"
            let accounts =
                try [fetch(server, "/users/" + login).jsonObject(), fetch(server, "/user/\(id)").jsonObject()]
                + world.repositories.filter { $0.owner == login }.flatMap { repository in
                    let record = try fetch(server, "/repos/" + repository.fullName, as: "octocat").jsonObject()
                    return [record["owner"], record["organization"]].map { $0 as? [String: Any] ?? [:] }
                }
                + fetch(server, "/orgs/\(login)/repos").jsonArray().map { $0["owner"] as? [String: Any] ?? [:] }
                + [value(try graphQL(server, query).jsonObject(), "data", "repositoryOwner") as? [String: Any] ?? [:]]
            for account in accounts {
                let (type, number) = (account["type"] ?? account["__typename"], account["id"] ?? account["databaseId"])
                #expect("\(account["login"] ?? "") \(type ?? "") \(number ?? "")" == "\(login) Organization \(id)")
            }
        }
    }

    static let (members, member, active) = ("/orgs/github/members", #"{"role":"member"}"#, #"{"state":"active"}"#)
    static let outside = "/repos/github/docs/collaborators?affiliation=outside"
    static let direct = "/repos/github/docs/collaborators/Tidy-Falcon-33"
    static let personal = "/repos/octocat/Hello-World/collaborators/Tidy-Falcon-33"
    static let grant = "/orgs/github/teams/justice-league/repos/"
    static let admin = #"{"permission":"admin"}"#
    static let linguistAdmins = "/repos/github/linguist/collaborators?permission=admin"

    /// What `Scripts/try --world` and `members --changes` see change, in order, each step after the one before:
    /// GitHub's write routes as an owner (or an admin) and as someone without the right.
    static let stories: [String: [Step]] = [
        // A membership is pending (listed to no one) until accepted; then members see the new member, others the
        // public ones. A role changes at once; a removal is 204; only an owner changes members, with a known role.
        "members join, change role and leave": [
            Step("PUT", "/orgs/acme/memberships/Yamada-Taro", as: "octocat", body: member, 200, ["state": "pending"]),
            Step("/orgs/acme/members", as: "octocat", ["octocat"]),
            Step("PATCH", "/user/memberships/orgs/acme", as: "Yamada-Taro", body: active, 200, ["state": "active"]),
            Step("/orgs/acme/members", as: "octocat", ["octocat", "Yamada-Taro"]),
            Step("/orgs/acme/members", as: "kitsune-fox", ["octocat"]),
            Step("/orgs/acme/public_members", as: "Yamada-Taro", ["octocat"]),
            Step(
                "PUT", "/orgs/acme/memberships/Yamada-Taro", as: "octocat", body: #"{"role":"admin"}"#, 200,
                ["role": "admin", "user.login": "Yamada-Taro"]),
            Step("/orgs/acme/members?role=admin", as: "Yamada-Taro", ["octocat", "Yamada-Taro"]),
            Step("PUT", "/orgs/acme/memberships/kitsune-fox", as: "Yamada-Taro", body: #"{"role":"boss"}"#, 422),
            Step("PUT", "/orgs/acme/memberships/no-such-account", as: "octocat", body: member, 404),
            Step("PUT", "/orgs/acme/memberships/kitsune-fox", as: nil, body: member, 401),
            Step("PATCH", "/user/memberships/orgs/acme", as: "kitsune-fox", body: active, 404),
            Step("DELETE", "/orgs/acme/members/octocat", as: "Yamada-Taro", 204),
            Step("/orgs/acme/members", as: "Yamada-Taro", ["Yamada-Taro"]),
            Step("PUT", "/orgs/acme/memberships/kitsune-fox", as: "kitsune-fox", body: member, 403),
            Step("DELETE", "/orgs/acme/members/Yamada-Taro", as: "kitsune-fox", 403),
            Step(
                "/orgs/octo-org/members", as: "octocat",
                ["eager-falcon-20", "gentlefalcon22", "octocat", "Yamada-Taro"]),
        ],
        // Team and direct grants change who collaborates, and how. A newcomer is invited (201) and has access once
        // they accept; a permission changes at once (204); one who joins the organization is no longer outside.
        "grants and memberships change who is a collaborator": [
            Step("PUT", grant + "github/linguist", as: "Yamada-Taro", body: admin, 403),
            Step(linguistAdmins, as: "octocat", ["octocat", "lively-otter-8"]),
            Step("PUT", grant + "github/linguist", as: "octocat", body: admin, 204),
            // Only the organization's own repositories: octocat's is 422, as GitHub documents (before: 204).
            Step("PUT", grant + "octocat/Hello-World", as: "octocat", body: admin, 422),
            Step(
                linguistAdmins, as: "octocat",
                ["octocat", "Yamada-Taro", "kitsune-fox", "Happy-Otter-5", "lively-otter-8"]),
            Step("DELETE", grant + "github/linguist", as: "octocat", 204),
            Step(linguistAdmins, as: "octocat", ["octocat", "lively-otter-8"]),
            Step("PUT", direct, as: "kitsune-fox", body: #"{"permission":"pull"}"#, 403),
            Step(
                "PUT", direct, as: "octocat", body: #"{"permission":"pull"}"#, 201,
                ["permissions": "read", "invitee.login": "Tidy-Falcon-33", "repository.full_name": "github/docs"]),
            Step(outside, as: "octocat", ["livelyfalcon26"]),
            Step("PUT", personal, as: "octocat", body: admin, 201, ["permissions": "write"]),
            Step("PATCH", "/user/repository_invitations/1", as: "kitsune-fox", 404),
            Step("PATCH", "/user/repository_invitations/1", as: "Tidy-Falcon-33", 204),
            Step("PUT", direct, as: "octocat", body: #"{"permission":"push"}"#, 204),
            Step(outside, as: "octocat", ["livelyfalcon26", "Tidy-Falcon-33"]),
            Step("PUT", "/orgs/github/memberships/livelyfalcon26", as: "octocat", body: member, 200),
            Step("PATCH", "/user/memberships/orgs/github", as: "livelyfalcon26", body: active, 200),
            Step(outside, as: "octocat", ["Tidy-Falcon-33"]),
            Step("DELETE", direct, as: "octocat", 204), Step(outside, as: "octocat", []),
        ],
    ]

    @Test(arguments: stories.keys.sorted()) func writesChangeTheWorldAsOnGitHub(_ story: String) throws {
        let server = try standIn()
        for step in Self.stories[story] ?? [] { try step.run(on: server) }
    }

    /// A repository lists its stargazers or is starred by the population: neither (a misspelt key) or both is refused.
    @Test(arguments: [#""stargazers_typo": []"#, #""stargazers": [], "starred_by": "population""#])
    func aRepositoryWithoutOneSourceOfStarsIsRefused(stars: String) {
        let world =
            #"{"organizations": [], "repositories": [{"full_name": "o/r", "collaborators": {}, "watchers": [], "#
            + #""forks": [], "contributors": [], "# + stars + "}]}"
        #expect(throws: DecodingError.self) { try StandInWorld(bytes: Array(world.utf8)) }
        let listed = world.replacingOccurrences(of: stars, with: #""stargazers": []"#)
        #expect(throws: Never.self) { try StandInWorld(bytes: Array(listed.utf8)) }
    }
}
