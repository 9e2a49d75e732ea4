/// Every REST operation gh-users calls: one row each. Features name a row, never a path string; Data builds
/// requests from them and the stand-in serves them. `EndpointTableTests` pins each row's method and path to
/// GitHub's own list of operations.
extension Endpoint {
    /// `GET /users?since=ID`: every account, in id order.
    package static let listUsers = Endpoint(
        "users/list", .get, "/users", query: ["since"], shape: .accounts, paging: .since,
        docs: "https://docs.github.com/rest/users/users#list-users")
    /// `PATCH /user`: changes the token's own profile, and answers with its private profile as it now is.
    package static let updateAuthenticatedUser = Endpoint(
        "users/update-authenticated", .patch, "/user", shape: .account, scope: "user",
        docs: "https://docs.github.com/rest/users/users#update-the-authenticated-user")
    /// `GET /users/{username}`.
    package static let user = Endpoint(
        "users/get-by-username", .get, "/users/{username}", shape: .account,
        docs: "https://docs.github.com/rest/users/users#get-a-user")
    /// `GET /user/{account_id}`: an account by its id, which survives a rename.
    package static let userByID = Endpoint(
        "users/get-by-id", .get, "/user/{account_id}", shape: .account,
        docs: "https://docs.github.com/rest/users/users#get-a-user-using-their-id")
    /// `GET /user`: the token's own account.
    package static let authenticatedUser = Endpoint(
        "users/get-authenticated", .get, "/user", shape: .account, needsToken: true,
        docs: "https://docs.github.com/rest/users/users#get-the-authenticated-user")
    /// `GET /users/{username}/repos`.
    package static let repos = Endpoint(
        "repos/list-for-user", .get, "/users/{username}/repos", query: ["type", "sort", "direction"],
        shape: .records(.repository), paging: .link,
        docs: "https://docs.github.com/rest/repos/repos#list-repositories-for-a-user")
    /// `GET /users/{username}/followers`.
    package static let followers = Endpoint(
        "users/list-followers-for-user", .get, "/users/{username}/followers", shape: .accounts, paging: .link,
        docs: "https://docs.github.com/rest/users/followers#list-followers-of-a-user")
    /// `GET /users/{username}/following`.
    package static let following = Endpoint(
        "users/list-following-for-user", .get, "/users/{username}/following", shape: .accounts, paging: .link,
        docs: "https://docs.github.com/rest/users/followers#list-the-people-a-user-follows")
    /// `GET /user/followers`: the token's own followers.
    package static let ownFollowers = Endpoint(
        "users/list-followers-for-authenticated-user", .get, "/user/followers", shape: .accounts, paging: .link,
        needsToken: true,
        docs: "https://docs.github.com/rest/users/followers#list-followers-of-the-authenticated-user")
    /// `GET /user/following`: the accounts the token's own account follows.
    package static let ownFollowing = Endpoint(
        "users/list-followed-by-authenticated-user", .get, "/user/following", shape: .accounts, paging: .link,
        needsToken: true,
        docs: "https://docs.github.com/rest/users/followers#list-the-people-the-authenticated-user-follows")
    /// `GET /users/{username}/following/{target_user}`: 204 when it follows, 404 when not.
    package static let checkFollowing = Endpoint(
        "users/check-following-for-user", .get, "/users/{username}/following/{target_user}", shape: .status,
        docs: "https://docs.github.com/rest/users/followers#check-if-a-user-follows-another-user")
    /// `PUT /user/following/{username}`.
    package static let follow = Endpoint(
        "users/follow", .put, "/user/following/{username}", shape: .status, scope: "user:follow",
        docs: "https://docs.github.com/rest/users/followers#follow-a-user")
    /// `DELETE /user/following/{username}`.
    package static let unfollow = Endpoint(
        "users/unfollow", .delete, "/user/following/{username}", shape: .status, scope: "user:follow",
        docs: "https://docs.github.com/rest/users/followers#unfollow-a-user")
    /// `GET /user/blocks`: the accounts the token's own account blocks.
    package static let blocks = Endpoint(
        "users/list-blocked-by-authenticated-user", .get, "/user/blocks", shape: .accounts, paging: .link,
        scope: "user", docs: "https://docs.github.com/rest/users/blocking#list-users-blocked-by-the-authenticated-user")
    /// `PUT /user/blocks/{username}`: 204; 422 for oneself or an organization.
    package static let block = Endpoint(
        "users/block", .put, "/user/blocks/{username}", shape: .status, scope: "user",
        docs: "https://docs.github.com/rest/users/blocking#block-a-user")
    /// `DELETE /user/blocks/{username}`: 204.
    package static let unblock = Endpoint(
        "users/unblock", .delete, "/user/blocks/{username}", shape: .status, scope: "user",
        docs: "https://docs.github.com/rest/users/blocking#unblock-a-user")
    /// `GET /user/emails`: the token's own addresses, which `user:email` (or `user`, which includes it) may read.
    package static let emails = Endpoint(
        "users/list-emails-for-authenticated-user", .get, "/user/emails", shape: .records(.email), paging: .link,
        scope: "user:email",
        docs: "https://docs.github.com/rest/users/emails#list-email-addresses-for-the-authenticated-user")
    /// `GET /users/{username}/hovercard`: what GitHub's hovercard says of an account, about a subject if one is
    /// named (`subject_type` and `subject_id` go together). It needs a token.
    package static let hovercard = Endpoint(
        "users/get-context-for-user", .get, "/users/{username}/hovercard", query: ["subject_type", "subject_id"],
        shape: .hovercard, needsToken: true,
        docs: "https://docs.github.com/rest/users/users#get-contextual-information-for-a-user")
    /// `GET /users/{username}/keys`.
    package static let keys = Endpoint(
        "users/list-public-keys-for-user", .get, "/users/{username}/keys", shape: .records(.publicKey), paging: .link,
        docs: "https://docs.github.com/rest/users/keys#list-public-keys-for-a-user")
    /// `GET /users/{username}/ssh_signing_keys`.
    package static let signingKeys = Endpoint(
        "users/list-ssh-signing-keys-for-user", .get, "/users/{username}/ssh_signing_keys",
        shape: .records(.signingKey),
        paging: .link,
        docs: "https://docs.github.com/rest/users/ssh-signing-keys#list-ssh-signing-keys-for-a-user")
    /// `GET /users/{username}/gpg_keys`.
    package static let gpgKeys = Endpoint(
        "users/list-gpg-keys-for-user", .get, "/users/{username}/gpg_keys", shape: .records(.gpgKey), paging: .link,
        docs: "https://docs.github.com/rest/users/gpg-keys#list-gpg-keys-for-a-user")
    /// `GET /users/{username}/social_accounts`.
    package static let socialAccounts = Endpoint(
        "users/list-social-accounts-for-user", .get, "/users/{username}/social_accounts",
        shape: .records(.socialAccount),
        paging: .link,
        docs: "https://docs.github.com/rest/users/social-accounts#list-social-accounts-for-a-user")
    /// `GET /users/{username}/orgs`.
    package static let orgs = Endpoint(
        "orgs/list-for-user", .get, "/users/{username}/orgs", shape: .records(.organization), paging: .link,
        docs: "https://docs.github.com/rest/orgs/orgs#list-organizations-for-a-user")
    /// `GET /users/{username}/starred`, each record `{"starred_at", "repo"}` in the star media type.
    package static let starred = Endpoint(
        "activity/list-repos-starred-by-user", .get, "/users/{username}/starred", query: ["sort", "direction"],
        mediaType: "application/vnd.github.star+json", shape: .records(.starredRepository), paging: .link,
        docs: "https://docs.github.com/rest/activity/starring#list-repositories-starred-by-a-user")
    /// `GET /users/{username}/subscriptions`: the repositories an account watches. Retired in July 2026: GitHub
    /// answers `204 No Content` (later 403, or 404 once removed) for every account, with or without a token.
    package static let subscriptions = Endpoint(
        "activity/list-repos-watched-by-user", .get, "/users/{username}/subscriptions",
        shape: .records(.repository), paging: .link,
        docs: "https://docs.github.com/rest/activity/watching#list-repositories-watched-by-a-user")
    /// `GET /user/subscriptions`: the repositories the token's own account watches, which GitHub still lists.
    package static let ownSubscriptions = Endpoint(
        "activity/list-watched-repos-for-authenticated-user", .get, "/user/subscriptions",
        shape: .records(.repository), paging: .link, needsToken: true,
        docs: "https://docs.github.com/rest/activity/watching#list-repositories-watched-by-the-authenticated-user")
    /// `GET /users/{username}/gists`.
    package static let gists = Endpoint(
        "gists/list-for-user", .get, "/users/{username}/gists", shape: .records(.gist), paging: .link,
        docs: "https://docs.github.com/rest/gists/gists#list-gists-for-a-user")
    /// `GET /users/{username}/events/public`: GitHub keeps the 300 most recent.
    package static let publicEvents = Endpoint(
        "activity/list-public-events-for-user", .get, "/users/{username}/events/public", shape: .records(.event),
        paging: .capped(at: 300),
        docs: "https://docs.github.com/rest/activity/events#list-public-events-for-a-user")
    /// `GET /users/{username}/received_events/public`: the public events of the accounts and repositories an
    /// account watches and follows, the 300 most recent as for its own.
    package static let receivedPublicEvents = Endpoint(
        "activity/list-received-public-events-for-user", .get, "/users/{username}/received_events/public",
        shape: .records(.event), paging: .capped(at: 300),
        docs: "https://docs.github.com/rest/activity/events#list-public-events-received-by-a-user")
    /// `GET /search/users?q=…`: at most 1,000 results a query.
    package static let searchUsers = Endpoint(
        "search/users", .get, "/search/users", query: ["q", "sort", "order"], shape: .searchResults,
        paging: .capped(at: 1000), rateLimit: .search,
        docs: "https://docs.github.com/rest/search/search#search-users")
    /// `GET /orgs/{org}/public_members`: the members of an organization who show their membership.
    package static let publicMembers = Endpoint(
        "orgs/list-public-members", .get, "/orgs/{org}/public_members", shape: .accounts, paging: .link,
        docs: "https://docs.github.com/rest/orgs/members#list-public-organization-members")
    /// `GET /orgs/{org}/members`: the members of an organization the token can see (all of them for a member);
    /// `filter` 2fa_disabled or 2fa_insecure only for its owners (a 422 or 403 for others), `role` admin or member.
    package static let members = Endpoint(
        "orgs/list-members", .get, "/orgs/{org}/members", query: ["filter", "role"], shape: .accounts, paging: .link,
        scope: "read:org", docs: "https://docs.github.com/rest/orgs/members#list-organization-members")
    /// `GET /orgs/{org}/outside_collaborators`: an organization's outside collaborators, for its owners;
    /// `filter` 2fa_disabled or 2fa_insecure, as for the members.
    package static let outsideCollaborators = Endpoint(
        "orgs/list-outside-collaborators", .get, "/orgs/{org}/outside_collaborators", query: ["filter"],
        shape: .accounts, paging: .link, scope: "read:org",
        docs: "https://docs.github.com/rest/orgs/outside-collaborators#list-outside-collaborators-for-an-organization")
    /// `GET /repos/{owner}/{repo}/assignees`: who issues and pull requests of a repository may be assigned to.
    package static let assignees = Endpoint(
        "issues/list-assignees", .get, "/repos/{owner}/{repo}/assignees", shape: .accounts, paging: .link,
        docs: "https://docs.github.com/rest/issues/assignees#list-assignees")
    /// `GET /repos/{owner}/{repo}/collaborators`: who has access to a repository, with each one's role; needs
    /// push access to it, and "an access token with the read:org and repo scopes" (GitHub's reference).
    package static let collaborators = Endpoint(
        "repos/list-collaborators", .get, "/repos/{owner}/{repo}/collaborators", query: ["affiliation", "permission"],
        shape: .accounts, paging: .link, scope: "read:org and repo",
        docs: "https://docs.github.com/rest/collaborators/collaborators#list-repository-collaborators")
    /// `GET /repos/{owner}/{repo}/contributors`: who committed to a repository, and how often; `anon=1` adds the
    /// authors with no account. An empty repository is 204.
    package static let contributors = Endpoint(
        "repos/list-contributors", .get, "/repos/{owner}/{repo}/contributors", query: ["anon"], shape: .accounts,
        paging: .link, docs: "https://docs.github.com/rest/repos/repos#list-repository-contributors")
    /// `GET /repos/{owner}/{repo}/forks`: a repository's forks, newest first, each with its owner.
    package static let forks = Endpoint(
        "repos/list-forks", .get, "/repos/{owner}/{repo}/forks", shape: .records(.repository), paging: .link,
        docs: "https://docs.github.com/rest/repos/forks#list-forks")
    /// `GET /repos/{owner}/{repo}/subscribers`: who watches a repository; since July 2026 GitHub lists them only
    /// to the repository's admins and collaborators.
    package static let watchers = Endpoint(
        "activity/list-watchers-for-repo", .get, "/repos/{owner}/{repo}/subscribers", shape: .accounts,
        paging: .link, docs: "https://docs.github.com/rest/activity/watching#list-watchers")
    /// `GET /repos/{owner}/{repo}/stargazers` in the star media type: who starred a repository, and when; since
    /// July 2026 GitHub lists them only to the repository's admins and collaborators. At most 400 pages (40,000):
    /// page 401 is a 422 "pagination is limited for this resource" (star-history/star-history#194).
    package static let stargazers = Endpoint(
        "activity/list-stargazers-for-repo", .get, "/repos/{owner}/{repo}/stargazers",
        mediaType: "application/vnd.github.star+json", shape: .records(.stargazer), paging: .capped(at: 40_000),
        docs: "https://docs.github.com/rest/activity/starring#list-stargazers")
    /// `GET /repos/{owner}/{repo}`: a repository, asked to tell one that does not exist (404) from a list of it
    /// that GitHub withholds (its stargazers and watchers since July 2026).
    package static let repository = Endpoint(
        "repos/get", .get, "/repos/{owner}/{repo}", shape: .repository,
        docs: "https://docs.github.com/rest/repos/repos#get-a-repository")
    /// `GET /orgs/{org}`: an organization, asked to tell one that does not exist (404) from a list of its people
    /// that GitHub withholds from the token (404 too). Anyone may ask it.
    package static let organization = Endpoint(
        "orgs/get", .get, "/orgs/{org}", shape: .organization,
        docs: "https://docs.github.com/rest/orgs/orgs#get-an-organization")
    /// `GET /orgs/{org}/invitations`: an organization's pending invitations, for its owners; the `login` of an
    /// invitation sent to an email address is null.
    package static let invitations = Endpoint(
        "orgs/list-pending-invitations", .get, "/orgs/{org}/invitations", shape: .records(.organization),
        paging: .link, scope: "admin:org",
        docs: "https://docs.github.com/rest/orgs/members#list-pending-organization-invitations")
    /// `GET /orgs/{org}/teams/{team_slug}/members`: a team's members, its child teams' included, for those who
    /// can see the team.
    package static let teamMembers = Endpoint(
        "teams/list-members-in-org", .get, "/orgs/{org}/teams/{team_slug}/members", query: ["role"],
        shape: .accounts, paging: .link, scope: "read:org",
        docs: "https://docs.github.com/rest/teams/members#list-team-members")
    /// `GET /rate_limit`: free, and never cached.
    package static let rateLimitStatus = Endpoint(
        "rate-limit/get", .get, "/rate_limit", shape: .rateLimits, rateLimit: .free,
        docs: "https://docs.github.com/rest/rate-limit/rate-limit#get-rate-limit-status-for-the-authenticated-user")

    /// Every row, in the order help and the man page list them.
    package static let all: [Endpoint] = [
        listUsers, user, userByID, authenticatedUser, updateAuthenticatedUser, repos, followers, following,
        ownFollowers, ownFollowing,
        checkFollowing, follow, unfollow, blocks, block, unblock, emails, hovercard, keys, signingKeys, gpgKeys,
        socialAccounts,
        orgs,
        starred, subscriptions, ownSubscriptions, gists, publicEvents, receivedPublicEvents, searchUsers,
        rateLimitStatus, members, publicMembers, outsideCollaborators, assignees, collaborators, contributors, forks,
        invitations, teamMembers, watchers, stargazers, repository, organization,
        starHistory, starCount,
    ]

    // Star history (issue 28): a repository's stars a day, and how many it has now.

    /// `GET /repos/{owner}/{repo}/stargazers/history` (September 2026 on, any public repository): the stars
    /// gained a week, newest week first, 30 weeks a page at most and 100 pages (a 422 past them).
    package static let starHistory = Endpoint(
        "activity/get-stargazer-history-for-repo", .get, "/repos/{owner}/{repo}/stargazers/history",
        shape: .starWeeks, paging: .capped(at: 3_000),
        docs: "https://docs.github.com/rest/activity/starring#get-repository-star-history")
    /// `GET /repos/{owner}/{repo}/stargazers/count`: `{"count": N}`, the stars a repository has now; 404 for a
    /// repository that does not exist.
    package static let starCount = Endpoint(
        "activity/get-stargazer-count-for-repo", .get, "/repos/{owner}/{repo}/stargazers/count", shape: .count,
        docs: "https://docs.github.com/rest/activity/starring#get-stargazer-count")
}
