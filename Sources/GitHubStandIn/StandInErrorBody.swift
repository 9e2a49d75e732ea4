import JSONBytes

/// GitHub's error JSON, in its key order, which clients comparing bodies byte for byte depend on.
enum StandInErrorBody {
    static let genericDocumentation = "https://docs.github.com/rest"

    /// `status` nil where GitHub leaves it out (redirects, framing errors).
    static func json(message: String, url: String? = nil, documentationURL: String, status: Int?) -> [UInt8] {
        let members: [JSONValue.Member?] = [
            .init("message", .string(message)), url.map { .init("url", .string($0)) },
            .init("documentation_url", .string(documentationURL)), status.map { .init("status", .string(String($0))) },
        ]
        return JSONValue.object(members.compactMap { $0 }).bytes
    }

    static func response(_ status: Int, message: String, documentationURL: String) -> StandInHTTPResponse {
        StandInHTTPResponse(
            status: status, body: json(message: message, documentationURL: documentationURL, status: status))
    }

    static func notFound(documentationURL: String = genericDocumentation) -> StandInHTTPResponse {
        response(404, message: "Not Found", documentationURL: documentationURL)
    }

    static let badCredentials = response(401, message: "Bad credentials", documentationURL: genericDocumentation)

    /// GitHub names the token's account by its id, or an anonymous caller's address.
    static func primaryRateLimitExceeded(for request: StandInRouteRequest) -> StandInHTTPResponse {
        let subject =
            request.caller.token == nil
            ? "127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit. "
                + "Check out the documentation for more details.)"
            : "user ID \(request.callerID)."
        return response(
            403, message: "API rate limit exceeded for " + subject,
            documentationURL: "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting")
    }

    static func secondaryRateLimitExceeded(requestID: String) -> [UInt8] {
        json(
            message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. "
                + "If you reach out to GitHub Support for help, please include the request ID \(requestID).",
            documentationURL: "https://docs.github.com/free-pro-team@latest/rest/overview/"
                + "rate-limits-for-the-rest-api#about-secondary-rate-limits",
            status: 403)
    }

    static func redirect(status: Int, location: String) -> [UInt8] {
        json(
            message: StandInHTTPResponse.reasonPhrase(for: status), url: location,
            documentationURL: "https://docs.github.com/v3/#http-redirects", status: nil)
    }
}
