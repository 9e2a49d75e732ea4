import Testing

@testable import Networking

/// Edges of RFC 8288 `Link` parsing that no test reached (mutation round 11).
struct LinkHeaderEdgeTests {
    /// A relation named twice is the first link's, as RFC 8288 readers take it: a later `rel="next"` (a proxy's
    /// or a server's mistake) does not send the list to another page (M11-29).
    @Test func theFirstLinkOfARelationIsKept() {
        let link = LinkHeader(#"<https://x/r?page=2>; rel="next", <https://x/r?page=9>; rel="next""#)
        #expect(link.next == "https://x/r?page=2")
    }

    /// The parameter's name is matched without regard to case (RFC 8288, 3: `REL="next"`), as the relation's
    /// value is: else the list stops quietly at its first page (M11-30).
    @Test func anUppercaseRelParameterStillNamesTheNextPage() {
        let link = LinkHeader(#"<https://x/r?page=2>; REL="next", <https://x/r?page=1>; Rel=prev"#)
        #expect(link.next == "https://x/r?page=2")
        #expect(link.links["prev"] == "https://x/r?page=1")
    }
}
