import Domain
import Foundation
import Networking

/// The one translation of HTTP outcomes into `DomainError`, so nothing above Data sees an HTTP type.
enum ErrorMapping {
    /// `endpoint` names the request ("GET /users?since=0&per_page=30") for failures that are about its answer.
    static func domainError(for error: TransportError, endpoint: String) -> DomainError {
        switch error {
        case .cancelled:
            return .cancelled
        case .responseTooLarge(let limit):
            return .malformedResponse(
                endpoint: endpoint,
                detail: "the body is larger than the \(byteCount(limit)) limit, so it was not read to its end "
                    + "(GH_USERS_MAX_RESPONSE_BYTES raises the limit)"
            )
        default:
            return .network(describe(error))
        }
    }

    /// One line for the common failures; TLS failures add a second line that says what to check. Text that
    /// came from the network (libcurl quotes the certificate's names) is kept to one line here, so the only
    /// line breaks are our own; ErrorPresenter sanitises each line for the terminal.
    static func describe(_ error: TransportError) -> String {
        switch error {
        case .cannotConnect(let detail): return "cannot connect: \(oneLine(detail))"
        case .timedOut: return "the request timed out"
        case .connectionLost: return "the connection was lost"
        case .truncatedBody: return "the response was cut short"
        case .cancelled: return "cancelled"
        case .tls(let failure, let host, let detail):
            return describe(failure, host: oneLine(host), detail: oneLine(detail))
        case .responseTooLarge(let limit): return "the response is larger than the \(byteCount(limit)) limit"
        case .redirectRefused(let target):
            return "the server redirected to \(oneLine(target)), which is not http or https, so it was not followed"
        case .other(let detail): return oneLine(detail)
        }
    }

    private static func describe(_ failure: TLSFailure, host: String, detail: String) -> String {
        switch failure {
        case .untrustedCertificate:
            return "the TLS certificate of \(host) is not trusted (\(detail))\n"
                + "If a corporate proxy or a private certificate authority signs it, add that CA to the system store "
                + "(Debian, Ubuntu: copy it to /usr/local/share/ca-certificates/ and run update-ca-certificates)."
        case .nameMismatch:
            return "the TLS certificate of \(host) is for another name (\(detail))\n"
                + "Check the host in --api-url or GH_HOST; a proxy that inspects TLS must issue certificates "
                + "for the host asked for."
        case .handshake:
            return "the TLS handshake with \(host) failed (\(detail))\n"
                + "Check that the API URL is https on a port that speaks TLS, and whether a proxy in between "
                + "intercepts TLS."
        }
    }

    /// nil for a success status. `now` dates a `Retry-After` given in seconds.
    static func domainError(for response: HTTPResponse, resource: String, now: Date = Date()) -> DomainError? {
        let status = response.status
        if (200..<300).contains(status) { return nil }
        let message = githubMessage(response) ?? ErrorMapping.reasonPhrase(status)
        let limit = RateLimitInfo(response, now: now)
        let endpoint = label(response.url)
        if status == 403 || status == 429, case .malformed(let reason) = limit.remaining {
            return .malformedResponse(endpoint: endpoint, detail: reason)
        }
        if limit.isPrimaryLimitSpent(status: status) {
            switch limit.reset {
            case .malformed(let reason): return .malformedResponse(endpoint: endpoint, detail: reason)
            case .valid(let reset): return .rateLimited(resetAt: reset, message: message)
            case .absent: return .rateLimited(resetAt: nil, message: message)
            }
        }
        // The client hands a secondary limit back when its retries are spent or the wait it asks for is
        // longer than --max-wait: either way it is a rate limit, reported with the time to come back.
        if limit.isSecondaryLimit(status: status, body: response.body) {
            switch limit.retryAt {
            case .malformed(let reason): return .malformedResponse(endpoint: endpoint, detail: reason)
            case .valid(let retryAt): return .rateLimited(resetAt: retryAt, message: message)
            case .absent: return .rateLimited(resetAt: nil, message: message)
            }
        }
        switch status {
        case 404:
            return .notFound(resource: resource)
        case 401, 403:
            return .unauthorized(status: status, message: message)
        default:
            return .server(status: status, message: message)
        }
    }

    /// A `Link` URL, followed only when it is http(s) on the API's own origin (`OriginPolicy`): a next page
    /// from another server would be mixed into the output as GitHub's.
    static func nextPageURL(_ text: String, apiRoot: URL, endpoint: String) throws(DomainError) -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw .malformedResponse(endpoint: endpoint, detail: "the next-page link is not a URL")
        }
        guard OriginPolicy.mayFollowLink(url, apiRoot: apiRoot) else {
            throw .malformedResponse(
                endpoint: endpoint,
                detail: "the next-page link leads to another server (\(origin(url))), so paging stopped there"
            )
        }
        return url
    }

    private static func origin(_ url: URL) -> String {
        (url.scheme ?? "") + "://" + (url.host ?? "") + (url.port.map { ":\($0)" } ?? "")
    }

    private static func githubMessage(_ response: HTTPResponse) -> String? {
        guard let dto = try? JSONDecoder().decode(GitHubErrorDTO.self, from: response.body),
            let message = dto.message, !message.isEmpty
        else { return nil }
        return message
    }

    private static func oneLine(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// "GET /users?since=0&per_page=30": how messages name a request.
    static func label(_ url: URL) -> String {
        "GET " + url.path + (url.query.map { "?" + $0 } ?? "")
    }

    /// "64 MiB" for the sizes a cap is set to; bytes otherwise.
    static func byteCount(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// What a status means when GitHub's body says nothing readable (a proxy's HTML page, say).
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 422: return "Unprocessable Entity"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "unexpected status"
        }
    }
}
