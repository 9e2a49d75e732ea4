import Foundation

/// The follow graph as a running server serves it: the deterministic graph of `StandInSocialGraph.swift` plus
/// whatever `PUT` and `DELETE /user/following/{username}` changed since the server started.
///
/// Every read goes through here (both lists of every account, the 204/404 checks, the `followers` and `following`
/// counts of the profiles), so a write is seen by all of them at once. Only the edits are stored, per account and
/// side; a list nobody wrote to is served straight from the base graph, O(per_page) however long it is.
///
/// Lists show the newest follow first, as GitHub's do: a new follower lands on page 1, so a client's cached
/// first page is never still valid after someone followed. One lock guards the edits: a write changes both sides
/// in one step, and readers copy what they need under it and build their answer outside it.
package final class StandInFollowGraph: @unchecked Sendable {
    package let population: StandInPopulation

    private let lock = NSLock()
    private var edits: [ListKey: StandInFollowListEdits] = [:]
    /// New logins of renamed accounts, by ordinal (`rename(_:to:)`).
    private var renamed: [Int: String] = [:]

    private struct ListKey: Hashable {
        let relation: StandInFollowRelation
        let ordinal: Int
    }

    package init(population: StandInPopulation) {
        self.population = population
    }

    // MARK: - Reads

    /// The accounts that follow `user` now, newest follow first: what `GET /users/{user}/followers` pages through.
    package func followers(of user: StandInUser) -> [StandInUser] {
        list(.followers, of: user).allMembers()
    }

    /// The accounts `user` follows now, newest first: what `GET /users/{user}/following` pages through.
    package func following(of user: StandInUser) -> [StandInUser] {
        list(.following, of: user).allMembers()
    }

    /// Whether `GET /users/{follower}/following/{followed}` answers 204 now.
    package func follows(_ follower: StandInUser, _ followed: StandInUser) -> Bool {
        list(.following, of: follower).contains(followed)
    }

    /// Like `followers(of:)` by login (any case); empty for an unknown login.
    package func followers(of login: String) -> [StandInUser] {
        population.user(login: login).map { followers(of: $0) } ?? []
    }

    /// Like `following(of:)` by login (any case); empty for an unknown login.
    package func following(of login: String) -> [StandInUser] {
        population.user(login: login).map { following(of: $0) } ?? []
    }

    /// Like `follows(_:_:)` by logins (any case); false when either account does not exist, as the 404 says.
    package func follows(_ follower: String, _ followed: String) -> Bool {
        guard let follower = population.user(login: follower), let followed = population.user(login: followed) else {
            return false
        }
        return follows(follower, followed)
    }

    /// The `followers` and `following` numbers `user`'s profile shows now: its base numbers moved by every
    /// write, so they stay the list lengths wherever the population is big enough for the base lists.
    package func profileCounts(of user: StandInUser) -> StandInFollowCounts {
        let numbers = StandInProfileNumbers(ordinal: user.ordinal)
        let (followers, following) = lock.withLock {
            (
                edits[ListKey(relation: .followers, ordinal: user.ordinal)],
                edits[ListKey(relation: .following, ordinal: user.ordinal)]
            )
        }
        return StandInFollowCounts(
            followers: numbers.followers + (followers?.netChange ?? 0),
            following: numbers.following + (following?.netChange ?? 0))
    }

    /// One side of `user`'s follow graph as it stands, to page through without holding the lock.
    func list(_ relation: StandInFollowRelation, of user: StandInUser) -> StandInFollowList {
        let (edits, renamed) = lock.withLock {
            (self.edits[ListKey(relation: relation, ordinal: user.ordinal)], self.renamed)
        }
        return StandInFollowList(
            population: population, base: population.baseSequence(relation, of: user), edits: edits, renamed: renamed)
    }

    // MARK: - Writes

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
        return lock.withLock {
            let followingChanged = insert(followed, into: .following, of: follower)
            let followersChanged = insert(follower, into: .followers, of: followed)
            return followingChanged || followersChanged
        }
    }

    /// `follower` stops following `followed`, on both sides. Returns whether either list changed.
    @discardableResult
    package func unfollow(_ follower: StandInUser, _ followed: StandInUser) -> Bool {
        lock.withLock {
            let followingChanged = remove(followed, from: .following, of: follower)
            let followersChanged = remove(follower, from: .followers, of: followed)
            return followingChanged || followersChanged
        }
    }

    /// Call with the lock held.
    private func insert(_ member: StandInUser, into relation: StandInFollowRelation, of owner: StandInUser) -> Bool {
        let key = ListKey(relation: relation, ordinal: owner.ordinal)
        var list = edits[key] ?? StandInFollowListEdits()
        let inBase = population.baseSequence(relation, of: owner).index(ofMemberAt: member.ordinal - 1) != nil
        guard !list.added.contains(member.ordinal), !inBase || list.removed.contains(member.ordinal) else {
            return false
        }
        // A base member that was removed stays out of its base place and comes back as the newest.
        list.added.append(member.ordinal)
        edits[key] = list
        return true
    }

    /// Call with the lock held.
    private func remove(_ member: StandInUser, from relation: StandInFollowRelation, of owner: StandInUser) -> Bool {
        let key = ListKey(relation: relation, ordinal: owner.ordinal)
        var list = edits[key] ?? StandInFollowListEdits()
        if let index = list.added.firstIndex(of: member.ordinal) {
            list.added.remove(at: index)
        } else if population.baseSequence(relation, of: owner).index(ofMemberAt: member.ordinal - 1) != nil,
            list.removed.insert(member.ordinal).inserted
        {
            // Removed from its base place.
        } else {
            return false
        }
        // Back to no edits: the list is the base one again, served by the fast path.
        edits[key] = list.added.isEmpty && list.removed.isEmpty ? nil : list
        return true
    }
}

/// The `followers` and `following` numbers of a profile.
package struct StandInFollowCounts: Sendable, Equatable {
    package var followers: Int
    package var following: Int

    package init(followers: Int, following: Int) {
        self.followers = followers
        self.following = following
    }
}

/// What writes did to one list: members added (ordinals, oldest first) and base members removed (ordinals).
///
/// A member is in the list when it is in `added`, or in the base list and not in `removed`; a base member that
/// was unfollowed and followed again is in both, so it shows once, among the newest.
struct StandInFollowListEdits: Sendable {
    var added: [Int] = []
    var removed: Set<Int> = []

    /// How much longer than its base the list is.
    var netChange: Int { added.count - removed.count }
}

/// One list as it stood when it was read: the base sequence and a copy of its edits.
struct StandInFollowList {
    let population: StandInPopulation
    let base: StandInFollowSequence
    let edits: StandInFollowListEdits?
    /// New logins by ordinal: see `StandInFollowGraph.rename(_:to:)`.
    var renamed: [Int: String] = [:]

    var count: Int { base.count + (edits?.netChange ?? 0) }

    func contains(_ user: StandInUser) -> Bool {
        if let edits {
            if edits.added.contains(user.ordinal) {
                return true
            }
            if edits.removed.contains(user.ordinal) {
                return false
            }
        }
        return base.index(ofMemberAt: user.ordinal - 1) != nil
    }

    func allMembers() -> [StandInUser] {
        members(in: 0..<count)
    }

    /// The members at `positions` (0-based, clamped to the list): the added ones newest first, then the base
    /// list without the removed ones.
    func members(in positions: Range<Int>) -> [StandInUser] {
        let lower = min(max(0, positions.lowerBound), count)
        let upper = min(max(lower, positions.upperBound), count)
        guard let edits else {
            return (lower..<upper).map { member(ordinal: base.memberPosition(at: $0) + 1) }
        }
        var result: [StandInUser] = []
        result.reserveCapacity(upper - lower)
        var position = lower
        while position < upper, position < edits.added.count {
            result.append(member(ordinal: edits.added[edits.added.count - 1 - position]))
            position += 1
        }
        guard position < upper else {
            return result
        }
        // The base index of the first wanted survivor: every removed index at or before it pushes it one further.
        var baseIndex = position - edits.added.count
        let removedIndices = edits.removed.compactMap { base.index(ofMemberAt: $0 - 1) }.sorted()
        for removed in removedIndices {
            guard removed <= baseIndex else {
                break
            }
            baseIndex += 1
        }
        let removedSet = Set(removedIndices)
        while position < upper, baseIndex < base.count {
            if !removedSet.contains(baseIndex) {
                result.append(member(ordinal: base.memberPosition(at: baseIndex) + 1))
                position += 1
            }
            baseIndex += 1
        }
        return result
    }

    private func member(ordinal: Int) -> StandInUser {
        let user = population.users[ordinal - 1]
        guard let login = renamed[ordinal] else { return user }
        var copy = user
        copy.login = login
        return copy
    }
}
