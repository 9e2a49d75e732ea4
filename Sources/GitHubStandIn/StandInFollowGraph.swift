import Foundation

/// The follow graph as a server serves it: the population's base graph (`baseSequence`) plus what follows,
/// unfollows and blocks changed. Every read (lists, checks, profile counts) goes through here, so a write is seen
/// by all at once. A list nobody wrote to is computed; a write stores its list whole, newest follow first, as
/// GitHub lists them, so a cached first page is never still valid after someone followed.
package final class StandInFollowGraph: @unchecked Sendable {
    package let population: StandInPopulation

    private let lock = NSLock()
    private var written: [StandInFollowRelation: [Int: [Int]]] = [:]
    private var renamed: [Int: String] = [:]

    package init(population: StandInPopulation) {
        self.population = population
    }

    package func followers(of user: StandInUser) -> [StandInUser] {
        members(.followers, of: user)
    }

    package func following(of user: StandInUser) -> [StandInUser] {
        members(.following, of: user)
    }

    package func follows(_ follower: StandInUser, _ followed: StandInUser) -> Bool {
        let written = lock.withLock { self.written[.following]?[follower.ordinal] }
        return written?.contains(followed.ordinal)
            ?? population.baseSequence(.following, of: follower).contains(ordinal: followed.ordinal)
    }

    /// The profile's numbers moved by every write, without building a list nobody wrote to.
    package func counts(of user: StandInUser) -> (followers: Int, following: Int) {
        let numbers = StandInProfileNumbers(ordinal: user.ordinal)
        func moved(_ relation: StandInFollowRelation) -> Int {
            guard let written = lock.withLock({ self.written[relation]?[user.ordinal] }) else { return 0 }
            return written.count - population.baseSequence(relation, of: user).count
        }
        return (numbers.followers + moved(.followers), numbers.following + moved(.following))
    }

    func members(_ relation: StandInFollowRelation, of user: StandInUser) -> [StandInUser] {
        let (written, renamed) = lock.withLock { (self.written[relation]?[user.ordinal], self.renamed) }
        return (written ?? population.baseSequence(relation, of: user).ordinals).map { ordinal in
            var member = population.users[ordinal - 1]
            member.login = renamed[ordinal] ?? member.login
            return member
        }
    }

    /// `user` is listed under `login` from now on, in the follow lists only, as GitHub lists an account renamed.
    package func rename(_ user: StandInUser, to login: String) {
        lock.withLock { renamed[user.ordinal] = login }
    }

    /// Following oneself changes nothing: GitHub documents no answer for it but 204. True when a list changed.
    @discardableResult
    package func follow(_ follower: StandInUser, _ followed: StandInUser) -> Bool {
        guard follower.ordinal != followed.ordinal else {
            return false
        }
        return change { edit in
            let followingChanged = edit(.following, follower, followed, true)
            return edit(.followers, followed, follower, true) || followingChanged
        }
    }

    @discardableResult
    package func unfollow(_ follower: StandInUser, _ followed: StandInUser) -> Bool {
        change { edit in
            let followingChanged = edit(.following, follower, followed, false)
            return edit(.followers, followed, follower, false) || followingChanged
        }
    }

    /// `body` under the lock, with an edit that adds (at the front) or removes one member of one list.
    private func change(
        _ body: ((StandInFollowRelation, StandInUser, StandInUser, Bool) -> Bool) -> Bool
    ) -> Bool {
        lock.withLock {
            body { relation, owner, member, adding in
                var list = written[relation]?[owner.ordinal] ?? population.baseSequence(relation, of: owner).ordinals
                let index = list.firstIndex(of: member.ordinal)
                guard adding == (index == nil) else {
                    return false
                }
                if let index { list.remove(at: index) } else { list.insert(member.ordinal, at: 0) }
                written[relation, default: [:]][owner.ordinal] = list
                return true
            }
        }
    }
}
