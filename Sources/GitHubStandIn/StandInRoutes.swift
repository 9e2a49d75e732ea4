extension StandInRouteTable {
    /// Every resource the stand-in serves: one row each.
    ///
    /// The first row whose method and pattern match wins: where two rows could match one path, list first the one
    /// with a literal segment where the other has a parameter (`/user/following/{login}` before `/user/{a}/{b}`).
    ///
    /// Account resources are also served under `/user/{id}/...`, the form GitHub's own `Link` URLs use.
    /// `acceptedScopes` is `user` on the profile rows, as GitHub's documentation shows for `GET /users/{username}`.
    static func gitHub() -> StandInRouteTable {
        let blocks = StandInBlockList()
        return StandInRouteTable([
            // First because it is the benchmarked path and must not pay for the other comparisons.
            StandInRoute(.get, "/users", handler: StandInUsersListHandler()),
            StandInRoute(
                .get, "/users/{login}", "/user/{id:int}", handler: StandInUserHandler(), acceptedScopes: "user"),
            StandInRoute(.get, "/user", handler: StandInAuthenticatedUserHandler(), acceptedScopes: "user"),
            StandInRoute(.get, "/users/{login}/repos", "/user/{id:int}/repos", handler: StandInRepositoriesHandler()),
            StandInRoute(
                .get, "/users/{login}/followers", "/user/{id:int}/followers", handler: StandInFollowHandler(.followers)),
            StandInRoute(
                .get, "/users/{login}/following", "/user/{id:int}/following", handler: StandInFollowHandler(.following)),
            StandInRoute(.get, "/user/followers", handler: StandInFollowHandler(.followers, of: .signedIn)),
            StandInRoute(.get, "/user/following", handler: StandInFollowHandler(.following, of: .signedIn)),
            StandInRoute(
                .get, "/users/{login}/following/{target_user}", handler: StandInFollowCheckHandler(of: .named)),
            StandInRoute(.get, "/user/following/{username}", handler: StandInFollowCheckHandler(of: .signedIn)),
            // GitHub's follow and unfollow need `user:follow`, which `user` includes.
            StandInRoute(
                .put, "/user/following/{username}", handler: StandInFollowChangeHandler(.follow),
                acceptedScopes: "user, user:follow"),
            StandInRoute(
                .delete, "/user/following/{username}", handler: StandInFollowChangeHandler(.unfollow),
                acceptedScopes: "user, user:follow"),
            StandInRoute(
                .get, "/user/blocks", handler: StandInBlocksHandler(operation: .list, blocks: blocks),
                acceptedScopes: "user"),
            StandInRoute(
                .put, "/user/blocks/{username}", handler: StandInBlocksHandler(operation: .block, blocks: blocks),
                acceptedScopes: "user"),
            StandInRoute(
                .delete, "/user/blocks/{username}", handler: StandInBlocksHandler(operation: .unblock, blocks: blocks),
                acceptedScopes: "user"),
            StandInRoute(.get, "/users/{login}/keys", "/user/{id:int}/keys", handler: StandInPublicKeysHandler()),
            StandInRoute(
                .get, "/users/{login}/ssh_signing_keys", "/user/{id:int}/ssh_signing_keys",
                handler: StandInSigningKeysHandler()),
            StandInRoute(.get, "/users/{login}/gpg_keys", "/user/{id:int}/gpg_keys", handler: StandInGPGKeysHandler()),
            StandInRoute(
                .get, "/users/{login}/social_accounts", "/user/{id:int}/social_accounts",
                handler: StandInSocialAccountsHandler()),
            StandInRoute(.get, "/users/{login}/orgs", "/user/{id:int}/orgs", handler: StandInOrganizationsHandler()),
            StandInRoute(.get, "/users/{login}/starred", "/user/{id:int}/starred", handler: StandInStarredHandler()),
            StandInRoute(.get, "/users/{login}/gists", "/user/{id:int}/gists", handler: StandInGistsHandler()),
            StandInRoute(
                .get, "/users/{login}/events/public", "/user/{id:int}/events/public",
                handler: StandInPublicEventsHandler()),
            StandInRoute(.get, "/search/users", handler: StandInUserSearchHandler(), rateResource: .search),
            StandInRoute(.post, "/graphql", handler: StandInGraphQLHandler(), rateResource: .graphql),
            // GitHub documents that checking the rate limit does not count against it, even when exhausted.
            StandInRoute(.get, "/rate_limit", handler: StandInRateLimitHandler(), rateResource: .free),
        ])
    }
}
