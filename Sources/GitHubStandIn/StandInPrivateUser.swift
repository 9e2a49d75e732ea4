// The `private-user` JSON below (the keys `GET /user` adds to the public profile, their order, and octocat's
// values) is GitHub's documented example `users-get-authenticated.private-user.json`
// (`private-user-response-with-public-and-private-profile-information`, the 200 of `GET /user`), from GitHub's
// OpenAPI description, github/rest-api-description (MIT License, Copyright (c) 2020 GitHub). Every other account's
// values are synthetic.

/// The fields only the account itself sees, through `GET /user`.
package struct StandInPrivateProfile: Sendable, Equatable {
    package var privateGists: Int
    package var totalPrivateRepos: Int
    package var ownedPrivateRepos: Int
    /// Kilobytes.
    package var diskUsage: Int
    package var collaborators: Int
    package var twoFactorAuthentication: Bool
    package var planName: String
    /// Kilobytes.
    package var planSpace: Int
    package var planPrivateRepos: Int
    package var planCollaborators: Int

    init(user: StandInUser) {
        let n = user.ordinal
        if n == 1 {
            self.init(
                privateGists: 81, totalPrivateRepos: 100, ownedPrivateRepos: 100, diskUsage: 10_000, collaborators: 8,
                twoFactorAuthentication: true, planName: "Medium", planSpace: 400, planPrivateRepos: 20,
                planCollaborators: 0)
            return
        }
        let total = (n * 11) % 30
        // GitHub's free and pro plans as live responses show them.
        let pro = n % 5 == 0
        self.init(
            privateGists: (n * 7) % 20, totalPrivateRepos: total, ownedPrivateRepos: n % 3 == 0 ? total / 2 : total,
            diskUsage: (n * 7_919) % 900_000, collaborators: n % 9, twoFactorAuthentication: n % 4 != 0,
            planName: pro ? "pro" : "free", planSpace: 976_562_499, planPrivateRepos: pro ? 9_999 : 10_000,
            planCollaborators: 0)
    }

    private init(
        privateGists: Int, totalPrivateRepos: Int, ownedPrivateRepos: Int, diskUsage: Int, collaborators: Int,
        twoFactorAuthentication: Bool, planName: String, planSpace: Int, planPrivateRepos: Int, planCollaborators: Int
    ) {
        self.privateGists = privateGists
        self.totalPrivateRepos = totalPrivateRepos
        self.ownedPrivateRepos = ownedPrivateRepos
        self.diskUsage = diskUsage
        self.collaborators = collaborators
        self.twoFactorAuthentication = twoFactorAuthentication
        self.planName = planName
        self.planSpace = planSpace
        self.planPrivateRepos = planPrivateRepos
        self.planCollaborators = planCollaborators
    }
}

extension StandInUser {
    package var privateProfile: StandInPrivateProfile {
        StandInPrivateProfile(user: self)
    }

    /// The `private-user` object of `GET /user`: the public profile, then the example's private keys in its order.
    package func privateUserJSON() -> String {
        String(decoding: privateUserJSONBytes(), as: UTF8.self)
    }

    /// `followCounts` and `edit` as for `publicUserJSONBytes(followCounts:edit:)`.
    package func privateUserJSONBytes(followCounts: StandInFollowCounts? = nil, edit: StandInProfileEdit? = nil)
        -> [UInt8]
    {
        let extra = privateProfile
        var writer = JSONByteWriter(reservingCapacity: 1_900)
        writePublicUserFields(into: &writer, followCounts: followCounts, edit: edit)
        writer.raw(",\"private_gists\":")
        writer.integer(extra.privateGists)
        writer.raw(",\"total_private_repos\":")
        writer.integer(extra.totalPrivateRepos)
        writer.raw(",\"owned_private_repos\":")
        writer.integer(extra.ownedPrivateRepos)
        writer.raw(",\"disk_usage\":")
        writer.integer(extra.diskUsage)
        writer.raw(",\"collaborators\":")
        writer.integer(extra.collaborators)
        writer.raw(",\"two_factor_authentication\":")
        writer.boolean(extra.twoFactorAuthentication)
        writer.raw(",\"plan\":{\"name\":")
        writer.string(extra.planName)
        writer.raw(",\"space\":")
        writer.integer(extra.planSpace)
        writer.raw(",\"private_repos\":")
        writer.integer(extra.planPrivateRepos)
        writer.raw(",\"collaborators\":")
        writer.integer(extra.planCollaborators)
        writer.raw("}}")
        return writer.bytes
    }
}
