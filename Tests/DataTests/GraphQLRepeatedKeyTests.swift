import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

/// A GraphQL answer whose object gives a key twice is malformed (exit 1), as a REST answer is
/// (`ScannedAccountsTests`): Foundation's decoder kept the first value (`"databaseId":999,"databaseId":1` printed
/// 999) where jq and a reader downstream keep the last. Every GraphQL answer passes `GitHubRepository.graphQL`,
/// so each reader is asked through it, over the strict stub: a batch of profiles, a page of a team's own members,
/// and a batch of the access map's collaborators.
struct GraphQLRepeatedKeyTests {
    private static let graphQL = "https://api.github.com/graphql"

    /// `body` with `member` given again as `again` right after its first occurrence.
    private static func giving(_ member: String, again: String, in body: String) -> String {
        guard let range = body.range(of: member) else { return body }
        return body.replacingCharacters(in: range, with: member + "," + again)
    }

    /// octocat's profile fragment as GitHub's GraphQL API answers it, alias `a0` of a batch.
    private static let profiles = """
        {"data":{"rateLimit":{"cost":1,"remaining":4998},"a0":{"__typename":"User","login":"octocat",\
        "databaseId":583231,"id":"MDQ6VXNlcjU4MzIzMQ==","name":"The Octocat","company":"@github",\
        "location":"San Francisco","bio":null,"twitterUsername":null,"websiteUrl":"https://github.blog","email":"",\
        "isHireable":false,"isSiteAdmin":false,"createdAt":"2011-01-25T18:44:36Z",\
        "updatedAt":"2025-01-02T03:04:05Z","url":"https://github.com/octocat",\
        "avatarUrl":"https://avatars.githubusercontent.com/u/583231?v=4","followers":{"totalCount":20},\
        "following":{"totalCount":9},"repositories":{"totalCount":8},"gists":{"totalCount":8}}}}
        """

    /// The batch as sent is read (so the repeated keys below are all that is wrong); given a key twice, at the
    /// account, deeper, or in `data` itself, it fails every login as malformed, naming the key only when it is a
    /// plain word, and the answer's request id.
    @Test(arguments: [
        (#""databaseId":583231"#, #""databaseId":999"#, "the key 'databaseId' is given twice"),
        (#""followers":{"totalCount":20"#, #""totalCount":1"#, "the key 'totalCount' is given twice"),
        (
            #""rateLimit":{"cost":1,"remaining":4998}"#, #""rateLimit":{"cost":1,"remaining":0}"#,
            "the key 'rateLimit' is given twice"
        ),
        (#""login":"octocat""#, #""\u001b[2J":1,"\u001b[2J":2"#, "a key is given twice"),
    ])
    func aProfilesBatchGivingAKeyTwiceIsMalformed(member: String, again: String, detail: String) async throws {
        let octocat = try Login(validating: "octocat")
        let clean = StubTransport()
        clean.stub(Self.graphQL, body: Self.profiles)
        let batch = try await clean.repository(retries: 0).profiles([octocat])
        #expect(batch.lookups.count == 1)
        guard case .found = batch.lookups.first else {
            Issue.record("the batch as GitHub sends it was not read: \(batch.lookups)")
            return
        }

        let stub = StubTransport()
        stub.stub(
            Self.graphQL, headers: [("x-github-request-id", "ABCD:1234")],
            body: Self.giving(member, again: again, in: Self.profiles))
        do throws(GraphQLBatchFailure) {
            let batch = try await stub.repository(retries: 0).profiles([octocat])
            Issue.record("read, not refused: \(batch.lookups.count) lookup(s)")
        } catch {
            #expect(
                error
                    == .failed(.malformedResponse(endpoint: "POST /graphql", detail: detail, requestID: "ABCD:1234")))
        }
        #expect(stub.received.count == 1)
    }

    /// Reading JSON costs many times its bytes (61 MB of small `errors` took 524 MB): an answer past 16 MiB is
    /// malformed and not read; one at the limit is read. The limit is the 16 MiB the message and PERFORMANCE.md
    /// name, not the constant read back (mutation round 9's M9-48: a limit of 1 MiB went unseen).
    @Test func anAnswerPastSixteenMebibytesIsMalformed() async throws {
        let limit = 16 << 20
        let padding = limit - Self.profiles.utf8.count - 7
        let atLimit = Self.profiles.dropLast() + #","x":""# + String(repeating: "x", count: padding) + #""}"#
        #expect(atLimit.utf8.count == limit)
        let octocat = try Login(validating: "octocat")
        for (body, read) in [(atLimit, true), (atLimit + " ", false)] {
            let stub = StubTransport()
            stub.stub(Self.graphQL, body: String(body))
            do throws(GraphQLBatchFailure) {
                let batch = try await stub.repository(retries: 0).profiles([octocat])
                #expect(read && batch.lookups.count == 1)
            } catch {
                let detail =
                    "an answer of \(limit + 1) bytes, far past what gh-users's queries ask for (16 MiB at most is read)"
                #expect(!read && error == .failed(.malformedResponse(endpoint: "POST /graphql", detail: detail)))
            }
        }
    }

    /// A page of `team-members --direct` whose member gives its id twice: the first was printed, where a reader
    /// of the answer keeps the last.
    @Test func aTeamMembersPageGivingAKeyTwiceIsMalformed() async throws {
        let page =
            #"{"data":{"organization":{"team":{"members":{"totalCount":1,"edges":[{"role":"MEMBER","node":{"#
            + #""databaseId":999,"id":"U_1","login":"ann","url":"https://github.com/ann","avatarUrl":"https://a/1","#
            + #""isSiteAdmin":false}}],"pageInfo":{"hasNextPage":false}}}}}}"#
        let team = try TeamName(validating: "github/justice-league")
        let clean = StubTransport()
        clean.register(RequestMatcher("POST /graphql"), body: Data(page.utf8))
        let read = try await clean.repository(retries: 0).directMembers(of: team, restRole: "all", perPage: 30)
            .page(at: nil, nextPage: nil)
        #expect(read.items.map(\.id) == [999])

        let stub = StubTransport()
        stub.register(
            RequestMatcher("POST /graphql"),
            body: Data(Self.giving(#""databaseId":999"#, again: #""databaseId":1"#, in: page).utf8))
        do throws(DomainError) {
            let read = try await stub.repository(retries: 0).directMembers(of: team, restRole: "all", perPage: 30)
                .page(at: nil, nextPage: nil)
            Issue.record("read: \(read.items.map(\.id))")
        } catch {
            #expect(
                error == .malformedResponse(endpoint: "POST /graphql", detail: "the key 'databaseId' is given twice"))
        }
        #expect(stub.problems.isEmpty, "\(stub.problems)")
    }

    /// `access ORG`: a collaborator whose permission is given twice (ADMIN, then READ) stops the map, where the
    /// table said ADMIN and jq READ.
    @Test func anAccessBatchGivingAKeyTwiceIsMalformed() async throws {
        let mona = AccessBodies.Collaborator("mona", 7, "ADMIN", [AccessBodies.Source("Team", "admins", "ADMIN")])
        let batch = AccessBodies.batch([.collaborators([mona], next: nil)])
        #expect(try await Self.access(batch).get().map(\.permission) == [.admin])

        let twice = Self.giving(#""permission":"ADMIN""#, again: #""permission":"READ""#, in: batch)
        let read = try await Self.access(twice)
        guard case .failure(.malformedResponse(let endpoint, let detail, _)) = read else {
            Issue.record("not malformed: \(read.map { $0.map(\.permission) })")
            return
        }
        #expect(endpoint == "POST /graphql")
        #expect(detail == "the key 'permission' is given twice")
    }

    /// The access map of octo-org, one member and one repository, `app`, whose collaborators are `batch`.
    private static func access(_ batch: String) async throws -> Result<[AccessRecord], DomainError> {
        let stub = StubTransport()
        stub.register(
            RequestMatcher("POST /graphql"),
            body: Data(AccessBodies.members([AccessBodies.Member("mona", 7, "ADMIN", twoFactor: true)]).utf8))
        stub.register(
            RequestMatcher("POST /graphql"), body: Data(AccessBodies.repositories(["app"], of: "octo-org").utf8))
        stub.register(RequestMatcher("POST /graphql"), body: Data(batch.utf8))
        let reading = AccessReading(
            organization: try Login(validating: "octo-org"), github: stub.repository(retries: 0), concurrency: 1)
        do throws(DomainError) {
            var summary = AccessReadSummary()
            let members = try await reading.members(counting: &summary)
            var sink = AccessReadingTests.Collected()
            try await reading.read(members: members, only: nil, into: &sink, counting: &summary)
            return .success(sink.records)
        } catch {
            return .failure(error)
        }
    }
}
