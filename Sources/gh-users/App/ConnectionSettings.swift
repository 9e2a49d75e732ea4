import Foundation
import Networking

/// Which API root to talk to and with which token, resolved from flags and the environment without side
/// effects: the caller reads `--token-file` and passes its contents in.
struct ConnectionSettings: Sendable, Equatable {
    static let githubAPI = "https://api.github.com"

    let apiRoot: URL
    let token: String?

    /// `--api-url`, else `GH_USERS_API_URL`, else `GH_HOST` (github.com means the public API; any other host
    /// is GitHub Enterprise at `https://HOST/api/v3`), else api.github.com. The token is the token file's,
    /// else `GH_TOKEN`, else `GITHUB_TOKEN`; for a host other than github.com, `GH_ENTERPRISE_TOKEN` comes
    /// before those two.
    static func resolve(
        apiURL: String?,
        tokenFileContents: String? = nil,
        environment: [String: String]
    ) throws(UsageError) -> ConnectionSettings {
        let text: String
        if let apiURL = apiURL ?? nonEmpty(environment["GH_USERS_API_URL"]) {
            text = apiURL
        } else if let host = nonEmpty(environment["GH_HOST"]) {
            let bare = host.lowercased()
            text = (bare == "github.com" || bare == "api.github.com") ? githubAPI : "https://\(host)/api/v3"
        } else {
            text = githubAPI
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw UsageError(
                message: "invalid API URL '\(text)': expected http(s)://HOST[:PORT][/PATH]",
                command: nil
            )
        }
        let isGitHubDotCom = host.lowercased() == "api.github.com"
        var candidates = [environment["GH_TOKEN"], environment["GITHUB_TOKEN"]]
        if !isGitHubDotCom {
            candidates.insert(
                contentsOf: [environment["GH_ENTERPRISE_TOKEN"], environment["GITHUB_ENTERPRISE_TOKEN"]], at: 0)
        }
        if let tokenFileContents {
            let token = tokenFileContents.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty else {
                throw UsageError(message: "the token file is empty", command: nil)
            }
            guard !token.contains(where: { $0.isWhitespace || $0.isNewline }) else {
                throw UsageError(
                    message: "the token file holds more than one word; it should hold the token alone",
                    command: nil
                )
            }
            candidates.insert(token, at: 0)
        }
        let token = candidates.lazy.compactMap { nonEmpty($0?.trimmingCharacters(in: .whitespacesAndNewlines)) }.first
        if token != nil, !OriginPolicy.isSecureOrLoopback(url) {
            throw UsageError(
                message:
                    "refusing to send a token over plain http to \(host): use https (plain http is allowed for loopback only)",
                command: nil
            )
        }
        return ConnectionSettings(apiRoot: url, token: token)
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
