/// Where a session's token came from (`GH_TOKEN`, the token file), and the variables a token is looked for in,
/// in order: for a GitHub Enterprise host, `GH_ENTERPRISE_TOKEN` and `GITHUB_ENTERPRISE_TOKEN` come first.
struct TokenOrigin: Sendable, Equatable {
    var source: String? = "GH_TOKEN or GITHUB_TOKEN"
    var variables = ["GH_TOKEN", "GITHUB_TOKEN"]
    /// The GitHub Enterprise host the API root names, which takes only the enterprise variables.
    var enterpriseHost: String?

    /// `GH_TOKEN or GITHUB_TOKEN`; `A, B, C or D`.
    var variablesText: String {
        guard let last = variables.last else { return "GH_TOKEN" }
        let rest = variables.dropLast()
        return rest.isEmpty ? last : rest.joined(separator: ", ") + " or " + last
    }
}
