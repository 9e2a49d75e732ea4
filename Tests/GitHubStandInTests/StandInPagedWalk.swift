import Foundation
import GitHubStandIn
import Testing

/// The URL of each `rel` of a `Link` header.
func linkRelations(_ header: String?) -> [String: String] {
    let links = (header ?? "").matches(of: #/<([^>]*)>; rel="([^"]*)"/#)
    return Dictionary(links.map { (String($0.2), String($0.1)) }) { _, last in last }
}

/// Follows `rel="next"` from `firstTarget` to the end, checking GitHub's page-based rels, each `linkPrefix` and a
/// page number, on the way; a lone first page has no Link header at all.
func walkPages(_ server: StandInServer, from firstTarget: String, linkPrefix: String) throws -> [RawHTTPResponse] {
    let maximumPages = 60
    var responses: [RawHTTPResponse] = []
    var target: String? = firstTarget
    var page = 1
    var announcedLast: String?
    while let current = target, page <= maximumPages {
        let response = try fetch(server, current, headers: tokenHeader)
        #expect(response.status == 200, "page \(page) of \(firstTarget): \(response.text)")
        responses.append(response)
        let links = linkRelations(response.header("Link"))
        #expect(links["prev"] == (page > 1 ? "\(linkPrefix)\(page - 1)" : nil), "prev on page \(page)")
        #expect(links["first"] == (page > 1 ? "\(linkPrefix)1" : nil), "first on page \(page)")
        target = nil
        if let next = links["next"] {
            #expect(next == "\(linkPrefix)\(page + 1)", "next on page \(page)")
            let last = try #require(links["last"], "a page with next also has last")
            #expect(announcedLast == nil || announcedLast == last)
            announcedLast = last
            #expect(next.hasPrefix(server.baseURL))
            target = String(next.dropFirst(server.baseURL.count))
        } else {
            #expect(links["last"] == nil, "last page \(page) must not link to last")
            if page == 1 {
                #expect(response.header("Link") == nil, "a single page has no Link header")
            }
            if let announcedLast {
                #expect(announcedLast == "\(linkPrefix)\(page)", "last pointed at the final page")
            }
        }
        page += 1
    }
    #expect(target == nil, "gave up after \(maximumPages) pages")
    return responses
}

/// Auth header for requests that should not run into the anonymous limit of 60.
let tokenHeader = [("Authorization", "Bearer test-token")]
