import Foundation

/// What writes change about accounts, as a server serves them: the population's follow graph (`baseOrdinals`) plus
/// what follows, unfollows and blocks changed, and the profiles `PATCH /user` edited. Every read (lists, checks,
/// profiles and their counts) goes through here, so a write is seen by all at once. A list nobody wrote to is
/// computed; a write stores its list whole, newest follow first, as GitHub lists them, so a cached first page is
/// never still valid after someone followed.
package final class StandInFollowGraph: @unchecked Sendable {
    package let population: StandInPopulation

    private let lock = NSLock()
    private var written: [StandInFollowRelation: [Int: [Int]]] = [:]
    private var renamed: [Int: String] = [:]
    /// The profiles `PATCH /user` changed, by account.
    private var edited: [Int: StandInUserProfile] = [:]

    package init(population: StandInPopulation) { self.population = population }

    package func followers(of user: StandInUser) -> [StandInUser] { members(.followers, of: user) }

    package func following(of user: StandInUser) -> [StandInUser] { members(.following, of: user) }

    package func follows(_ follower: StandInUser, _ followed: StandInUser) -> Bool {
        let written = lock.withLock { self.written[.following]?[follower.ordinal] }
        return (written ?? population.baseOrdinals(.following, of: follower)).contains(followed.ordinal)
    }

    /// The account's profile as `PATCH /user` left it, with its counts as follows left them.
    package func profile(of user: StandInUser) -> StandInUserProfile {
        var profile = lock.withLock { edited[user.ordinal] } ?? user.profile
        (profile.followers, profile.following) = counts(of: user)
        return profile
    }

    func record(_ edit: StandInProfileEdit, for user: StandInUser, now: Int) {
        lock.withLock { edit.apply(to: &edited[user.ordinal, default: user.profile], now: now) }
    }

    /// The profile's numbers moved by every write, without building a list nobody wrote to.
    package func counts(of user: StandInUser) -> (followers: Int, following: Int) {
        let numbers = StandInProfileNumbers(ordinal: user.ordinal)
        func moved(_ relation: StandInFollowRelation) -> Int {
            guard let written = lock.withLock({ self.written[relation]?[user.ordinal] }) else { return 0 }
            return written.count - population.baseOrdinals(relation, of: user).count
        }
        return (numbers.followers + moved(.followers), numbers.following + moved(.following))
    }

    func members(_ relation: StandInFollowRelation, of user: StandInUser) -> [StandInUser] {
        let (written, renamed) = lock.withLock { (self.written[relation]?[user.ordinal], self.renamed) }
        return (written ?? population.baseOrdinals(relation, of: user)).map { ordinal in
            var member = population.users[ordinal - 1]
            member.login = renamed[ordinal] ?? member.login
            return member
        }
    }

    /// `user` is listed under `login` from now on, in the follow lists only, as GitHub lists an account renamed.
    package func rename(_ user: StandInUser, to login: String) { lock.withLock { renamed[user.ordinal] = login } }

    /// `owner` adds `member` to their `following` (and so themselves to `member`'s `followers`) or `blocks`, or takes
    /// them off. Nobody follows or blocks themselves: GitHub documents no answer for it but 204. The graph is the
    /// population's: the world's organizations (ordinal 0) are in no list. A block ends every follow between the
    /// two, as on GitHub. True when a list changed.
    @discardableResult
    package func change(_ relation: StandInFollowRelation, _ owner: StandInUser, _ member: StandInUser, adding: Bool)
        -> Bool
    {
        guard owner.ordinal != member.ordinal, member.ordinal > 0 else { return false }
        return lock.withLock {
            // Adds `member` (newest follow first, blocks in the order given) or removes them, on one list.
            func edit(_ relation: StandInFollowRelation, _ owner: StandInUser, _ member: StandInUser, _ adding: Bool)
                -> Bool
            {
                var list = written[relation]?[owner.ordinal] ?? population.baseOrdinals(relation, of: owner)
                let index = list.firstIndex(of: member.ordinal)
                guard adding == (index == nil) else { return false }
                if let index {
                    list.remove(at: index)
                } else {
                    list.insert(member.ordinal, at: relation == .blocks ? list.count : 0)
                }
                written[relation, default: [:]][owner.ordinal] = list
                return true
            }
            for (one, other) in [(owner, member), (member, owner)] where relation == .blocks && adding {
                _ = edit(.following, one, other, false)
                _ = edit(.followers, other, one, false)
            }
            guard relation == .following else { return edit(relation, owner, member, adding) }
            // An account that blocked `owner` cannot be followed by it (GitHub's "Blocking a user from your
            // personal account"); the write is still answered 204.
            if adding, written[.blocks]?[member.ordinal]?.contains(owner.ordinal) == true { return false }
            let followingChanged = edit(.following, owner, member, adding)
            return edit(.followers, member, owner, adding) || followingChanged
        }
    }
}
