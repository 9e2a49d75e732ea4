import Domain

/// What a word given to a command that takes none was likely meant as, said after "unexpected argument": a new
/// user's `list octocat` means `show octocat`, `list 100` an id or a count, `emails octocat` someone else's
/// addresses, which GitHub shows to no one. Only a word that is a login or a number is ever echoed in a hint.
enum StrayArgument {
    /// The buckets of GitHub's `/rate_limit` a person would name.
    static let resources: Set = ["core", "search", "graphql", "code_search", "integration_manifest"]

    static func hint(_ word: String, command: String) -> String? {
        let isNumber = !word.isEmpty && word.utf8.allSatisfy { (0x30...0x39).contains($0) } && word.utf8.count <= 19
        let isLogin = Login.isValid(word)
        switch command {
        case "list" where isNumber:
            return "list takes no number: --since \(word) starts after that id, --limit \(word) stops after that many"
        case "list" where isLogin:
            return "list pages through every account; for one, gh-users show \(word)"
        case "emails" where isLogin:
            return "emails lists the token's own addresses, as GitHub shows no one else's; a public one is in "
                + "gh-users show \(word)"
        case "blocks" where isLogin:
            return "blocks lists whom the token's account blocks, as GitHub shows no one else's blocks"
        case "rate-limit" where resources.contains(word):
            return "rate-limit shows every resource; for one, gh-users rate-limit --json | jq .resources.\(word)"
        default:
            return nil
        }
    }
}
