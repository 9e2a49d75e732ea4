// The `event` JSON below (key names, key order, the actor and repo objects, the WatchEvent and PushEvent payloads)
// and octocat's two events are GitHub's documented example `activity-list-public-events-for-user.json`
// (`user-public-events-items`, the 200 of `GET /users/{username}/events/public`), from GitHub's OpenAPI description,
// github/rest-api-description (MIT License, Copyright (c) 2020 GitHub). The example's actor is the real octocat (id
// 583231); here the actor is always the population's account, so octocat's events show id 1 like its profile.
// Every other event is synthetic.

/// What happened, with the payload fields GitHub sends for that type.
package enum StandInEventPayload: Sendable, Equatable {
    /// `WatchEvent`: a star.
    case watch
    /// `PushEvent`, in the example's (current, trimmed) form.
    case push(repositoryID: Int, pushID: Int, ref: String, head: String, before: String)
    /// `CreateEvent`: a branch or tag (`ref`), or the repository itself (`ref` nil).
    case create(ref: String?, refType: String, masterBranch: String, description: String?)
    /// `DeleteEvent`: a branch or tag.
    case delete(ref: String, refType: String)

    package var type: String {
        switch self {
        case .watch: "WatchEvent"
        case .push: "PushEvent"
        case .create: "CreateEvent"
        case .delete: "DeleteEvent"
        }
    }

    func write(into writer: inout JSONByteWriter) {
        switch self {
        case .watch:
            writer.raw("{\"action\":\"started\"}")
        case .push(let repositoryID, let pushID, let ref, let head, let before):
            writer.raw("{\"repository_id\":")
            writer.integer(repositoryID)
            writer.raw(",\"push_id\":")
            writer.integer(pushID)
            writer.raw(",\"ref\":")
            writer.string(ref)
            writer.raw(",\"head\":")
            writer.string(head)
            writer.raw(",\"before\":")
            writer.string(before)
            writer.raw("}")
        case .create(let ref, let refType, let masterBranch, let description):
            writer.raw("{\"ref\":")
            writer.optionalString(ref)
            writer.raw(",\"ref_type\":")
            writer.string(refType)
            writer.raw(",\"master_branch\":")
            writer.string(masterBranch)
            writer.raw(",\"description\":")
            writer.optionalString(description)
            writer.raw(",\"pusher_type\":\"user\"}")
        case .delete(let ref, let refType):
            writer.raw("{\"ref\":")
            writer.string(ref)
            writer.raw(",\"ref_type\":")
            writer.string(refType)
            writer.raw(",\"pusher_type\":\"user\"}")
        }
    }
}

/// One entry of `GET /users/{username}/events/public`.
package struct StandInEvent: Sendable, Equatable, StandInRecord {
    /// A decimal number in a string, as GitHub sends event ids.
    package let id: String
    package let actor: StandInUser
    package let repositoryID: Int
    /// `owner/name`.
    package let repositoryName: String
    package let payload: StandInEventPayload
    /// Unix seconds.
    package let createdAt: Int

    package var type: String { payload.type }

    package func write(into writer: inout JSONByteWriter) {
        writer.raw("{\"id\":")
        writer.string(id)
        writer.raw(",\"type\":\"")
        writer.unescaped(type)
        writer.raw("\",\"actor\":{\"id\":")
        writer.integer(actor.id)
        writer.raw(",\"login\":")
        writer.string(actor.login)
        writer.raw(",\"display_login\":")
        writer.string(actor.login)
        writer.raw(",\"gravatar_id\":\"\",\"url\":\"https://api.github.com/users/")
        writer.unescaped(actor.loginPathComponent)
        writer.raw("\",\"avatar_url\":\"")
        writer.unescaped(actor.avatarURL)
        writer.raw("\"},\"repo\":{\"id\":")
        writer.integer(repositoryID)
        writer.raw(",\"name\":")
        writer.string(repositoryName)
        writer.raw(",\"url\":\"https://api.github.com/repos/")
        writer.unescaped(repositoryName)
        writer.raw("\"},\"payload\":")
        payload.write(into: &writer)
        writer.raw(",\"public\":true,\"created_at\":")
        writer.string(UTCTimestamp.iso8601(createdAt))
        writer.raw("}")
    }
}

extension StandInPopulation {
    private static let eventSalt: UInt64 = 0x6576_6E74
    /// Event ids are `base + (ordinal - 1) * 1_000 + sequence` (sequence 0 = oldest), so newer means larger.
    static let eventIDBase = 40_000_000_000

    static func publicEventCount(of user: StandInUser) -> Int {
        switch user.ordinal {
        case 1:
            return 2
        case StandInSurfaceAccounts.manyEventsOrdinal:
            return StandInSurfaceAccounts.manyEventsCount
        default:
            // Organizations and apps have no activity of their own here.
            return user.type == "User" ? (user.ordinal * 11) % 40 : 0
        }
    }

    /// Every public event of the account, newest first, including any beyond GitHub's 300-event window
    /// (`Endpoint.publicEvents`'s cap): the API serves `publicEvents(of:).prefix(300)`.
    package func publicEvents(of user: StandInUser) -> [StandInEvent] {
        let count = Self.publicEventCount(of: user)
        return (0..<count).map { publicEvent(of: user, position: $0, count: count) }
    }

    /// The event at `position` (0 = newest) of an account with `count` events; built alone so a page costs
    /// O(per_page).
    func publicEvent(of user: StandInUser, position: Int, count: Int) -> StandInEvent {
        if user.ordinal == 1 {
            return Self.octocatEvents(user)[position]
        }
        let sequence = count - 1 - position
        let id = Self.eventIDBase + (user.ordinal - 1) * 1_000 + sequence
        var random = StandInSeededBytes(seed: id, salt: Self.eventSalt)
        // The newest event is in mid-2024; each older one is 10 hours earlier, give or take 8, so order is strict.
        let createdAt = 1_717_200_000 + (user.ordinal % 1_000) * 3_600 - position * 36_000 - random.next(below: 30_000)
        let kind = random.next(below: 8)
        let own = ownedRepositoryCount(of: user)
        if kind < 2 || own == 0 {
            let starred = someRepository(seed: random.next(below: 1 << 30))
            return StandInEvent(
                id: String(id), actor: user, repositoryID: starred.id, repositoryName: starred.fullName,
                payload: .watch, createdAt: createdAt)
        }
        let repository = StandInRepository(owner: user, index: random.next(below: own))
        let payload: StandInEventPayload
        switch kind {
        case 2:
            let tag = random.next(below: 2) == 0
            payload = .create(
                ref: tag ? "v\(1 + sequence / 10).\(sequence % 10).0" : "feature/change-\(sequence)",
                refType: tag ? "tag" : "branch", masterBranch: repository.defaultBranch,
                description: repository.description)
        case 3:
            payload = .delete(ref: "feature/change-\(max(0, sequence - 1))", refType: "branch")
        default:
            payload = .push(
                repositoryID: repository.id, pushID: 10_000_000_000 + id % 1_000_000_000 * 7,
                ref: "refs/heads/" + repository.defaultBranch, head: random.hex(bytes: 20),
                before: random.hex(bytes: 20))
        }
        return StandInEvent(
            id: String(id), actor: user, repositoryID: repository.id, repositoryName: repository.fullName,
            payload: payload, createdAt: createdAt)
    }

    /// A repository somewhere in the population, for stars seen as events; octocat's Hello-World if the walk finds
    /// no owner with repositories (only possible in tiny populations).
    private func someRepository(seed: Int) -> StandInRepository {
        for step in 0..<min(users.count, 50) {
            let owner = users[(seed + step * 7) % users.count]
            let owned = ownedRepositoryCount(of: owner)
            if owned > 0 {
                return StandInRepository(owner: owner, index: seed % owned)
            }
        }
        return StandInRepository(owner: users[0], index: 0)
    }

    /// The example's two events, in its order (which is newest first by `created_at`, though not by id).
    private static func octocatEvents(_ octocat: StandInUser) -> [StandInEvent] {
        [
            StandInEvent(
                id: "22249084947", actor: octocat, repositoryID: 1_296_269, repositoryName: "octocat/Hello-World",
                payload: .watch, createdAt: 1_654_778_848),
            StandInEvent(
                id: "22249084964", actor: octocat, repositoryID: 1_296_269, repositoryName: "octocat/Hello-World",
                payload: .push(
                    repositoryID: 1_296_269, pushID: 10_115_855_396, ref: "refs/heads/master",
                    head: "7a8f3ac80e2ad2f6842cb86f576d4bfe2c03e300",
                    before: "883efe034920928c47fe18598c01249d1a9fdabd"),
                createdAt: 1_654_730_965),
        ]
    }
}
