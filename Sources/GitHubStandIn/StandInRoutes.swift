import Domain

extension StandInRouteTable {
    /// Every resource the stand-in serves, one row per endpoint of the shared table: those with behaviour of their
    /// own first, then every other row with a body in `Bodies`. The first matching row wins.
    static func gitHub() -> StandInRouteTable {
        let membership = StandInWorldWriteHandler(operation: .membership)
        let handled = [
            // First because it is the benchmarked path and must not pay for the other comparisons.
            StandInRoute(.listUsers, handler: StandInUsersListHandler()),
            // Its `/user/{account_id}` form is `Endpoint.userByID`. GitHub's documentation names `user` here.
            StandInRoute(.user, handler: StandInUserHandler(), acceptedScopes: "user"),
            StandInRoute(
                .authenticatedUser, handler: StandInUserHandler(signedIn: true), acceptedScopes: "user"),
            StandInRoute(.updateAuthenticatedUser, handler: StandInProfileEditHandler()),
            StandInRoute(.followers, handler: StandInFollowHandler(relation: .followers)),
            StandInRoute(.following, handler: StandInFollowHandler(relation: .following)),
            StandInRoute(.ownFollowers, handler: StandInFollowHandler(relation: .followers, signedIn: true)),
            StandInRoute(.ownFollowing, handler: StandInFollowHandler(relation: .following, signedIn: true)),
            StandInRoute(.checkFollowing, handler: StandInFollowCheckHandler()),
            StandInRoute(.follow, handler: StandInFollowChangeHandler(relation: .following, adding: true)),
            StandInRoute(.unfollow, handler: StandInFollowChangeHandler(relation: .following, adding: false)),
            StandInRoute(.blocks, handler: StandInFollowHandler(relation: .blocks, signedIn: true)),
            StandInRoute(.block, handler: StandInFollowChangeHandler(relation: .blocks, adding: true)),
            StandInRoute(.unblock, handler: StandInFollowChangeHandler(relation: .blocks, adding: false)),
            StandInRoute(.searchUsers, handler: StandInUserSearchHandler()),
            StandInRoute(.post, ["/graphql"], handler: StandInGraphQLHandler(), rateResource: .graphql),
            // GitHub documents that checking the rate limit does not count against it, even when exhausted.
            StandInRoute(.rateLimitStatus, handler: StandInRateLimitHandler()),
            StandInRoute(.put, ["/orgs/{org}/memberships/{username}"], handler: membership),
            StandInRoute(
                .patch, ["/user/memberships/orgs/{org}"], handler: StandInWorldWriteHandler(operation: .joining)),
            StandInRoute(.delete, ["/orgs/{org}/members/{username}"], handler: membership.removing),
            // Retired in July 2026: 204 for everyone. The token's own list is still served.
            StandInRoute(.subscriptions, handler: StandInRetiredListHandler()),
        ]
        // The world's lists; since July 2026 its stargazers and watchers only to a repository's admins and
        // collaborators, and REST's stargazers stop at 40,000.
        let world = StandInWorldListHandler.endpoints.map {
            StandInRoute($0, handler: StandInWorldListHandler(list: $0))
        }
        // What GitHub's web UI changes, for `Scripts/try --world`: PUT adds, DELETE takes away.
        let worldWrites: [(StandInWorldWriteHandler.Operation, String)] = [
            (.star, "/user/starred/{owner}/{repo}"),
            (.teamGrant, "/orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}"),
            (.collaborator, "/repos/{owner}/{repo}/collaborators/{username}"),
        ]
        let accept = StandInWorldWriteHandler(operation: .acceptInvitation)
        let behaviour =
            handled + world
            + worldWrites.flatMap { operation, path in
                [
                    StandInRoute(.put, [path], handler: StandInWorldWriteHandler(operation: operation)),
                    StandInRoute(.delete, [path], handler: StandInWorldWriteHandler(operation: operation).removing),
                ]
            } + [StandInRoute(.patch, ["/user/repository_invitations/{invitation_id:int}"], handler: accept)]
        // `.user` answers `/user/{account_id}` too, as its account-scoped second pattern.
        let answered = Set(behaviour.compactMap(\.operationID) + [Endpoint.userByID.operationID])
        return StandInRouteTable(
            routes: behaviour
                + Endpoint.all.filter { !answered.contains($0.operationID) }.compactMap { row in
                    StandInRecordedHandler(row).map { StandInRoute(row, handler: $0) }
                })
    }
}
