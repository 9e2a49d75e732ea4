/// Which account a token signs in as, and which OAuth scopes it has. Every token is accepted; these rules only
/// decide who it is.
///
/// Account: the first `_`-separated field after the token's prefix that is a login of the population (ignoring
/// case) names the account: `gho_octocat` is octocat, `github_pat_Yamada-Taro` and `ghp_Yamada-Taro_noscope` are
/// Yamada-Taro. GitHub logins never contain `_`, so a field is never half a login. Any other token (`test-token`)
/// signs in as the first User account at or after the position a hash of the token picks, wrapping around, so
/// it is stable for the same token and population.
///
/// Scopes, by markers anywhere in the token (any case), first match wins:
/// - `noscope`: none (`X-OAuth-Scopes:` empty);
/// - `readonly` or `hide404`: `read:user` only, so it reads every profile but may not follow or unfollow;
/// - anything else: `repo, user`, the scopes of GitHub's own example of those headers.
///
/// Following and unfollowing need `user:follow` (or `user`, which includes it), as GitHub documents for OAuth
/// and classic tokens. A token without it gets 403 `Resource not accessible by personal access token`, unless it
/// contains `hide404`: then 404 `Not Found`, the answer GitHub's REST troubleshooting guide says a token that
/// lacks a scope or permission may get instead. So `gho_octocat_readonly` gets the 403,
/// `gho_octocat_hide404` the 404, and `gho_octocat_noscope_hide404` the 404 with no scopes at all.
package enum StandInTokens {
    /// The token that signs in as `login` with the default scopes.
    package static func token(for login: String) -> String {
        "gho_" + login
    }

    /// As `X-OAuth-Scopes` lists them: alphabetical.
    package static func scopes(forToken token: String) -> [String] {
        let lowercased = token.lowercased()
        if lowercased.contains("noscope") { return [] }
        if lowercased.contains("readonly") || hidesRefusals(token) { return ["read:user"] }
        return ["repo", "user"]
    }

    /// Whether a refused write gets 404 instead of 403 (see the type's comment).
    package static func hidesRefusals(_ token: String) -> Bool {
        token.lowercased().contains("hide404")
    }

    /// The fields that may name a login: all but the first, which is the token's prefix (`gho`, `ghp`, ...).
    static func candidateLogins(in token: String) -> ArraySlice<Substring> {
        token.split(separator: "_", omittingEmptySubsequences: true).dropFirst()
    }

    /// FNV-1a: stable across runs and platforms, unlike `Hasher`.
    static func hash(_ token: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in token.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}

extension StandInPopulation {
    /// The account `GET /user` answers for this token (see `StandInTokens`); nil only for an empty population.
    package func authenticatedAccount(forToken token: String) -> StandInUser? {
        for field in StandInTokens.candidateLogins(in: token) {
            if let named = user(login: String(field)) {
                return named
            }
        }
        guard !users.isEmpty else {
            return nil
        }
        let start = Int(StandInTokens.hash(token) % UInt64(users.count))
        // Organizations and apps cannot sign in; octocat (ordinal 1) guarantees the walk finds a User.
        for step in 0..<users.count {
            let candidate = users[(start + step) % users.count]
            if candidate.type == "User" {
                return candidate
            }
        }
        return users[start]
    }
}
