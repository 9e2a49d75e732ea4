/// Which account a token signs in as, and its OAuth scopes; every token is accepted.
///
/// Account: the first `_`-separated field after the prefix that is a login (`gho_octocat`, `ghp_Yamada-Taro_noscope`;
/// logins never contain `_`); any other token, a User account a hash of the token picks.
///
/// Scopes, by markers anywhere in the token (any case), first match wins: `noscope` none; `readonly` or `hide404`
/// `read:user`; else `repo, user`, as GitHub's own example. A `hide404` token is refused a missing scope with 404
/// instead of 403, as GitHub's REST troubleshooting guide says such a token may be.
package enum StandInTokens {
    package static func token(for login: String) -> String { "gho_" + login }

    /// Alphabetical, as `X-OAuth-Scopes` lists them.
    package static func scopes(forToken token: String) -> [String] {
        let lowercased = token.lowercased()
        if lowercased.contains("noscope") { return [] }
        if lowercased.contains("readonly") || hidesRefusals(token) { return ["read:user"] }
        return ["repo", "user"]
    }

    package static func hidesRefusals(_ token: String) -> Bool { token.lowercased().contains("hide404") }

    /// FNV-1a: stable across runs and platforms, unlike `Hasher`.
    static func hash(_ token: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in token.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}

extension StandInPopulation {
    /// Nil only for an empty population.
    package func authenticatedAccount(forToken token: String) -> StandInUser? {
        for field in token.split(separator: "_").dropFirst() {
            if let named = user(login: String(field)) { return named }
        }
        guard !users.isEmpty else { return nil }
        let start = Int(StandInTokens.hash(token) % UInt64(users.count))
        // Organizations and apps cannot sign in; octocat (ordinal 1) guarantees the walk finds a User.
        let walk = (0..<users.count).lazy.map { users[(start + $0) % users.count] }
        return walk.first { $0.type == "User" } ?? users[start]
    }
}
