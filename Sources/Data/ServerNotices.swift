import Domain
import Foundation
import JSONBytes
import Networking

extension ErrorMapping {
    /// An error status that says something of the server or of what was asked, not of the request or the token:
    /// nil for any other.
    /// - GitHub Enterprise Server's `/rate_limit` while its administrator has not turned rate limits on (the
    ///   default) is a 404 "Rate limiting is not enabled.": the server exists and limits nothing, which is not
    ///   "no such thing" (exit 3).
    /// - A repository GitHub has blocked (a DMCA takedown, a breach of its terms) is a 451, or a 403, whose body
    ///   carries a `block` with its `reason` and the notice's `html_url` (gh4a#651 quotes GitHub's answer for a
    ///   DMCA'd repository; octokit.rb raises `RepositoryUnavailable` for it): no token lifts that, so it is no
    ///   refusal of the token (exit 4) but GitHub's answer (exit 1), with its reason and notice (helper-325).
    static func serverNotice(_ response: HTTPResponse, message: String) -> DomainError? {
        let status = response.status
        if status == 404, message.lowercased().hasPrefix("rate limiting is not enabled") {
            return .refused(
                "this server limits no requests: it answers GET /rate_limit with \"Rate limiting is not enabled.\" "
                    + "(HTTP 404), as GitHub Enterprise Server does until its administrator turns rate limits on")
        }
        guard status == 451 || status == 403, response.body.count <= ResponseDecoder.maximumObjectBytes else {
            return nil
        }
        let body = Array(response.body)
        guard let block = JSONText.value(at: ["block"], in: body), block.first == UInt8(ascii: "{") else {
            return nil
        }
        let said = [("reason", 40), ("html_url", 300)].compactMap { key, length -> String? in
            let text = JSONText.text(of: key, in: block)
            guard !text.isEmpty else { return nil }
            return text.count > length ? text.prefix(length - 1) + "…" : text
        }
        return .server(
            status: status,
            message: message + (said.isEmpty ? "" : " (" + said.joined(separator: ": ") + ")")
                + "; GitHub blocks this repository for everyone, and no token lifts that")
    }
}
