import Foundation
import Networking
import TestSupport
import Testing

@testable import gh_users

/// A next page that names itself (a `Link` to its own URL, a GraphQL `endCursor` equal to the one sent) is a
/// cycle, refused with exit 1 as a link back to an earlier page is: the list is not known to end there. Before
/// issue 38 both ended the list with exit 0, as if it were whole.
struct SelfNamingPageTests {
    private static let collaborators = "https://api.github.com/repos/octo/app/collaborators"

    private static func accounts(_ ids: ClosedRange<Int>) -> String {
        "[" + ids.map { #"{"login":"user\#($0)","id":\#($0),"type":"User"}"# }.joined(separator: ",") + "]"
    }

    private static func response(_ request: HTTPRequest, body: String, next: String?) -> HTTPResponse {
        let link = next.map { [(name: "Link", value: "<\($0)>; rel=\"next\"")] } ?? []
        return HTTPResponse(status: 200, headers: HTTPHeaders(link), body: Data(body.utf8), url: request.url)
    }

    @Test func aLinkToItsOwnPageIsACycle() async {
        let harness = CommandHarness.signedIn()
        let second = Self.collaborators + "?per_page=100&page=2"
        harness.http.answerEvery { request, _ in
            request.url.absoluteString.hasSuffix("page=2")
                ? Self.response(request, body: Self.accounts(3...4), next: second)
                : Self.response(request, body: Self.accounts(1...2), next: second)
        }
        let run = await harness.run(["collaborators", "octo/app", "--all", "--format", "ndjson", "--no-cache"])
        #expect(run.status == 1, "\(run.err)")
        // The pages read are written; the page named again is not asked for again.
        #expect(run.out.split(separator: "\n").count == 4)
        #expect(run.err.contains("the next page's link or cursor leads back to a page already read"), "\(run.err)")
        #expect(harness.http.received.count == 2)
    }

    @Test func aGraphQLEndCursorEqualToTheOneSentIsACycle() async {
        let harness = CommandHarness.signedIn()
        func page(_ id: Int) -> Data {
            let member =
                #"{"role":"MEMBER","node":{"databaseId":\#(id),"id":"MDQ6VXNlcj\#(id)=","login":"user\#(id)","#
                + #""url":"https://github.com/user\#(id)","avatarUrl":"https://avatars.githubusercontent.com/u/\#(id)","#
                + #""isSiteAdmin":false}}"#
            return Data(
                (#"{"data":{"organization":{"team":{"members":{"totalCount":9,"edges":["# + member
                    + #"],"pageInfo":{"hasNextPage":true,"endCursor":"Y3Vyc29yOjE="}}}}}}"#).utf8)
        }
        harness.http.register(RequestMatcher("POST /graphql"), body: page(1))
        harness.http.register(RequestMatcher("POST /graphql"), body: page(2))
        let run = await harness.run([
            "team-members", "github/justice-league", "--direct", "--all", "--format", "ndjson",
        ])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.split(separator: "\n").count == 2)
        #expect(run.err.contains("the next page's link or cursor leads back to a page already read"), "\(run.err)")
    }
}
