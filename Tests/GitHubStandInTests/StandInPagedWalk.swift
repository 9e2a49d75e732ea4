import Foundation
import GitHubStandIn
import Testing

/// The URL of each `rel` of a `Link` header.
func linkRelations(_ header: String?) -> [String: String] {
    let links = (header ?? "").matches(of: #/<([^>]*)>; rel="([^"]*)"/#)
    return Dictionary(links.map { (String($0.2), String($0.1)) }) { _, last in last }
}

/// Follows `rel="next"` from `firstTarget` to the end (60 pages at most), then checks GitHub's page-based rels on
/// each page, each `linkPrefix` and a page number: `prev` and `first` past the first page, `next` and `last` before
/// the last; a lone first page has no Link header at all.
func walkPages(_ server: StandInServer, from firstTarget: String, linkPrefix: String) throws -> [RawHTTPResponse] {
    var responses = [try fetch(server, firstTarget, headers: tokenHeader)]
    while responses.count < 60, let next = linkRelations(responses.last?.header("Link"))["next"] {
        responses.append(try fetch(server, String(next.dropFirst(server.baseURL.count)), headers: tokenHeader))
    }
    for (page, response) in zip(1..., responses) {
        var expected: [String: String] = [:]
        if page > 1 { (expected["prev"], expected["first"]) = ("\(linkPrefix)\(page - 1)", "\(linkPrefix)1") }
        if page < responses.count {
            (expected["next"], expected["last"]) = ("\(linkPrefix)\(page + 1)", "\(linkPrefix)\(responses.count)")
        }
        #expect(response.status == 200, "page \(page) of \(firstTarget): \(response.text)")
        #expect(linkRelations(response.header("Link")) == expected, "page \(page) of \(firstTarget)")
        #expect((response.header("Link") == nil) == expected.isEmpty, "page \(page) of \(firstTarget)")
    }
    return responses
}

/// Auth header for requests that should not run into the anonymous limit of 60.
let tokenHeader = [("Authorization", "Bearer test-token")]
