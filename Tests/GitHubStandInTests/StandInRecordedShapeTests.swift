import Foundation
import GitHubStandIn
import TestSupport
import Testing

/// The stand-in against the real GitHub answers in Tests/Recorded: for every kind of endpoint they cover, its
/// objects hold their shared keys in GitHub's order, and it sends the header names GitHub sent.
@Suite struct StandInRecordedShapeTests {
    /// A kind of endpoint: which recorded routes belong to it, and the stand-in request that answers like them.
    struct Kind: Sendable, CustomTestStringConvertible {
        let name: String
        let standInTarget: String
        let routes: @Sendable ([String]) -> Bool
        /// The objects whose key order is compared, from a body: the object itself, or the first few elements.
        let objects: @Sendable (String) -> [String]

        var testDescription: String { name }
    }

    private static func firstElements(_ array: String) -> [String] { Array(JSONTokens.members(array).prefix(3)) }

    static let kinds: [Kind] = [
        Kind(
            // `/users/<login>` and `/user/<id>`; not `/repositories/<id>`, the object a recorded 301 leads to.
            name: "profile", standInTarget: "/users/octocat",
            routes: { $0.count == 2 && ["users", "user"].contains($0[0]) }, objects: { [$0] }),
        Kind(name: "authenticated user", standInTarget: "/user", routes: { $0 == ["user"] }, objects: { [$0] }),
        Kind(
            name: "account list", standInTarget: "/users?per_page=1",
            routes: { $0 == ["users"] || ($0.count == 3 && ["followers", "following"].contains($0[2])) },
            objects: firstElements),
        Kind(
            name: "search", standInTarget: "/search/users?q=a&per_page=1", routes: { $0 == ["search", "users"] },
            objects: { [$0] + firstElements(JSONTokens.value("items", in: $0) ?? "[]") }),
        Kind(
            name: "rate limit", standInTarget: "/rate_limit", routes: { $0 == ["rate_limit"] },
            objects: { body in
                let resources = JSONTokens.value("resources", in: body) ?? "{}"
                return [body, resources, JSONTokens.value("core", in: resources) ?? "{}"]
            }),
    ]

    /// Headers a client of GitHub reads; where a recording has one, the stand-in's answer must have it too.
    static let headersClientsRead: Set<String> = [
        "content-type", "etag", "last-modified", "link", "cache-control", "x-github-media-type",
        "x-github-request-id", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset",
        "x-ratelimit-used", "x-ratelimit-resource", "x-oauth-scopes", "x-accepted-oauth-scopes",
    ]

    /// The recorded 200s of `kind` of the newest year, the year a recording was made ("Mon, 24 Jun 2013 …" or
    /// "2014-09-01T…").
    private static func newestRecordings(of kind: Kind) throws -> [(name: String, exchange: RecordedExchange)] {
        let recorded = try Recordings.all().flatMap { name, cassette in
            cassette.exchanges.filter {
                $0.status == 200 && kind.routes($0.route.split(separator: "/").map(String.init))
            }
            .map { (name: name, exchange: $0) }
        }
        let years = recorded.map { $0.exchange.recordedAt?.firstMatch(of: #/20[0-9][0-9]/#).map(\.output) ?? "" }
        return zip(recorded, years).filter { $1 == years.max() }.map(\.0)
    }

    static func orderViolations(ours: [String], theirs: [String]) -> [String] {
        let shared = ours.filter(theirs.contains)
        let theirOrder = theirs.filter(shared.contains)
        return shared.indices.filter { shared[$0] != theirOrder[$0] }.map {
            "\(shared[$0]) at \($0) where GitHub has \(theirOrder[$0])"
        }
    }

    /// GitHub has reordered keys over the years (in 2013 `public_gists` came last), and headers come and go (lists
    /// carried Last-Modified in 2013): the stand-in follows the newest recordings of each kind.
    @Test(arguments: kinds)
    func keysAndHeadersAreGitHubs(_ kind: Kind) throws {
        let recorded = try Self.newestRecordings(of: kind)
        try #require(!recorded.isEmpty, "no recording of \(kind.name)")
        let server = try standIn()
        for (name, exchange) in recorded {
            let headers = exchange.authenticated ? [("Authorization", "Bearer recorded")] : []
            let response = try fetch(server, kind.standInTarget, headers: headers)
            #expect(response.status == 200)
            for (mine, theirs) in zip(kind.objects(response.text), kind.objects(exchange.text)) {
                let (ourKeys, theirKeys) = (JSONTokens.keys(mine), JSONTokens.keys(theirs))
                let violations = Self.orderViolations(ours: ourKeys, theirs: theirKeys)
                #expect(violations.isEmpty, "\(name): \(violations)\nstand-in: \(ourKeys)")
            }
            let sent = Set(response.headers.map { $0.name.lowercased() })
            let missing = Set(exchange.headerNames).intersection(Self.headersClientsRead).subtracting(sent)
            #expect(missing.isEmpty, "\(name): the stand-in does not send \(missing.sorted())")
        }
    }
}
