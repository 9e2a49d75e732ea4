import Foundation
import GitHubStandIn
import JSONBytes
import Testing

// The private user's key order and octocat's values come from GitHub's documented example in GitHub's OpenAPI
// description, github/rest-api-description (MIT License, Copyright (c) 2020 GitHub).

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

@Suite struct StandInPrivateUserTests {
    @Test func getUserWithAUserScopedTokenIsThePrivateUserExample() throws {
        try withStandInServer { server throws in
            let response = try fetch(server, "/user", headers: [("Authorization", "Bearer gho_octocat")])
            #expect(response.status == 200)
            var example: [UInt8] = []
            JSONText.compact(Array(octocatPrivateUserExample.utf8), into: &example)
            #expect(response.text == String(decoding: example, as: UTF8.self))
            #expect(response.text == String(decoding: server.population.users[0].privateUserJSONBytes(), as: UTF8.self))
        }
    }
}
