/// A team's own members, without its child teams' (`team-members --direct`): REST's list has no such filter, so
/// Data asks GraphQL's `Team.members(membership: IMMEDIATE)`. Each member is written in REST's team-member shape
/// (its summary keys, then `role`: `member` or `maintainer`), so a script sees one shape either way.
package protocol TeamMembersRepository: Sendable {
    /// One page of at most `first` members; `role` is `MEMBER` or `MAINTAINER` (nil: both); `after` is the
    /// `next` of the page before (GraphQL's `endCursor`, opaque), nil for the first. An unknown organization
    /// or team is refused as REST refuses it (a 404 that may be a token that cannot see it).
    func directMembers(of team: TeamName, role: String?, first: Int, after: PageCursor?) async throws(DomainError)
        -> Page<User>
}
