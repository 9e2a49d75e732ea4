import Domain

/// What a word given to a command that takes none was likely meant as, said after "unexpected argument": a new
/// user's `list octocat` means `show octocat`, `list 100` an id or a count, `emails octocat` someone else's
/// addresses, which GitHub shows to no one. Only a word that is a login or a number is ever echoed in a hint,
/// and a hint names only a command that takes it.
enum StrayArgument {
    /// The buckets GitHub's `/rate_limit` lists, which a person would name.
    static let resources: Set = [
        "core", "search", "graphql", "code_search", "integration_manifest", "source_import", "code_scanning_upload",
        "code_scanning_autofix", "actions_runner_registration", "scim", "dependency_snapshots", "dependency_sbom",
        "audit_log", "audit_log_streaming",
    ]

    static func hint(_ word: String, command: String) -> String? {
        let digits = !word.isEmpty && word.utf8.allSatisfy { (0x30...0x39).contains($0) }
        let number = digits ? Int64(word) : nil
        let isLogin = Login.isValid(word)
        // Digits were meant as a number, and `gh-users show me` would be an account named "me", not the token's.
        let showsAccount = isLogin && !digits && word.lowercased() != "me"
        switch command {
        case "list" where number.map { $0 >= 1 } == true:
            return "list takes no number: --since \(word) starts after that id, --limit \(word) stops after that many"
        case "list" where number == 0:
            return "list takes no number: --since 0 starts at the first account"
        case "list" where showsAccount:
            return "list pages through every account; for one, gh-users show \(word)"
        case "emails" where isLogin:
            return "emails lists the token's own addresses, as GitHub shows no one else's"
                + (showsAccount ? "; a public one is in gh-users show \(word)" : "")
        case "blocks" where showsAccount:
            return "blocks lists whom the token's account blocks, as GitHub shows no one else's; to block \(word), "
                + "gh-users block \(word)"
        case "rate-limit" where resources.contains(word.lowercased()):
            return "rate-limit shows every resource; for one, gh-users rate-limit --json | jq .resources."
                + word.lowercased()
        default:
            return nil
        }
    }
}
