import Foundation
import Networking
import TestSupport
import Testing

@testable import Data
@testable import Domain

/// The access map's read (`AccessReading`) over the strict stub: the membership first, then the repositories'
/// collaborators in batches of aliased pages, each page asked once, records in order, a refused repository
/// reported beside the others' records. The answers are written to GitHub's schema (`AccessBodies`, and the
/// fixture `graphql-access-batch.json`, whose sources `Fixtures/NOTICE.md` names).
struct AccessReadingTests {
    /// Keeps what it is handed, one repository at a time.
    struct Collected: AccessRecordSink {
        var repositories: [[AccessRecord]] = []
        var records: [AccessRecord] { repositories.flatMap { $0 } }

        mutating func take(_ records: [AccessRecord], of repository: String, read: AccessRepositoryRead) async -> Bool {
            repositories.append(records)
            return true
        }
    }

    private static let org = try! Login(validating: "octo-org")

    /// A batch's keys are its aliases (`r0`, `r12`); any other key of a hostile answer is none (helper-331's GA4).
    @Test func onlyAnRAndDigitsIsABatchsAlias() {
        #expect(GraphQLAccessQuery.isAlias("r1") && GraphQLAccessQuery.isAlias("r12"))
        #expect(
            !GraphQLAccessQuery.isAlias("x1") && !GraphQLAccessQuery.isAlias("r") && !GraphQLAccessQuery.isAlias("r1a"))
    }

    private static func reading(_ stub: StubTransport, concurrency: Int = 4, of organization: Login = org)
        -> AccessReading
    {
        AccessReading(organization: organization, github: stub.repository(retries: 0), concurrency: concurrency)
    }

    /// The whole read: members, then the map.
    private static func read(
        _ stub: StubTransport, concurrency: Int = 4, only: [String]? = nil, of organization: Login = org
    ) async throws(DomainError) -> (Collected, AccessReadSummary) {
        let reading = reading(stub, concurrency: concurrency, of: organization)
        var summary = AccessReadSummary()
        let members = try await reading.members(counting: &summary)
        var sink = Collected()
        try await reading.read(members: members, only: only, into: &sink, counting: &summary)
        return (sink, summary)
    }

    private static func person(_ index: Int) -> AccessBodies.Collaborator {
        AccessBodies.Collaborator(
            "user-\(index)", Int64(5000 + index), "WRITE",
            [AccessBodies.Source("Organization", "octo-org", "READ"), AccessBodies.Source("Team", "devs", "WRITE")])
    }

    private static func failure(_ body: () async throws(DomainError) -> Void) async -> DomainError? {
        do throws(DomainError) {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    /// A sink that can take no more (stdout's disk full, its reader gone) stops the read: nothing more is asked
    /// or handed on, and the read is cancelled. helper-337's AR9 read on, and a map cut by a full disk was exit 0.
    @Test func aSinkThatTakesNoMoreStopsTheRead() async throws {
        struct Refusing: AccessRecordSink {
            var taken = 0
            mutating func take(_ records: [AccessRecord], of repository: String, read: AccessRepositoryRead) async
                -> Bool
            {
                taken += 1
                return false
            }
        }
        var collaborators: [String: [AccessBodies.Collaborator]] = [:]
        for index in 0..<25 { collaborators[String(format: "repo-%02d", index)] = [Self.person(index)] }
        let world = AccessWorld(organization: "octo-org", members: [], collaborators: collaborators)
        let stub = StubTransport()
        stub.answerEvery { request, _ in world.answer(request) }
        let reading = Self.reading(stub, concurrency: 1)
        var summary = AccessReadSummary()
        var sink = Refusing()
        let error = await Self.failure { () throws(DomainError) in
            let members = try await reading.members(counting: &summary)
            try await reading.read(members: members, only: nil, into: &sink, counting: &summary)
        }
        #expect(error == .cancelled)
        #expect(sink.taken == 1)
        #expect(world.batches.count == 1, "\(world.batches)")
    }

    /// 25 repositories, one of 250 people: three batches of first pages (10, 10, 5), the big one continued by
    /// cursor, every page asked once, and every record handed on in order.
    @Test func batchesOfTenPagesContinuedByCursorAskEachPageOnce() async throws {
        var collaborators: [String: [AccessBodies.Collaborator]] = [:]
        for index in 0..<25 {
            collaborators[String(format: "repo-%02d", index)] = (0..<3).map { Self.person(index * 3 + $0) }
        }
        collaborators["repo-07"] = (0..<250).map { Self.person(1000 + $0) }
        let members = (0..<150).map { AccessBodies.Member("user-\($0)", Int64(5000 + $0), "MEMBER", twoFactor: true) }
        let world = AccessWorld(organization: "octo-org", members: members, collaborators: collaborators)
        let stub = StubTransport()
        stub.answerEvery { request, _ in world.answer(request) }
        let (sink, summary) = try await Self.read(stub)

        let batches = world.batches
        let pages = batches.flatMap { $0 }
        #expect(Set(pages).count == pages.count, "a page was asked twice: \(pages)")
        #expect(pages.count == 25 + 2)
        #expect(pages.contains("repo-07@c100") && pages.contains("repo-07@c200"))
        // First pages go ten to a POST: the 25 first pages take three POSTs.
        #expect(batches.map(\.count).max() == 10)
        #expect(batches.filter { $0.contains { $0.hasSuffix("@") } }.count == 3)
        // 2 member pages, 1 listing page, and the batches.
        #expect(summary.requests == 2 + 1 + batches.count)
        #expect(stub.received.count == summary.requests)
        #expect(summary.repositories == 25)
        #expect(summary.unreadable.isEmpty)
        #expect(sink.records.count == 24 * 3 + 250)
        #expect(sink.repositories.count == 25)
        let order = sink.records.map { $0.repository + " " + $0.login.lowercased() }
        #expect(order == order.sorted())
        #expect(sink.repositories[7].count == 250)
    }

    /// 200 repositories of 150 people each: every page asked once and ten to a POST, so the POSTs are the fewest
    /// the batch size allows: 2 member pages, 2 listing pages and 400 collaborator pages in 40.
    @Test func aLargeOrganizationTakesTheFewestPOSTsTheBatchSizeAllows() async throws {
        let people = (0..<150).map { Self.person($0) }
        var collaborators: [String: [AccessBodies.Collaborator]] = [:]
        for index in 0..<200 { collaborators[String(format: "repo-%03d", index)] = people }
        let members = (0..<150).map { AccessBodies.Member("user-\($0)", Int64(5000 + $0), "MEMBER", twoFactor: nil) }
        let world = AccessWorld(organization: "octo-org", members: members, collaborators: collaborators)
        let stub = StubTransport()
        stub.answerEvery { request, _ in world.answer(request) }
        let (sink, summary) = try await Self.read(stub, concurrency: 1)
        #expect(summary.requests == 2 + 2 + 40)
        #expect(world.batches.allSatisfy { $0.count == 10 })
        #expect(sink.records.count == 30_000)
        #expect(sink.repositories.count == 200)
    }

    /// Concurrency 1 sends one request at a time: the same pages, no page twice.
    @Test func oneAtATimeAsksTheSamePages() async throws {
        var collaborators: [String: [AccessBodies.Collaborator]] = [:]
        for index in 0..<12 { collaborators["r\(index)"] = [Self.person(index)] }
        let world = AccessWorld(organization: "octo-org", members: [], collaborators: collaborators)
        let stub = StubTransport()
        stub.answerEvery { request, _ in world.answer(request) }
        let (sink, _) = try await Self.read(stub, concurrency: 1)
        #expect(world.batches.map(\.count) == [10, 2])
        #expect(sink.records.count == 12)
        // No member listed, so the token is no member's: their roles come from their sources (the organization's
        // read, which is no owner's: members), their two-factor states are not known.
        #expect(sink.records.allSatisfy { $0.affiliation == .member && $0.twoFactor == nil })
    }

    /// Owner is a member whose role is ADMIN; a member; someone the members do not name, with access through the
    /// organization's read (the base permission) and a team, is a member: an owner's is the organization's admin,
    /// as pipcrispy's. Two-factor is GitHub's
    /// true, false or null, and null is never written as false.
    @Test func affiliationAndTwoFactorComeFromTheMembership() async throws {
        let stub = StubTransport()
        stub.register(
            RequestMatcher("POST /graphql"),
            body: Data(
                AccessBodies.members([
                    AccessBodies.Member("pipcrispy", 1001, "ADMIN", twoFactor: true),
                    AccessBodies.Member("banned-from-urgent", 1002, "MEMBER", twoFactor: false),
                    AccessBodies.Member("robin-of-loxley", 1003, "MEMBER", twoFactor: nil),
                ]).utf8))
        stub.register(
            RequestMatcher("POST /graphql"),
            body: Data(AccessBodies.repositories(["repo-permissions", "secret"], of: "pulepule").utf8))
        stub.register(RequestMatcher("POST /graphql"), body: Data(try fixture("graphql-access-batch.json").utf8))
        // The recorded batch is of pulepule's repositories: the map is of that organization's.
        let (sink, summary) = try await Self.read(stub, concurrency: 1, of: try Login(validating: "pulepule"))
        #expect(stub.problems.isEmpty, "\(stub.problems)")
        let records = sink.records
        #expect(
            records.map(\.login) == [
                "banned-from-urgent", "grillpan-eddie", "monty-bojangle", "pipcrispy", "robin-of-loxley",
                "roger-de-courcey",
            ])
        let byLogin = Dictionary(uniqueKeysWithValues: records.map { ($0.login, $0) })
        #expect(byLogin["pipcrispy"]?.affiliation == .owner)
        #expect(byLogin["pipcrispy"]?.twoFactor == true)
        #expect(byLogin["banned-from-urgent"]?.affiliation == .member)
        #expect(byLogin["banned-from-urgent"]?.twoFactor == false)
        #expect(byLogin["robin-of-loxley"]?.affiliation == .member)
        #expect(byLogin["robin-of-loxley"]?.twoFactor == nil)
        #expect(byLogin["monty-bojangle"]?.affiliation == .member)
        #expect(byLogin["monty-bojangle"]?.twoFactor == nil)
        let falseJSON = String(decoding: byLogin["banned-from-urgent"]?.raw.bytes ?? [], as: UTF8.self)
        let nullJSON = String(decoding: byLogin["robin-of-loxley"]?.raw.bytes ?? [], as: UTF8.self)
        #expect(falseJSON.hasSuffix(#""two_factor":false}"#))
        #expect(nullJSON.hasSuffix(#""two_factor":null}"#))
        // The owner's two sources as GitHub lists them; permissions in lower case.
        #expect(
            byLogin["pipcrispy"]?.sources == [
                AccessRecord.Source(kind: .organization, name: "pulepule", permission: "admin"),
                AccessRecord.Source(kind: .repository, name: "pulepule/repo-permissions", permission: "admin"),
            ])
        #expect(byLogin["robin-of-loxley"]?.permission == .triage)
        #expect(
            String(decoding: byLogin["pipcrispy"]?.raw.bytes ?? [], as: UTF8.self)
                == #"{"repository":"pulepule/repo-permissions","login":"pipcrispy","id":1001,"permission":"admin","#
                + #""affiliation":"owner","sources":[{"kind":"organization","name":"pulepule","permission":"admin"},"#
                + #"{"kind":"repository","name":"pulepule/repo-permissions","permission":"admin"}],"two_factor":true}"#)
        // The refused repository is named; the other's records are all there.
        #expect(summary.unreadable == ["pulepule/secret"])
    }

    /// To a token that is no member GitHub lists only the members who show their membership. Someone it does not
    /// list with access through the organization's admin or a team is a member whose role this token was not
    /// shown (an owner, or a base permission of admin), and someone with a repository's grant alone may be a member
    /// who hides it: both null, never `outside`. With the organization's read, and not its admin, they are a
    /// member, as no owner is. When the token's own account (`viewer`) is listed, the list is every member's, and
    /// someone with a repository's grant alone is an outside collaborator.
    @Test(arguments: [false, true])
    func aNonMembersListLeavesTheUnlistedUnknown(viewerIsMember: Bool) async throws {
        let ownership = AccessBodies.Source("Organization", "octo-org", "ADMIN", roleName: "admin")
        let base = AccessBodies.Source("Organization", "octo-org", "READ", roleName: "read")
        let world = AccessWorld(
            organization: "octo-org", members: [AccessBodies.Member("octocat", 1, "ADMIN", twoFactor: nil)],
            collaborators: [
                "docs": [
                    AccessBodies.Collaborator("octocat", 1, "ADMIN", [ownership, base]),
                    AccessBodies.Collaborator("hidden-owner", 2, "ADMIN", [ownership, base]),
                    AccessBodies.Collaborator(
                        "hidden-member", 3, "WRITE", [base, AccessBodies.Source("Team", "core", "WRITE")]),
                    AccessBodies.Collaborator("team-only", 5, "WRITE", [AccessBodies.Source("Team", "core", "WRITE")]),
                    AccessBodies.Collaborator(
                        "custom-role", 6, "READ",
                        [AccessBodies.Source("Organization", "octo-org", "READ", roleName: "auditor")]),
                    AccessBodies.Collaborator(
                        "direct", 4, "WRITE", [AccessBodies.Source("Repository", "octo-org/docs", "WRITE")]),
                ]
            ],
            viewer: viewerIsMember ? nil : .outsider)
        let stub = StubTransport()
        stub.answerEvery { request, _ in world.answer(request) }
        let (sink, _) = try await Self.read(stub)
        let affiliations = Dictionary(
            uniqueKeysWithValues: sink.records.map { ($0.login, $0.affiliation?.rawValue ?? "null") })
        #expect(
            affiliations == [
                "octocat": "owner", "hidden-owner": "null", "hidden-member": "member", "team-only": "null",
                "custom-role": "member", "direct": viewerIsMember ? "outside" : "null",
            ])
        let hidden = String(decoding: sink.records.first { $0.id == 2 }?.raw.bytes ?? [], as: UTF8.self)
        #expect(hidden.contains(#""affiliation":null,"#) && hidden.hasSuffix(#""two_factor":null}"#))
    }

    /// An answer without `viewer` does not say whose token it is, so not that the members listed are all of them:
    /// someone with a repository's grant alone may be a member who hides it, null, never `outside` (mutation
    /// round 10, M10-1002).
    @Test func withoutAViewerTheUnlistedStayUnknown() async throws {
        let world = AccessWorld(
            organization: "octo-org", members: [AccessBodies.Member("octocat", 1, "ADMIN", twoFactor: true)],
            collaborators: [
                "docs": [
                    AccessBodies.Collaborator(
                        "direct", 4, "WRITE", [AccessBodies.Source("Repository", "octo-org/docs", "WRITE")])
                ]
            ])
        let stub = StubTransport()
        stub.answerEvery { request, _ in
            var answer = world.answer(request)
            let text = String(decoding: answer.body, as: UTF8.self)
            answer.body = Data(
                text.replacing(#""viewer":{"login":"octocat","databaseId":1}"#, with: #""viewer":null"#).utf8)
            return answer
        }
        let (sink, _) = try await Self.read(stub)
        #expect(sink.records.map(\.login) == ["direct"])
        #expect(sink.records.first?.affiliation == nil)
    }

    /// GitHub spells an organization's name its own way (`GoogleCloudPlatform/x` for `access googlecloudplatform
    /// --repo x`): the repository is still the organization's, read, not missing (mutation round 10, M10-1004).
    @Test func aNameSpeltInAnotherCaseIsStillTheOrganizations() async throws {
        let world = AccessWorld(organization: "Octo-Org", members: [], collaborators: ["a": [Self.person(1)]])
        let stub = StubTransport()
        stub.answerEvery { request, _ in world.answer(request) }
        let (sink, summary) = try await Self.read(stub, only: ["a"])
        #expect(summary.missing.isEmpty)
        #expect(sink.records.map(\.repository) == ["Octo-Org/a"])
    }

    /// A source's role name, where GitHub gives one, says triage or maintain where its permission says read or
    /// write; a built-in role's name is lower case whatever its case, a custom role's is kept as it was named, and
    /// without a role name the permission is said in lower case.
    @Test func aRoleNameIsTheSourcesPermission() async throws {
        let world = AccessWorld(
            organization: "octo-org", members: [],
            collaborators: [
                "app": [
                    AccessBodies.Collaborator(
                        "mona", 7, "MAINTAIN",
                        [
                            AccessBodies.Source("Organization", "octo-org", "READ", roleName: "read"),
                            AccessBodies.Source("Team", "parent-team", "WRITE", roleName: "maintain"),
                            AccessBodies.Source("Team", "triagers", "READ", roleName: "Triage"),
                            AccessBodies.Source("Team", "security", "WRITE", roleName: "Security Manager"),
                            AccessBodies.Source("Repository", "octo-org/app", "WRITE"),
                        ])
                ]
            ])
        let stub = StubTransport()
        stub.answerEvery { request, _ in world.answer(request) }
        let (sink, _) = try await Self.read(stub)
        #expect(sink.records.first?.permission == .maintain)
        #expect(
            sink.records.first?.sources.map(\.permission)
                == ["read", "maintain", "triage", "Security Manager", "write"])
        #expect(
            sink.records.first?.sources.map(\.name) == [
                "octo-org", "parent-team", "triagers", "security", "octo-org/app",
            ])
    }

    /// A repository GitHub refuses is named, and how many; every other repository's records are handed on.
    @Test func aForbiddenRepositoryIsReportedAndTheOthersRead() async throws {
        let world = AccessWorld(
            organization: "octo-org", members: [],
            collaborators: ["a": [Self.person(1)], "b": [Self.person(2)], "c": [Self.person(3)], "d": []],
            forbidden: ["b", "d"])
        let stub = StubTransport()
        stub.answerEvery { request, _ in world.answer(request) }
        let (sink, summary) = try await Self.read(stub)
        #expect(sink.records.map(\.repository) == ["octo-org/a", "octo-org/c"])
        #expect(summary.unreadable == ["octo-org/b", "octo-org/d"])
        #expect(summary.repositories == 4)
    }

    /// GitHub lists by name in its own collation (`ab` before `a_b`, capitals aside), over pages: nothing is
    /// handed on before the listing is whole, and the map comes out in its own order, case aside.
    @Test func theMapsOrderIsItsOwnWhateverTheListingsOrder() async throws {
        let listing = ["b", "c", "A", "ab", "a_b", "Zed", "d"]
        var collaborators: [String: [AccessBodies.Collaborator]] = [:]
        for (index, name) in listing.enumerated() { collaborators[name] = [Self.person(index)] }
        let world = AccessWorld(
            organization: "octo-org", members: [], collaborators: collaborators, listing: listing, pageSize: 2)
        let stub = StubTransport()
        stub.answerEvery { request, _ in world.answer(request) }
        let (sink, summary) = try await Self.read(stub)
        #expect(
            sink.records.map(\.repository)
                == ["A", "a_b", "ab", "b", "c", "d", "Zed"].map { "octo-org/" + $0 })
        #expect(summary.repositories == 7)
        let pages = world.batches.flatMap { $0 }
        #expect(Set(pages).count == pages.count && pages.count == 7)
    }

    /// The first repository in the map's order may be listed last (GitHub's collation puts `_a` after `c`): once
    /// the listing is whole it is asked for, even with the lookahead spent on those listed before it.
    @Test func theFirstInTheMapsOrderIsAskedWhereverItWasListed() throws {
        var schedule = AccessSchedule(batchSize: 2, lookahead: 2)
        #expect(schedule.nextWork() == .listing(after: nil))
        _ = try schedule.take(.listed(names: ["o/b", "o/c"], next: "p2", cost: nil, total: nil))
        #expect(schedule.nextWork() == .listing(after: "p2"))
        let first = [AccessPageAsk(repository: "o/b", cursor: nil), AccessPageAsk(repository: "o/c", cursor: nil)]
        #expect(schedule.nextWork() == .batch(first))
        #expect(schedule.nextWork() == nil)
        _ = try schedule.take(.listed(names: ["o/_a"], next: nil, cost: nil, total: nil))
        _ = try schedule.take(.answered(first, [.page([], next: nil), .page([], next: nil)], cost: 1))
        #expect(schedule.nextDone() == nil)
        let last = [AccessPageAsk(repository: "o/_a", cursor: nil)]
        #expect(schedule.nextWork() == .batch(last))
        _ = try schedule.take(.answered(last, [.page([], next: nil)], cost: 1))
        var handed: [String] = []
        while let slot = schedule.nextDone() { handed.append(slot.repository) }
        #expect(handed == ["o/_a", "o/b", "o/c"])
        #expect(schedule.isFinished)
    }

    /// Past the budget of people held, only the next repository to hand on is asked for, a page at a time, until
    /// handing it on brings the held back under; then batches go on. Before, every repository begun was continued
    /// at once: a server whose 20 repositories each listed people without end grew a run to 2.75 GB.
    @Test func pastTheBudgetOnlyTheNextRepositoryToHandOnIsAsked() throws {
        func people(_ from: Int) -> [AccessEdge] {
            (from..<from + 60).map { AccessEdge(login: "u\($0)", id: Int64($0), permission: .read, sources: []) }
        }
        try AccessSchedule.$heldBudget.withValue(100) {
            var schedule = AccessSchedule(batchSize: 10, lookahead: 10)
            #expect(schedule.nextWork() == .listing(after: nil))
            _ = try schedule.take(.listed(names: ["o/c", "o/a", "o/b"], next: nil, cost: nil, total: nil))
            let first = ["o/a", "o/b", "o/c"].map { AccessPageAsk(repository: $0, cursor: nil) }
            #expect(schedule.nextWork() == .batch(first))
            let answers = (0..<3).map { AccessPageAnswer.page(people($0 * 1000), next: "p2") }
            _ = try schedule.take(.answered(first, answers, cost: 1))
            #expect(schedule.held == 180)
            // Over the budget: o/a alone, and nothing more while its page is out.
            #expect(schedule.nextWork() == .batch([AccessPageAsk(repository: "o/a", cursor: "p2")]))
            #expect(schedule.nextWork() == nil)
            _ = try schedule.take(
                .answered([AccessPageAsk(repository: "o/a", cursor: "p2")], [.page(people(500), next: nil)], cost: 1))
            #expect(schedule.nextDone()?.repository == "o/a")
            #expect(schedule.nextDone() == nil)
            // 120 held: still over, so o/b alone; once it is handed on, 60 held, and the batch goes on.
            #expect(schedule.nextWork() == .batch([AccessPageAsk(repository: "o/b", cursor: "p2")]))
            _ = try schedule.take(
                .answered([AccessPageAsk(repository: "o/b", cursor: "p2")], [.page([], next: nil)], cost: 1))
            #expect(schedule.nextDone()?.repository == "o/b")
            #expect(schedule.held == 60)
            #expect(schedule.nextWork() == .batch([AccessPageAsk(repository: "o/c", cursor: "p2")]))
        }
    }

    /// Past the budget, while the next repository to hand on has a page out, no other is begun, though one is
    /// left to begin (batches of 2 leave o/c): helper-337's AS11 began it, and held past the memory bound.
    @Test func pastTheBudgetNoOtherRepositoryIsBegunWhileTheNextOnesPageIsOut() throws {
        let people = (0..<60).map { AccessEdge(login: "u\($0)", id: Int64($0 + 1), permission: .read, sources: []) }
        try AccessSchedule.$heldBudget.withValue(100) {
            var schedule = AccessSchedule(batchSize: 2, lookahead: 10)
            #expect(schedule.nextWork() == .listing(after: nil))
            _ = try schedule.take(.listed(names: ["o/c", "o/a", "o/b"], next: nil, cost: nil, total: nil))
            let first = ["o/a", "o/b"].map { AccessPageAsk(repository: $0, cursor: nil) }
            #expect(schedule.nextWork() == .batch(first))
            _ = try schedule.take(.answered(first, [.page(people, next: "p2"), .page(people, next: "p2")], cost: 1))
            #expect(schedule.held == 120)
            #expect(schedule.nextWork() == .batch([AccessPageAsk(repository: "o/a", cursor: "p2")]))
            #expect(schedule.nextWork() == nil)
        }
    }

    /// A resumed map leaves out its last repository written and every one before it, whatever the case either
    /// is spelt in (GitHub's names are unique case aside), and GitHub's listing order does not matter.
    @Test func aResumedMapLeavesOutWhatWasWrittenCaseAside() throws {
        var schedule = AccessSchedule(batchSize: 10, lookahead: 10, after: "o/Beta")
        #expect(schedule.nextWork() == .listing(after: nil))
        _ = try schedule.take(
            .listed(names: ["o/gamma", "o/alpha", "o/beta", "o/BETB", "o/a_z"], next: nil, cost: nil, total: nil))
        #expect(schedule.slots.map(\.repository) == ["o/gamma", "o/BETB"])
        let asks = ["o/BETB", "o/gamma"].map { AccessPageAsk(repository: $0, cursor: nil) }
        #expect(schedule.nextWork() == .batch(asks))
    }

    /// `only` reads the named repositories without listing the organization's: their names are looked up in one
    /// request (`nameWithOwner`, which follows a rename), and each is read and written under GitHub's name.
    @Test func onlyTheNamedRepositoriesAreReadWithoutAListing() async throws {
        let world = AccessWorld(
            organization: "octo-org", members: [],
            collaborators: ["a": [Self.person(1)], "b": [Self.person(2)], "c": [Self.person(3)]], renamed: ["z": "a"])
        let stub = StubTransport()
        stub.answerEvery { request, _ in world.answer(request) }
        let (sink, summary) = try await Self.read(stub, only: ["B", "z"])
        #expect(world.lookups == [["B", "z"]])
        #expect(world.batches == [["a@", "b@"]])
        #expect(sink.records.map(\.repository) == ["octo-org/a", "octo-org/b"])
        #expect(!stub.received.contains { AccessWorld.query(of: $0).contains("repositories(") })
        #expect(summary.requests == 3 && summary.repositories == 2)
    }

    /// A repository that is not there is missing, not refused: one the lookup of names finds nowhere, or in
    /// another organization (moved away), is never asked for, and one gone since (NOT_FOUND at its path, or
    /// null) is missing too.
    @Test func aRepositoryThatIsNotThereIsMissing() async throws {
        let stub = StubTransport()
        stub.register(RequestMatcher("POST /graphql"), body: Data(AccessBodies.members([]).utf8))
        stub.register(
            RequestMatcher("POST /graphql"),
            body: Data(
                AccessBodies.names(
                    [nil, "octo-org/gone", "octo-org/went", "other-org/moved"],
                    asked: ["octo-org/nope", "octo-org/gone", "octo-org/went", "octo-org/moved"]
                ).utf8))
        stub.register(
            RequestMatcher("POST /graphql"),
            body: Data(
                (#"{"data":{"r0":null,"r1":null},"errors":[{"type":"NOT_FOUND","path":["r0"],"#
                    + #""message":"Could not resolve to a Repository with the name 'octo-org/gone'."}]}"#).utf8))
        let (sink, summary) = try await Self.read(stub, concurrency: 1, only: ["nope", "gone", "went", "moved"])
        #expect(sink.records.isEmpty)
        #expect(summary.missing == ["octo-org/gone", "octo-org/moved", "octo-org/nope", "octo-org/went"])
        #expect(summary.unreadable.isEmpty)
        #expect(stub.problems.isEmpty)
        let batch = AccessWorld.query(of: try #require(stub.received.last))
        #expect(batch.contains(#"name: "gone""#) && !batch.contains(#"name: "nope""#) && !batch.contains("moved"))
    }

    /// What GitHub's errors say of a repository is taken only where they say it of the repository (`NOT_FOUND` at
    /// `[alias]`) or its collaborators (`FORBIDDEN`), of an alias asked. A `NOT_FOUND` at one collaborator's path,
    /// or a `FORBIDDEN` at an alias never asked, is an error of the answer: the read stops, where before the
    /// repository was left out as gone and the map exited 0 (helper-226; `--changes` then recorded its people
    /// removed).
    @Test(arguments: [
        #"{"type":"NOT_FOUND","path":["r0","collaborators","edges",2,"node"],"message":"Not found."}"#,
        #"{"type":"FORBIDDEN","path":["r77"],"message":"Forbidden."}"#,
    ])
    func anErrorAboutAnotherPathIsNoRepositoryGone(error: String) async throws {
        let stub = StubTransport()
        stub.register(RequestMatcher("POST /graphql"), body: Data(AccessBodies.members([]).utf8))
        stub.register(
            RequestMatcher("POST /graphql"), body: Data(AccessBodies.repositories(["docs"], of: "octo-org").utf8))
        stub.register(RequestMatcher("POST /graphql"), body: Data(#"{"data":{"r0":null},"errors":[\#(error)]}"#.utf8))
        do {
            let (sink, summary) = try await Self.read(stub, concurrency: 1)
            Issue.record("read \(sink.records.count) records, missing \(summary.missing)")
        } catch {
            // GitHub's own words, as the run's failure: a server error, or a refusal for FORBIDDEN.
            #expect("\(error)".contains(#"message: "GraphQL: "#), "\(error)")
        }
    }

    /// Pages that bring no one new but say there is more, each under a new cursor, stop after ten in a row, as a
    /// REST list's empty pages do: before, the members, the listing or a repository's collaborators were asked
    /// for without end (helper-226: 1,300 POSTs a minute, each a point of the GraphQL limit).
    @Test(arguments: ["members", "listing", "collaborators"])
    func pagesOfNothingNewStopAfterTen(connection: String) async throws {
        let stub = StubTransport()
        let me = AccessBodies.Member("pipcrispy", 1001, "ADMIN", twoFactor: true)
        stub.answerEvery { request, index in
            // Ends at the 40th, so that a reader without the bound ends too (and fails here) rather than hang.
            let next = index < 40 ? "cursor-\(index)" : nil
            let body: String
            switch (connection, index) {
            case ("members", _): body = AccessBodies.members(index == 0 ? [me] : [], next: next)
            case (_, 0): body = AccessBodies.members([me])
            case ("listing", _):
                body = AccessBodies.repositories(index == 1 ? ["docs"] : [], of: "octo-org", next: next)
            case (_, 1): body = AccessBodies.repositories(["docs"], of: "octo-org")
            default:
                let owner = AccessBodies.Collaborator(
                    "pipcrispy", 1001, "ADMIN", [AccessBodies.Source("Organization", "octo-org", "ADMIN")])
                let people = index == 2 ? [owner] : []
                body = AccessBodies.batch([.collaborators(people, next: next)])
            }
            return HTTPResponse(status: 200, headers: HTTPHeaders(), body: Data(body.utf8), url: request.url)
        }
        do {
            let (sink, _) = try await Self.read(stub, concurrency: 1)
            Issue.record("read \(sink.records.count) records")
        } catch {
            #expect("\(error)".contains("10 of "), "\(error)")
            #expect("\(error)".contains("pages in a row brought no one new while saying there is more"), "\(error)")
        }
        // The first page that brought someone, then ten that brought no one; and what came before.
        let before = ["members": 0, "listing": 1, "collaborators": 2][connection] ?? 0
        #expect(stub.received.count == before + 11)
    }

    /// A member listed twice (an owner on the first page, then a member without two-factor on the next: a list
    /// that shifted) keeps the first, as a REST list and a repository's edges do: before, the last.
    @Test func aMemberListedTwiceKeepsTheFirst() async throws {
        let stub = StubTransport()
        let owner = AccessBodies.Collaborator(
            "pipcrispy", 1001, "ADMIN", [AccessBodies.Source("Organization", "octo-org", "ADMIN")])
        for page in [
            AccessBodies.members([AccessBodies.Member("pipcrispy", 1001, "ADMIN", twoFactor: true)], next: "c1"),
            AccessBodies.members([AccessBodies.Member("pipcrispy", 1001, "MEMBER", twoFactor: false)]),
            AccessBodies.repositories(["docs"], of: "octo-org"),
            AccessBodies.batch([.collaborators([owner], next: nil)]),
        ] {
            stub.register(RequestMatcher("POST /graphql"), body: Data(page.utf8))
        }
        let (sink, _) = try await Self.read(stub, concurrency: 1)
        #expect(sink.records.map(\.affiliation) == [.owner])
        #expect(sink.records.map(\.twoFactor) == [true])
        #expect(stub.unusedStubs.isEmpty && stub.problems.isEmpty)
    }

    /// Pages that each bring a hundred new people (or repositories) under a new cursor stop once the list runs
    /// past `maximumListed` (lowered to 250 here): before, the members, the listing or a repository's
    /// collaborators were held and asked for without end (helper-235: 670 POSTs in 30 s, RSS growing 1.5 MB a
    /// second).
    @Test(arguments: ["members", "listing", "collaborators"])
    func pagesOfNewPeopleWithoutEndStopAtTheBound(connection: String) async throws {
        let stub = StubTransport()
        let me = AccessBodies.Member("pipcrispy", 1001, "ADMIN", twoFactor: true)
        stub.answerEvery { request, index in
            // Ends at the 40th, so that a reader without the bound ends too (and fails here) rather than hang.
            let next = index < 40 ? "cursor-\(index)" : nil
            let hundred = (0..<100).map { 100 * index + $0 }
            let body: String
            switch (connection, index) {
            case ("members", _):
                let members = hundred.map {
                    AccessBodies.Member("user-\($0)", Int64(5000 + $0), "MEMBER", twoFactor: nil)
                }
                body = AccessBodies.members(index == 0 ? [me] + members.dropFirst() : members, next: next)
            case (_, 0): body = AccessBodies.members([me])
            case ("listing", _):
                body = AccessBodies.repositories(hundred.map { "repo-\($0)" }, of: "octo-org", next: next)
            case (_, 1): body = AccessBodies.repositories(["docs"], of: "octo-org")
            default: body = AccessBodies.batch([.collaborators(hundred.map(Self.person), next: next)])
            }
            return HTTPResponse(status: 200, headers: HTTPHeaders(), body: Data(body.utf8), url: request.url)
        }
        let unit = ["members": "people", "listing": "repositories", "collaborators": "people"][connection] ?? ""
        await AccessSchedule.$maximumListed.withValue(250) {
            do {
                let (sink, _) = try await Self.read(stub, concurrency: 1)
                Issue.record("read \(sink.records.count) records")
            } catch {
                #expect("\(error)".contains("pages brought more than 250 \(unit), more than any organization has"))
            }
        }
        // Three pages bring 300: what came before, and those three.
        let before = ["members": 0, "listing": 1, "collaborators": 2][connection] ?? 0
        #expect(stub.received.count == before + 3)
    }

    /// A batch of one page refused once (a passing 502) is asked again, as larger batches are: before, the map
    /// ended at once with "refused even one page … as too large" (helper-226).
    @Test func aPageOfOneRefusedOnceIsAskedAgain() async throws {
        let stub = StubTransport()
        let owner = AccessBodies.Collaborator(
            "pipcrispy", 1001, "ADMIN", [AccessBodies.Source("Organization", "octo-org", "ADMIN")])
        stub.register(
            RequestMatcher("POST /graphql"),
            body: Data(AccessBodies.members([AccessBodies.Member("pipcrispy", 1001, "ADMIN", twoFactor: true)]).utf8))
        stub.register(
            RequestMatcher("POST /graphql"), body: Data(AccessBodies.repositories(["docs"], of: "octo-org").utf8))
        stub.register(RequestMatcher("POST /graphql"), status: 502, body: Data(#"{"message":"Bad Gateway"}"#.utf8))
        stub.register(
            RequestMatcher("POST /graphql"), body: Data(AccessBodies.batch([.collaborators([owner], next: nil)]).utf8))
        let (sink, summary) = try await Self.read(stub, concurrency: 1)
        #expect(sink.records.map(\.login) == ["pipcrispy"])
        #expect(summary.requests == 4)
        #expect(stub.unusedStubs.isEmpty && stub.problems.isEmpty)
    }

    /// A GraphQL answer behind a byte-order mark, or in UTF-16, is not GitHub's: malformed (NETWORK.md), where
    /// Foundation's decoder took it and the read went on (helper-226).
    @Test(arguments: [[UInt8]([0xEF, 0xBB, 0xBF]), [0xFF, 0xFE]])
    func aGraphQLAnswerBehindAByteOrderMarkIsMalformed(mark: [UInt8]) async throws {
        let members = AccessBodies.members([AccessBodies.Member("pipcrispy", 1001, "ADMIN", twoFactor: true)])
        let body =
            mark.count == 2
            ? mark + Array(members.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            : mark + Array(members.utf8)
        let stub = StubTransport()
        stub.register(RequestMatcher("POST /graphql"), body: Data(body))
        #expect(await Self.malformedDetail(stub) == "the body is not valid JSON: expected '{' at its start")
    }

    /// A web page in a 200 is said as one, with the API URL to check, as REST says it (helper-320: "expected '{'
    /// at its start" named nothing to check).
    @Test func aGraphQLAnswerThatIsAWebPageIsSaidAsOne() async throws {
        let stub = StubTransport()
        stub.register(
            RequestMatcher("POST /graphql"), headers: [("Content-Type", "text/html")],
            body: Data("<!DOCTYPE html><html><body>Sign in</body></html>".utf8))
        let detail = await Self.malformedDetail(stub)
        #expect(
            detail?.hasPrefix("the server answered a web page (HTTP 200), not GitHub's API: check the API URL") == true,
            "\(detail ?? "")")
    }

    /// What the read's failure says of a malformed answer; nil (and an issue) when it read, or failed otherwise.
    private static func malformedDetail(_ stub: StubTransport) async -> String? {
        do {
            _ = try await read(stub, concurrency: 1)
            Issue.record("the answer was read")
        } catch {
            if case .malformedResponse(_, let detail, _) = error { return detail }
            Issue.record("\(error)")
        }
        return nil
    }

    /// The map is of the organization's repositories: another owner's in its listing is an error of the answer,
    /// never mapped (before: asked for, mapped and recorded as the organization's).
    @Test func anotherOwnersRepositoryInTheListingIsRefused() async throws {
        let stub = StubTransport()
        stub.register(RequestMatcher("POST /graphql"), body: Data(AccessBodies.members([]).utf8))
        stub.register(
            RequestMatcher("POST /graphql"), body: Data(AccessBodies.repositories(["secret"], of: "other-org").utf8))
        #expect(await Self.malformedDetail(stub) == "a repository of another owner in the organization's listing")
        #expect(stub.received.count == 2)
    }

    /// No such organization is not found (exit 3), said without a flag.
    @Test func anUnknownOrganizationIsNotFound() async {
        let stub = StubTransport()
        stub.register(RequestMatcher("POST /graphql"), body: Data(AccessBodies.unknownOrganization("octo-org").utf8))
        let error = await Self.failure { () async throws(DomainError) in _ = try await Self.read(stub) }
        #expect(error == .notFound(resource: "organization 'octo-org'", byGraphQL: true))
        #expect(stub.problems.isEmpty)
    }

    /// A spent graphql bucket is the rate limit every GraphQL command meets.
    @Test func aSpentLimitIsTheGraphQLRateLimit() async {
        let stub = StubTransport()
        stub.register(
            RequestMatcher("POST /graphql"),
            headers: [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "2000000000")],
            body: Data(AccessBodies.rateLimited.utf8))
        let error = await Self.failure { () async throws(DomainError) in _ = try await Self.read(stub) }
        guard case .rateLimited(let reset, let message, let resource, _)? = error, resource == "graphql" else {
            Issue.record("not a rate limit: \(String(describing: error))")
            return
        }
        #expect(reset == Date(timeIntervalSince1970: 2_000_000_000))
        #expect(message.contains("API rate limit already exceeded"))
        #expect(!message.contains("--"))
    }

    /// A batch refused as too large (GitHub's resource limits, or its timeout error in a 200) is asked again in
    /// smaller batches; the pages it held are asked once more, and none that was answered is asked again.
    @Test(arguments: [
        #"{"data":null,"errors":[{"type":"RESOURCE_LIMITS_EXCEEDED","message":"Resource limits for this query exceeded."}]}"#,
        GraphQLTimeoutBodies.recorded,
    ])
    func aBatchRefusedForSizeIsAskedAgainSmaller(refusal: String) async throws {
        var collaborators: [String: [AccessBodies.Collaborator]] = [:]
        for index in 0..<10 { collaborators["r\(index)"] = [Self.person(index)] }
        let world = AccessWorld(organization: "octo-org", members: [], collaborators: collaborators)
        let stub = StubTransport()
        stub.answerEvery { request, index in
            let query = AccessWorld.query(of: request)
            if query.contains("collaborators(first:"), query.contains("r9: repository") {
                return HTTPResponse(status: 200, headers: HTTPHeaders(), body: Data(refusal.utf8), url: request.url)
            }
            return world.answer(request)
        }
        let (sink, summary) = try await Self.read(stub, concurrency: 1)
        #expect(world.batches.map(\.count) == [5, 5])
        #expect(sink.records.count == 10)
        // members, listing, the refused batch, two halves.
        #expect(summary.requests == 5)
    }

    /// The members' and the listing's pages cannot be asked smaller: a 502 is sent again as a GET's is, and one
    /// that outlives the retries is the server's failure, not "GitHub's GraphQL API refused" (before: the first
    /// 502 ended the run as a refusal).
    @Test func aMembersPageThatRanOutOfTimeIsAskedAgainThenIsTheServers() async throws {
        let world = AccessWorld(
            organization: "octo-org", members: [], collaborators: ["r0": [Self.person(0)]])
        let stub = StubTransport()
        stub.register(RequestMatcher("POST /graphql"), status: 502, body: Data("<html>".utf8))
        stub.answerEvery { request, _ in world.answer(request) }
        let reading = AccessReading(organization: Self.org, github: stub.repository(retries: 1), concurrency: 1)
        var summary = AccessReadSummary()
        _ = try await reading.members(counting: &summary)
        #expect(stub.received.count == 2)

        let down = StubTransport()
        for _ in 0..<2 { down.register(RequestMatcher("POST /graphql"), status: 502, body: Data("<html>".utf8)) }
        let error = await Self.failure { () async throws(DomainError) in
            var summary = AccessReadSummary()
            _ = try await AccessReading(organization: Self.org, github: down.repository(retries: 1), concurrency: 1)
                .members(counting: &summary)
        }
        guard case .server(502, _, _)? = error else {
            Issue.record("not the server's 502: \(String(describing: error))")
            return
        }
    }

    /// GitHub's timeout in a 200 (the recorded body) on the members' page is asked again as its 502 is, and
    /// the run goes on (before: it ended at once as "GitHub's GraphQL API refused").
    @Test func aMembersPageTimedOutInA200IsAskedAgain() async throws {
        let world = AccessWorld(
            organization: "octo-org", members: [], collaborators: ["r0": [Self.person(0)]])
        let stub = StubTransport()
        stub.register(RequestMatcher("POST /graphql"), body: Data(GraphQLTimeoutBodies.recorded.utf8))
        stub.answerEvery { request, _ in world.answer(request) }
        let reading = AccessReading(organization: Self.org, github: stub.repository(retries: 1), concurrency: 1)
        var summary = AccessReadSummary()
        _ = try await reading.members(counting: &summary)
        #expect(stub.received.count == 2)
    }

    /// A page that says there is more without saying where is malformed, not the end.
    @Test func moreWithoutACursorIsMalformed() async {
        let stub = StubTransport()
        stub.register(RequestMatcher("POST /graphql"), body: Data(AccessBodies.members([]).utf8))
        stub.register(
            RequestMatcher("POST /graphql"), body: Data(AccessBodies.repositories(["a"], of: "octo-org").utf8))
        stub.register(
            RequestMatcher("POST /graphql"),
            body: Data(
                #"{"data":{"r0":{"collaborators":{"pageInfo":{"hasNextPage":true,"endCursor":null},"edges":[]}}}}"#
                    .utf8))
        let error = await Self.failure { () async throws(DomainError) in
            _ = try await Self.read(stub, concurrency: 1)
        }
        guard case .malformedResponse(_, let detail, _)? = error else {
            Issue.record("not malformed: \(String(describing: error))")
            return
        }
        #expect(detail.contains("endCursor"))
    }

    /// A server whose cursors go round in circles (A, B, A, …) ends the read as malformed, naming the
    /// connection, once a cursor asked comes back, however far back: the members, the repository listing and a
    /// repository's collaborators. Before, a cycle longer than one page was read forever. Each answer is
    /// registered once, so a cursor asked again finds no stub.
    @Test(arguments: ["members", "listing", "collaborators"])
    func aCursorThatComesBackIsMalformed(connection: String) async {
        let stub = StubTransport()
        let pages = { (body: (String?) -> String) in
            for next in ["A", "B", "A"] { stub.register(RequestMatcher("POST /graphql"), body: Data(body(next).utf8)) }
        }
        let listing = AccessBodies.repositories(["a"], of: "octo-org")
        switch connection {
        case "members":
            pages { AccessBodies.members([], next: $0) }
        case "listing":
            stub.register(RequestMatcher("POST /graphql"), body: Data(AccessBodies.members([]).utf8))
            pages { AccessBodies.repositories(["a"], of: "octo-org", next: $0) }
        default:
            stub.register(RequestMatcher("POST /graphql"), body: Data(AccessBodies.members([]).utf8))
            stub.register(RequestMatcher("POST /graphql"), body: Data(listing.utf8))
            pages { AccessBodies.batch([.collaborators([Self.person(1)], next: $0)]) }
        }
        let error = await Self.failure { () async throws(DomainError) in
            _ = try await Self.read(stub, concurrency: 1)
        }
        let named = ["members": "the members'", "listing": "the repository listing's"][connection]
        #expect(
            error
                == .malformedResponse(
                    endpoint: "POST /graphql",
                    detail: "\(named ?? "octo-org/a's collaborators'") next page was read before (its cursor came "
                        + "back), so paging stopped"))
        #expect(stub.problems.isEmpty, "\(stub.problems)")
    }

    /// A page holds at most the 100 asked: a page of 101 members, repositories or collaborators is no answer
    /// GitHub gives, malformed before any of it is kept.
    @Test(arguments: ["the members", "the repository listing", "octo-org/a's collaborators"])
    func aPageOfMoreThanAHundredIsMalformed(connection: String) async {
        let many = (0..<101).map { Self.person($0) }
        let members = AccessBodies.members(many.map { AccessBodies.Member($0.login, $0.id, "MEMBER", twoFactor: nil) })
        let bodies =
            connection == "the members"
            ? [members]
            : connection == "the repository listing"
                ? [AccessBodies.members([]), AccessBodies.repositories(many.map(\.login), of: "octo-org")]
                : [
                    AccessBodies.members([]), AccessBodies.repositories(["a"], of: "octo-org"),
                    AccessBodies.batch([.collaborators(many, next: nil)]),
                ]
        let stub = StubTransport()
        for body in bodies { stub.register(RequestMatcher("POST /graphql"), body: Data(body.utf8)) }
        let error = await Self.failure { () async throws(DomainError) in
            _ = try await Self.read(stub, concurrency: 1)
        }
        guard case .malformedResponse(_, let detail, _)? = error else {
            Issue.record("not malformed: \(String(describing: error))")
            return
        }
        #expect(detail == "a page of \(connection) holds 101, where a page holds at most 100")
        #expect(stub.problems.isEmpty, "\(stub.problems)")
    }

    /// The batch query asks what the schema has: aliases of `repository(owner:, name:)`, 100 collaborators of
    /// every affiliation a page, the permission, its sources and the person; the listing is by name.
    @Test func theQueriesAskTheSchemasFields() {
        let asks = [
            AccessPageAsk(repository: "octo-org/a", cursor: nil),
            AccessPageAsk(repository: "octo-org/b\"", cursor: "Y3Vy"),
        ]
        let batch = String(decoding: GraphQLAccessQuery.collaborators(asks), as: UTF8.self)
        #expect(batch.contains(#"r0: repository(owner: \"octo-org\", name: \"a\")"#))
        #expect(batch.contains(#"r1: repository(owner: \"octo-org\", name: \"b\\\"\")"#))
        #expect(batch.contains(#"collaborators(first: 100, affiliation: ALL, after: \"Y3Vy\")"#))
        #expect(batch.contains("permissionSources {") && batch.contains("roleName") && batch.contains("__typename"))
        #expect(batch.contains("... on Team { slug }"))
        let listing = String(decoding: GraphQLAccessQuery.repositories(of: "octo-org", after: nil), as: UTF8.self)
        #expect(listing.contains("ownerAffiliations: OWNER, orderBy: {field: NAME, direction: ASC}"))
        #expect(!listing.contains("isArchived:"))
        let members = String(decoding: GraphQLAccessQuery.members(of: "octo-org", after: "x"), as: UTF8.self)
        #expect(members.contains(#"membersWithRole(first: 100, after: \"x\")"#))
        #expect(members.contains("edges { role hasTwoFactorEnabled node { login databaseId } }"))
        #expect(members.contains("viewer { login databaseId }"))
        let names = String(decoding: GraphQLAccessQuery.names(asks), as: UTF8.self)
        #expect(names.contains(#"r1: repository(owner: \"octo-org\", name: \"b\\\"\") { nameWithOwner }"#))
    }
}
