import Domain
import Foundation
import Networking

/// The one translation of HTTP outcomes into `DomainError`, so nothing above Data sees an HTTP type.
enum ErrorMapping {
    static func domainError(for error: TransportError) -> DomainError {
        error == .cancelled ? .cancelled : .network(describe(error))
    }

    static func describe(_ error: TransportError) -> String {
        switch error {
        case .cannotConnect(let detail): return "cannot connect: \(detail)"
        case .timedOut: return "the request timed out"
        case .connectionLost: return "the connection was lost"
        case .truncatedBody: return "the response was cut short"
        case .cancelled: return "cancelled"
        case .other(let detail): return detail
        }
    }

    /// nil for a success status. `now` dates a `Retry-After` given in seconds.
    static func domainError(for response: HTTPResponse, resource: String, now: Date = Date()) -> DomainError? {
        let status = response.status
        if (200..<300).contains(status) { return nil }
        let message = githubMessage(response) ?? ErrorMapping.reasonPhrase(status)
        let limit = RateLimitInfo(response, now: now)
        let endpoint = GitHubAPI.label(response.url)
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
            switch limit.retryAfter {
            case .malformed(let reason): return .malformedResponse(endpoint: endpoint, detail: reason)
            case .valid(let wait):
                return .rateLimited(resetAt: now.addingTimeInterval(wait.inSeconds), message: message)
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

    private static func githubMessage(_ response: HTTPResponse) -> String? {
        guard let dto = try? JSONDecoder().decode(GitHubErrorDTO.self, from: response.body),
            let message = dto.message, !message.isEmpty
        else { return nil }
        return message
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
