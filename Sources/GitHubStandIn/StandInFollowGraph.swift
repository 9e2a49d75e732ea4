import Foundation

/// The follow graph as a running server serves it: the deterministic graph of `StandInSocialGraph.swift` plus
/// whatever `PUT` and `DELETE /user/following/{username}` (and blocks) changed since the server started.
///
/// Every read goes through here (both lists of every account, the 204/404 checks, the `followers` and `following`
/// counts of the profiles), so a write is seen by all of them at once. A list nobody wrote to is the base graph's;
/// a write stores its list whole.
///
/// Lists show the newest follow first, as GitHub's do: a new follower lands on page 1, so a client's cached
/// first page is never still valid after someone followed. One lock guards the written lists: a write changes
/// both sides in one step, and readers copy what they need under it and build their answer outside it.
package final class StandInFollowGraph: @unchecked Sendable {
    package let population: StandInPopulation

    private let lock = NSLock()
    /// The lists writes changed, by side and owner's ordinal: member ordinals, newest first.
    private var written: [StandInFollowRelation: [Int: [Int]]] = [:]
    /// New logins of renamed accounts, by ordinal (`rename(_:to:)`).
    private var renamed: [Int: String] = [:]

    package init(population: StandInPopulation) {
        self.population = population
    }

    /// The accounts that follow `user` now, newest follow first: what `GET /users/{user}/followers` pages through.
    package func followers(of user: StandInUser) -> [StandInUser] {
        members(.followers, of: user)
    }

    /// The accounts `user` follows now, newest first: what `GET /users/{user}/following` pages through.
    package func following(of user: StandInUser) -> [StandInUser] {
        members(.following, of: user)
    }

    /// Whether `GET /users/{follower}/following/{followed}` answers 204 now.
    package func follows(_ follower: StandInUser, _ followed: StandInUser) -> Bool {
        let written = lock.withLock { self.written[.following]?[follower.ordinal] }
        return written?.contains(followed.ordinal)
            ?? population.baseSequence(.following, of: follower).contains(ordinal: followed.ordinal)
    }

    /// The `followers` and `following` numbers `user`'s profile shows now: its base numbers moved by every
    /// write, so they stay the list lengths wherever the population is big enough for the base lists. A list
    /// nobody wrote to is not built: a profile read stays cheap for an account with thousands of followers.
    package func counts(of user: StandInUser) -> (followers: Int, following: Int) {
        let numbers = StandInProfileNumbers(ordinal: user.ordinal)
        func moved(_ relation: StandInFollowRelation) -> Int {
            guard let written = lock.withLock({ self.written[relation]?[user.ordinal] }) else { return 0 }
            return written.count - population.baseSequence(relation, of: user).count
        }
        return (numbers.followers + moved(.followers), numbers.following + moved(.following))
    }

    /// One side of `user`'s follow graph as it stands, newest first, under the members' logins now.
    func members(_ relation: StandInFollowRelation, of user: StandInUser) -> [StandInUser] {
        let (written, renamed) = lock.withLock { (self.written[relation]?[user.ordinal], self.renamed) }
        return (written ?? population.baseSequence(relation, of: user).ordinals).map { ordinal in
            var member = population.users[ordinal - 1]
            member.login = renamed[ordinal] ?? member.login
            return member
        }
    }

    /// `user` is listed under `login` from now on, in every follow list, with its id and place kept, as GitHub
    /// lists an account renamed since. Only the lists: `GET /users/{login}` still knows it by its old login.
    package func rename(_ user: StandInUser, to login: String) {
        lock.withLock { renamed[user.ordinal] = login }
    }

    /// `follower` starts following `followed`: it joins the front of `followed`'s followers and `followed` the
    /// front of `follower`'s following, where not already there. Following oneself changes nothing, as GitHub
    /// documents no answer for it but 204. Returns whether either list changed.
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

    /// `follower` stops following `followed`, on both sides. Returns whether either list changed.
    @discardableResult
    package func unfollow(_ follower: StandInUser, _ followed: StandInUser) -> Bool {
        change { edit in
            let followingChanged = edit(.following, follower, followed, false)
            return edit(.followers, followed, follower, false) || followingChanged
        }
    }

    /// Runs `body` under the lock with an edit that adds (at the front) or removes one member of one list,
    /// and says whether the list changed.
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
