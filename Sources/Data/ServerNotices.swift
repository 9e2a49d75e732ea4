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
    ///   refusal of the token (exit 4) but GitHub's answer (exit 1), with its reason and notice (helper-325). Only
    ///   at a repository's path (`/repos/…`, `/repositories/…`), with a reason in words, and never beside single
    ///   sign-on's header: a `block` anywhere else must not hide what would lift a refusal (helper-326).
    static func serverNotice(_ response: HTTPResponse, message: String) -> DomainError? {
        let status = response.status
        if status == 404, message.lowercased().hasPrefix("rate limiting is not enabled") {
            return .refused(
                "this server limits no requests: it answers GET /rate_limit with \"Rate limiting is not enabled.\" "
                    + "(HTTP 404), as GitHub Enterprise Server does until its administrator turns rate limits on")
        }
        guard status == 451 || status == 403, response.headers["X-GitHub-SSO"] == nil,
            response.url.pathComponents.contains(where: { $0 == "repos" || $0 == "repositories" }),
            response.body.count <= ResponseDecoder.maximumObjectBytes,
            let block = JSONText.value(at: ["block"], in: Array(response.body)), block.first == UInt8(ascii: "{"),
            JSONText.value(at: ["reason"], in: block)?.first == UInt8(ascii: "\""),
            !JSONText.text(of: "reason", in: block).isEmpty
        else { return nil }
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

    /// An error answer the client asked again for (a 5xx) says so, as a failure with no answer does: ", after 4
    /// attempts over 1.3 s", and how long the last answer's `Retry-After` asks to wait before the next: the
    /// client leaves one over a minute to its backoff (helper-326: the message said neither, so a user could not
    /// tell it was retried, nor when to come back). Nothing for an answer of one attempt.
    static func retried(_ response: HTTPResponse, limit: RateLimitInfo) -> String {
        guard response.attempts > 1 else { return "" }
        let tried = ", after " + attempts(response.attempts, over: response.elapsed)
        guard let wait = limit.retryAfter.value, wait > .zero else { return tried }
        return tried + "; GitHub asks for \(Int(wait.inSeconds.rounded(.up))) s before another (Retry-After)"
    }

    /// A 404 of an endpoint that names nothing (`GET /rate_limit`, `/search/users`, `/user`): no login or
    /// repository is missing, so it is not "not found" (exit 3, "no search results", which reads as an empty
    /// search) but a server that does not serve the endpoint, most likely another API's URL (exit 1;
    /// helper-326), as GraphQL's 404 is.
    static func unserved(_ endpoint: Endpoint, url: URL?, requestID: String?) -> DomainError {
        let asked = url.map { label($0, method: endpoint.method.rawValue) } ?? endpoint.path
        return .server(
            status: 404, message: "\(asked) was not found: this server does not serve it; check the API URL",
            requestID: requestID)
    }

    /// What a status means when GitHub's body says nothing readable (a proxy's HTML page, a captive portal's), in
    /// RFC 9110's words (and RFC 6585's, RFC 7725's): a status that is none of these is "unexpected" (helper-326:
    /// a bare 451 or 511 said no more than that).
    static func reasonPhrase(_ status: Int) -> String {
        reasonPhrases[status] ?? "unexpected status"
    }

    private static let reasonPhrases = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type",
        422: "Unprocessable Entity", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        451: "Unavailable For Legal Reasons", 500: "Internal Server Error", 501: "Not Implemented",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
        511: "Network Authentication Required: a network on the way (a captive portal) asks for a login",
    ]
}
