// octocat's social account is GitHub's documented example `users-list-social-accounts-for-user.json`
// (`social-account-items`, the 200 of `GET /users/{username}/social_accounts`), from GitHub's OpenAPI description,
// github/rest-api-description (MIT License, Copyright (c) 2020 GitHub). Every other account is synthetic.

/// One entry of `GET /users/{username}/social_accounts`.
package struct StandInSocialAccount: Sendable, Equatable, StandInRecord {
    /// GitHub's provider name: `twitter`, `linkedin`, `mastodon`, `youtube`, or `generic` for any other site.
    package let provider: String
    package let url: String

    package func write(into writer: inout JSONByteWriter) {
        writer.raw("{\"provider\":")
        writer.string(provider)
        writer.raw(",\"url\":")
        writer.string(url)
        writer.raw("}")
    }
}

extension StandInPopulation {
    /// Up to three per account, bots excepted. An account with a `twitter_username` lists that handle first, so the
    /// profile and the list agree; octocat has the example's single entry (which names GitHub's own handle, not the
    /// profile's `monatheoctocat`).
    package func socialAccounts(of user: StandInUser) -> [StandInSocialAccount] {
        if user.ordinal == 1 {
            return [StandInSocialAccount(provider: "twitter", url: "https://twitter.com/github")]
        }
        let count = user.type == "Bot" ? 0 : user.ordinal % 4
        guard count > 0 else {
            return []
        }
        let handle = user.login.lowercased()
        var accounts: [StandInSocialAccount] = []
        if let twitter = user.profile.twitterUsername {
            accounts.append(StandInSocialAccount(provider: "twitter", url: "https://twitter.com/\(twitter)"))
        }
        let others = [
            StandInSocialAccount(provider: "linkedin", url: "https://www.linkedin.com/in/\(handle)"),
            StandInSocialAccount(provider: "mastodon", url: "https://mastodon.social/@\(handle)"),
            StandInSocialAccount(provider: "youtube", url: "https://www.youtube.com/@\(handle)"),
            StandInSocialAccount(provider: "generic", url: "https://\(handle).example.net/about"),
        ]
        var next = user.ordinal % others.count
        while accounts.count < count {
            accounts.append(others[next])
            next = (next + 1) % others.count
        }
        return accounts
    }
}
