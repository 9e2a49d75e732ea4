import Foundation
import GitHubStandIn
import Testing

// Key orders and octocat's values below come from GitHub's documented examples and schemas in GitHub's OpenAPI
// description, github/rest-api-description (MIT License, Copyright (c) 2020 GitHub); each constant names its
// example or schema.

/// `users-list-public-keys-for-user.json` (`key-simple-items`).
private let octocatKeysExample = #"[{"id": 1, "key": "ssh-rsa AAA..."}]"#

/// `users-list-ssh-signing-keys-for-user.json` (`ssh-signing-key-items`).
private let octocatSigningKeysExample = """
    [{"id": 2, "key": "2Sg8iYjAxxmI2LvUXpJjkYrMxURPc8r+dB7TJyvv1234", "title": "ssh-rsa AAAAB3NzaC1yc2EAAA",
      "created_at": "2020-06-11T21:31:57Z"},
     {"id": 3, "key": "2Sg8iYjAxxmI2LvUXpJjkYrMxURPc8r+dB7TJy931234", "title": "ssh-rsa AAAAB3NzaC1yc2EAAB",
      "created_at": "2020-07-11T21:31:57Z"}]
    """

/// `users-list-gpg-keys-for-user.json` (`gpg-key-items`): the example's values, with `raw_key` where GitHub's real
/// answers put it (after `key_id`).
private let octocatGPGKeysExample = """
    [{"id": 3, "name": "Octocat's GPG Key", "primary_key_id": 2, "key_id": "3262EFF25BA0D270", "raw_key": "string",
      "public_key": "xsBNBFayYZ...", "emails": [{"email": "octocat@users.noreply.github.com", "verified": true}],
      "subkeys": [{"id": 4, "primary_key_id": 3, "key_id": "4A595D4C72EE49C7", "public_key": "zsBNBFayYZ...",
                   "emails": [], "can_sign": false, "can_encrypt_comms": true, "can_encrypt_storage": true,
                   "can_certify": false, "created_at": "2016-03-24T11:31:04-06:00",
                   "expires_at": "2016-03-24T11:31:04-07:00", "revoked": false}],
      "can_sign": true, "can_encrypt_comms": false, "can_encrypt_storage": false, "can_certify": true,
      "created_at": "2016-03-24T11:31:04-06:00", "expires_at": "2016-03-24T11:31:04-07:00", "revoked": false}]
    """

/// `users-list-social-accounts-for-user.json` (`social-account-items`).
private let octocatSocialAccountsExample = #"[{"provider": "twitter", "url": "https://twitter.com/github"}]"#

/// `activity-list-public-events-for-user.json` (`user-public-events-items`), with the actor's `id` and
/// `avatar_url` those of the stand-in's octocat (id 1, as in the public-user example) instead of the real one.
private let octocatEventsExample = """
    [{"id": "22249084947", "type": "WatchEvent",
      "actor": {"id": 1, "login": "octocat", "display_login": "octocat", "gravatar_id": "",
                "url": "https://api.github.com/users/octocat",
                "avatar_url": "https://github.com/images/error/octocat_happy.gif"},
      "repo": {"id": 1296269, "name": "octocat/Hello-World", "url": "https://api.github.com/repos/octocat/Hello-World"},
      "payload": {"action": "started"}, "public": true, "created_at": "2022-06-09T12:47:28Z"},
     {"id": "22249084964", "type": "PushEvent",
      "actor": {"id": 1, "login": "octocat", "display_login": "octocat", "gravatar_id": "",
                "url": "https://api.github.com/users/octocat",
                "avatar_url": "https://github.com/images/error/octocat_happy.gif"},
      "repo": {"id": 1296269, "name": "octocat/Hello-World", "url": "https://api.github.com/repos/octocat/Hello-World"},
      "payload": {"repository_id": 1296269, "push_id": 10115855396, "ref": "refs/heads/master",
                  "head": "7a8f3ac80e2ad2f6842cb86f576d4bfe2c03e300",
                  "before": "883efe034920928c47fe18598c01249d1a9fdabd"},
      "public": true, "created_at": "2022-06-08T23:29:25Z"}]
    """

/// `users-get-authenticated.private-user.json`, plus the `user_view_type` every profile of the stand-in carries
/// between `type` and `site_admin`, as GitHub's real answers do.
private let octocatPrivateUserExample = """
    {"login": "octocat", "id": 1, "node_id": "MDQ6VXNlcjE=",
     "avatar_url": "https://github.com/images/error/octocat_happy.gif", "gravatar_id": "",
     "url": "https://api.github.com/users/octocat", "html_url": "https://github.com/octocat",
     "followers_url": "https://api.github.com/users/octocat/followers",
     "following_url": "https://api.github.com/users/octocat/following{/other_user}",
     "gists_url": "https://api.github.com/users/octocat/gists{/gist_id}",
     "starred_url": "https://api.github.com/users/octocat/starred{/owner}{/repo}",
     "subscriptions_url": "https://api.github.com/users/octocat/subscriptions",
     "organizations_url": "https://api.github.com/users/octocat/orgs",
     "repos_url": "https://api.github.com/users/octocat/repos",
     "events_url": "https://api.github.com/users/octocat/events{/privacy}",
     "received_events_url": "https://api.github.com/users/octocat/received_events",
     "type": "User", "user_view_type": "public", "site_admin": false, "name": "monalisa octocat",
     "company": "GitHub", "blog": "https://github.com/blog", "location": "San Francisco",
     "email": "octocat@github.com", "hireable": false, "bio": "There once was...",
     "twitter_username": "monatheoctocat", "public_repos": 2, "public_gists": 1, "followers": 20, "following": 0,
     "created_at": "2008-01-14T04:33:35Z", "updated_at": "2008-01-14T04:33:35Z", "private_gists": 81,
     "total_private_repos": 100, "owned_private_repos": 100, "disk_usage": 10000, "collaborators": 8,
     "two_factor_authentication": true,
     "plan": {"name": "Medium", "space": 400, "private_repos": 20, "collaborators": 0}}
    """

/// `gpg-key` as GitHub's recorded answer orders it (`Tests/Recorded/github3.py/gpg-keys-sigmavirus24-2018.json`:
/// `raw_key` right after `key_id`, where the OpenAPI example puts it last); a subkey has the example subkey's keys.
private let gpgKeyKeys = [
    "id", "name", "primary_key_id", "key_id", "raw_key", "public_key", "emails", "subkeys", "can_sign",
    "can_encrypt_comms", "can_encrypt_storage", "can_certify", "created_at", "expires_at", "revoked",
]
private let gpgSubkeyKeys = [
    "id", "primary_key_id", "key_id", "public_key", "emails", "can_sign", "can_encrypt_comms", "can_encrypt_storage",
    "can_certify", "created_at", "expires_at", "revoked",
]

/// `organization-simple` in the order of `orgs-list-for-user.schema.json` (no example was obtained).
private let organizationKeys = [
    "login", "id", "node_id", "url", "repos_url", "events_url", "hooks_url", "issues_url", "members_url",
    "public_members_url", "avatar_url", "description",
]

/// `base-gist` in the order of `gists-list-for-user.schema.json`, without the optional `comments_enabled`,
/// `forks` and `history`.
private let gistKeys = [
    "url", "forks_url", "commits_url", "id", "node_id", "git_pull_url", "git_push_url", "html_url", "files", "public",
    "created_at", "updated_at", "description", "comments", "user", "comments_url", "owner", "truncated",
]
private let gistFileKeys = ["filename", "type", "language", "raw_url", "size"]

/// `event` as `activity-list-public-events-for-user.json` orders it.
private let eventKeys = ["id", "type", "actor", "repo", "payload", "public", "created_at"]
private let actorKeys = ["id", "login", "display_login", "gravatar_id", "url", "avatar_url"]

/// The keys of the `repository` item of `activity-list-repos-starred-by-user.json`, in its order.
private let starredRepositoryExampleKeys = [
    "id", "node_id", "name", "full_name", "owner", "private", "html_url", "description", "fork", "url",
    "archive_url", "assignees_url", "blobs_url", "branches_url", "collaborators_url", "comments_url", "commits_url",
    "compare_url", "contents_url", "contributors_url", "deployments_url", "downloads_url", "events_url", "forks_url",
    "git_commits_url", "git_refs_url", "git_tags_url", "git_url", "issue_comment_url", "issue_events_url",
    "issues_url", "keys_url", "labels_url", "languages_url", "merges_url", "milestones_url", "notifications_url",
    "pulls_url", "releases_url", "ssh_url", "stargazers_url", "statuses_url", "subscribers_url", "subscription_url",
    "tags_url", "teams_url", "trees_url", "clone_url", "mirror_url", "hooks_url", "svn_url", "homepage", "language",
    "forks_count", "stargazers_count", "watchers_count", "size", "default_branch", "open_issues_count",
    "is_template", "topics", "has_issues", "has_projects", "has_wiki", "has_pages", "has_downloads", "archived",
    "disabled", "visibility", "pushed_at", "created_at", "updated_at", "permissions", "allow_rebase_merge",
    "template_repository", "temp_clone_token", "allow_squash_merge", "allow_auto_merge", "delete_branch_on_merge",
    "allow_merge_commit", "subscribers_count", "network_count", "license", "forks", "open_issues", "watchers",
]

/// What GitHub sends only to callers with access to the repository, or only from `GET /repos/{owner}/{repo}`; none
/// is among the `repository` schema's required keys.
private let accessOnlyRepositoryKeys: Set = [
    "permissions", "allow_rebase_merge", "template_repository", "temp_clone_token", "allow_squash_merge",
    "allow_auto_merge", "delete_branch_on_merge", "allow_merge_commit", "subscribers_count", "network_count",
]

/// The example's keys a public caller gets, with the schema's `has_discussions` where the schema puts it.
private let starredRepositoryKeys: [String] = starredRepositoryExampleKeys.filter {
    !accessOnlyRepositoryKeys.contains($0)
}.flatMap { $0 == "has_downloads" ? [$0, "has_discussions"] : [$0] }

private func jsonArray<T>(_ items: [T], _ json: (T) -> String) -> String {
    "[" + items.map(json).joined(separator: ",") + "]"
}

private func get(_ server: StandInServer, _ target: String, accept: String? = nil) throws -> RawHTTPResponse {
    var headers = tokenHeader
    if let accept {
        headers.append(("Accept", accept))
    }
    let response = try fetch(server, target, headers: headers)
    #expect(response.status == 200, "\(target): \(response.text)")
    return response
}

@Suite struct StandInAccountListShapeTests {
    @Test func octocatServesGitHubsDocumentedExamplesVerbatim() throws {
        try withStandInServer { server throws in
            for (target, example) in [
                ("/users/octocat/keys", octocatKeysExample),
                ("/users/octocat/ssh_signing_keys", octocatSigningKeysExample),
                ("/users/octocat/gpg_keys", octocatGPGKeysExample),
                ("/users/octocat/social_accounts", octocatSocialAccountsExample),
                ("/users/octocat/events/public", octocatEventsExample),
            ] {
                let response = try get(server, target)
                // Ordered comparison: same keys, same order, same values at every depth.
                #expect(try OrderedJSON.parse(response.body) == OrderedJSON.parse(example), "\(target)")
            }
        }
    }

    @Test func listBodiesAreTheAccessorsJSONByteForByte() throws {
        try withStandInServer { server throws in
            let population = server.population
            let octocat = try #require(population.user(login: "octocat"))
            let keys = try #require(population.user(login: StandInPopulation.manyKeysLogin))
            let jose = try #require(population.user(login: "jose-nunez"))
            let cases: [(String, String)] = [
                ("/users/octocat/keys", jsonArray(population.keys(of: octocat)) { $0.json() }),
                (
                    "/users/\(keys.login)/keys?per_page=100",
                    jsonArray(Array(population.keys(of: keys).prefix(100))) { $0.json() }
                ),
                ("/users/jose-nunez/ssh_signing_keys", jsonArray(population.signingKeys(of: jose)) { $0.json() }),
                ("/users/jose-nunez/gpg_keys", jsonArray(population.gpgKeys(of: jose)) { $0.json() }),
                ("/users/jose-nunez/social_accounts", jsonArray(population.socialAccounts(of: jose)) { $0.json() }),
                ("/users/jose-nunez/orgs", jsonArray(population.organizations(of: jose)) { $0.json() }),
                ("/users/jose-nunez/starred", jsonArray(population.starred(by: jose)) { $0.repositoryJSON() }),
                ("/users/jose-nunez/gists?per_page=100", jsonArray(population.gists(of: jose)) { $0.json() }),
                (
                    "/users/jose-nunez/events/public",
                    jsonArray(Array(population.publicEvents(of: jose).prefix(30))) { $0.json() }
                ),
            ]
            for (target, expected) in cases {
                #expect(try get(server, target).text == expected, "\(target)")
            }
            let stars = try get(server, "/users/jose-nunez/starred", accept: "application/vnd.github.star+json")
            #expect(stars.text == jsonArray(population.starred(by: jose)) { $0.starJSON() })
            // The accessors hold something worth comparing.
            #expect(!population.gpgKeys(of: jose).isEmpty && !population.starred(by: jose).isEmpty)
            #expect(!population.signingKeys(of: jose).isEmpty && !population.gists(of: jose).isEmpty)
        }
    }

    @Test func keysAndSigningKeysHaveTheExamplesKeys() throws {
        try withStandInServer { server throws in
            let keys = try orderedItems(
                get(server, "/users/\(StandInPopulation.manyKeysLogin)/keys?per_page=100"))
            #expect(keys.count == 100)
            #expect(keys.allSatisfy { $0.keys == ["id", "key"] })
            let signers = server.population.users.filter { !server.population.signingKeys(of: $0).isEmpty }
            #expect(signers.count > 50)
            for user in signers.prefix(5) {
                let items = try orderedItems(get(server, "/users/\(user.loginPathComponent)/ssh_signing_keys"))
                #expect(!items.isEmpty && items.allSatisfy { $0.keys == ["id", "key", "title", "created_at"] })
            }
        }
    }

    @Test func gpgKeysHaveTheExamplesKeysAtEveryLevel() throws {
        try withStandInServer { server throws in
            let owners = server.population.users.filter { $0.ordinal > 1 && !server.population.gpgKeys(of: $0).isEmpty }
            #expect(owners.count > 20)
            var sawNullName = false
            var sawNullExpiry = false
            var sawNullRawKey = false
            for owner in owners.prefix(12) {
                for key in try orderedItems(get(server, "/users/\(owner.loginPathComponent)/gpg_keys")) {
                    #expect(key.keys == gpgKeyKeys)
                    #expect(key["subkeys"]?.elements.map(\.keys) == [gpgSubkeyKeys])
                    #expect(key["emails"]?.elements.allSatisfy { $0.keys == ["email", "verified"] } == true)
                    sawNullName = sawNullName || key["name"] == .null
                    sawNullExpiry = sawNullExpiry || key["expires_at"] == .null
                    sawNullRawKey = sawNullRawKey || key["raw_key"] == .null
                }
            }
            // The schema's nullable fields are exercised, not only their present form.
            #expect(sawNullName && sawNullExpiry && sawNullRawKey)
        }
    }

    @Test func socialAccountsOrganizationsGistsAndEventsHaveTheirKeys() throws {
        try withStandInServer { server throws in
            let social = try orderedItems(get(server, "/users/tabby-newline/social_accounts"))
            #expect(!social.isEmpty && social.allSatisfy { $0.keys == ["provider", "url"] })
            let organizations = try orderedItems(
                get(server, "/users/\(StandInPopulation.manyOrganizationsLogin)/orgs?per_page=100"))
            #expect(organizations.count == 100)
            #expect(organizations.allSatisfy { $0.keys == organizationKeys })
            #expect(organizations.contains { $0["description"] == .null })
            let gists = try orderedItems(get(server, "/users/\(StandInPopulation.manyGistsLogin)/gists?per_page=100"))
            #expect(gists.count == 100)
            for gist in gists {
                #expect(gist.keys == gistKeys)
                #expect(gist["user"] == .null && gist["id"]?.stringValue?.count == 32)
                guard case .object(let files)? = gist["files"] else {
                    Issue.record("files is not an object")
                    continue
                }
                #expect(!files.isEmpty && files.allSatisfy { $0.value.keys == gistFileKeys })
                #expect(files.allSatisfy { $0.value["filename"]?.stringValue == $0.key })
                #expect(gist["owner"]?["login"]?.stringValue == StandInPopulation.manyGistsLogin)
            }
            let events = try orderedItems(
                get(server, "/users/\(StandInPopulation.manyEventsLogin)/events/public?per_page=100"))
            #expect(events.count == 100)
            var types = Set<String>()
            for event in events {
                #expect(event.keys == eventKeys)
                #expect(event["actor"]?.keys == actorKeys && event["repo"]?.keys == ["id", "name", "url"])
                // Event ids are strings on GitHub, unlike every other id here.
                #expect(event["id"]?.stringValue != nil)
                types.insert(event["type"]?.stringValue ?? "")
            }
            #expect(types == ["PushEvent", "WatchEvent", "CreateEvent", "DeleteEvent"])
        }
    }

    @Test func starredRepositoriesFollowTheRepositoryExampleAndTheStarMediaTypeWrapsThem() throws {
        try withStandInServer { server throws in
            let login = StandInPopulation.manyStarsLogin
            let plain = try orderedItems(get(server, "/users/\(login)/starred?per_page=100"))
            #expect(plain.count == 100)
            #expect(plain.allSatisfy { $0.keys == starredRepositoryKeys })
            let starred = try orderedItems(
                get(server, "/users/\(login)/starred?per_page=100", accept: "application/vnd.github.star+json"))
            #expect(starred.count == 100)
            #expect(starred.allSatisfy { $0.keys == ["starred_at", "repo"] })
            #expect(starred.map { $0["repo"] } == plain.map { $0 })
            // The versioned spelling of the media type asks for the same.
            let versioned = try get(
                server, "/users/\(login)/starred?per_page=100", accept: "application/vnd.github.v3.star+json")
            #expect(try orderedItems(versioned) == starred)
        }
    }

    @Test func octocatsStarIsTheExamplesHelloWorldAtItsDocumentedTime() throws {
        try withStandInServer { server throws in
            let star = try #require(
                try orderedItems(
                    get(server, "/users/octocat/starred", accept: "application/vnd.github.star+json")
                ).first)
            #expect(star["starred_at"] == .string("2011-01-16T19:06:43Z"))
            #expect(star["repo"]?["full_name"] == .string("octocat/Hello-World"))
            #expect(star["repo"]?["id"] == .number("1296269"))
        }
    }

    @Test func getUserWithAUserScopedTokenIsThePrivateUserExample() throws {
        try withStandInServer { server throws in
            let response = try fetch(server, "/user", headers: [("Authorization", "Bearer gho_octocat")])
            #expect(response.status == 200)
            #expect(try OrderedJSON.parse(response.body) == OrderedJSON.parse(octocatPrivateUserExample))
            #expect(response.text == server.population.users[0].privateUserJSON())
        }
    }
}
