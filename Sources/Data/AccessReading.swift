import Domain
import Foundation
import JSONBytes
import Networking

/// Where the access map's records go, one repository's at a time, in the map's order.
package protocol AccessRecordSink {
    /// `records` are the repository's ("ORG/NAME"), sorted by login; empty when GitHub refused its collaborators
    /// or it is not there (`read`). False stops the read (stdout is closed).
    mutating func take(_ records: [AccessRecord], of repository: String, read: AccessRepositoryRead) async -> Bool
}

/// How a repository's collaborators were read.
package enum AccessRepositoryRead: Sendable, Equatable {
    case read
    /// GitHub refused them (`FORBIDDEN`: no push access).
    case refused
    /// No such repository: gone since its listing, or never there.
    case gone
}

/// An organization's access map through GraphQL: every repository of the organization the token can read
/// (archived ones too), every person with access to it, with the permission, its sources, and how the person
/// stands to the organization.
///
/// The membership is read first (`membersWithRole`, 100 a page: the owners, the members, and their two-factor
/// state; with `viewer`, whether that is every member). Then the repositories are listed (`Organization.repositories`, 100 names a page, by name) and their
/// collaborators read in batches: one POST asks one page of 100 collaborators for each of up to `batchSize`
/// repositories (aliased `repository(owner:, name:)` lookups), and a repository with more people is continued
/// by cursor in a later batch, so each page is asked once. Up to `concurrency` POSTs are in flight at once,
/// the next listing page among them. Each batch of ten pages of a hundred is about a thousand nodes, far under
/// GitHub's limit of 500,000, and costs a point; a batch GitHub refuses as too large (its node or resource
/// limits, a 502 or 504 when the query ran out of time) is asked again smaller (`GraphQLBatchSizing`), and
/// refusals in a row past a few stop the run.
/// One person's access (`person`) is asked with `collaborators(first: 1, login:)`: a page of at most one edge,
/// so a batch asks 50 repositories (`personBatchSize`) and none is continued.
///
/// Records come out sorted by repository, then login, case aside. GitHub lists repositories by name in its own
/// collation (which may put `a_b` after `ab`), so the listing is read to its end, each page asked as soon as the
/// one before is in, while the first repositories' collaborators are already being read; a repository's
/// records are handed on once the listing is whole, all its pages are read, and every repository before it has
/// been handed on. Only repositories within `lookahead` of the next to hand on (in the map's order; before the
/// listing is whole, the first `lookahead` listed) are begun, so memory stays flat however large the
/// organization.
///
/// A repository whose collaborators GitHub refuses (a token without push access gets `FORBIDDEN` at that path)
/// is named in the summary's `unreadable`, one that is not there (gone since its listing, or never there) in
/// `missing`, and the others'
/// records are still handed on. An unknown organization is `notFound`; a spent rate limit is waited out or
/// thrown as every GraphQL query's is (`GitHubRepository.graphQL(_:decode:)`).
package struct AccessReading: Sendable {
    package static let defaultBatchSize = 10
    /// Repositories a batch asks one person's access on (`collaborators(first: 1, login:)`): a node or two each.
    package static let personBatchSize = 50

    private let organization: Login
    private let github: GitHubRepository
    private let concurrency: Int
    private let batchSize: Int
    /// One person's access alone: their login, which GitHub's `collaborators(login:)` filters by.
    private let person: String?
    /// Repositories read ahead of the next one handed on.
    private let lookahead: Int

    package init(
        organization: Login, github: GitHubRepository, concurrency: Int = 4, person: String? = nil,
        batchSize: Int? = nil
    ) {
        self.organization = organization
        self.github = github
        self.concurrency = max(1, concurrency)
        self.person = person
        self.batchSize = max(1, batchSize ?? (person == nil ? Self.defaultBatchSize : Self.personBatchSize))
        lookahead = max(100, 4 * self.concurrency * self.batchSize)
    }

    /// The organization's members by account id (owner or not, and the two-factor state), and whether they are
    /// all of them: the token's account (`viewer`) is among them.
    package func members(counting summary: inout AccessReadSummary) async throws(DomainError) -> AccessMembership {
        var members: [Int64: AccessMember] = [:]
        var viewer: Int64?
        var cursor: String?
        var asked = URLDigests()
        var stale = 0
        repeat {
            let login = organization.value
            let page = try await ask(GraphQLAccessQuery.members(of: login, after: cursor), summary: &summary) {
                response, endpoint throws(GraphQLBatchFailure) in
                try GraphQLAccessResponse.members(response, of: login, endpoint: endpoint)
            }
            summary.points += max(0, page.cost ?? 0)
            let known = members.count
            // A person listed twice (a page that repeats one, a list that shifted) keeps the first, as a REST
            // list and a repository's edges do.
            for (id, member) in page.members where members[id] == nil { members[id] = member }
            try AccessSchedule.bounded(members.count, of: "the members'", counting: "people")
            viewer = viewer ?? page.viewer
            if let next = page.next, !asked.insert(next) { throw AccessSchedule.cycle("the members'") }
            stale = try AccessSchedule.stale(
                after: stale, more: page.next != nil, new: members.count > known, of: "the members'")
            cursor = page.next
        } while cursor != nil
        return AccessMembership(
            members: members, isComplete: viewer.map { members[$0] != nil } ?? false, viewer: viewer)
    }

    /// One query of the membership or the listing, sent alone.
    private func ask<Value>(
        _ body: [UInt8], summary: inout AccessReadSummary,
        decode: (HTTPResponse, String) throws(GraphQLBatchFailure) -> Value
    ) async throws(DomainError) -> Value {
        summary.requests += 1
        do {
            return try await github.graphQL(body, repeating: .asIs, decode: decode)
        } catch {
            throw Self.domainError(error)
        }
    }

    private static func domainError(_ failure: GraphQLBatchFailure) -> DomainError {
        switch failure {
        case .failed(let error): return error
        case .tooLarge(let reason), .unsupported(let reason): return .refused("GitHub's GraphQL API refused: \(reason)")
        }
    }

    /// Reads the map into `sink`, repository by repository in order; `only` (names within the organization)
    /// reads those repositories alone, without listing the organization's, under the names GitHub gives them. `after` ("ORG/NAME", a resumed map's
    /// last repository written) leaves out every repository up to it in the map's order: none of their pages is
    /// asked.
    package func read<Sink: AccessRecordSink>(
        members: AccessMembership, only: [String]? = nil, after: String? = nil, into sink: inout Sink,
        counting summary: inout AccessReadSummary
    ) async throws(DomainError) {
        var schedule = AccessSchedule(batchSize: batchSize, lookahead: lookahead, after: after)
        if let only {
            let found = try await names(only, counting: &summary)
            schedule.listed(found.map { $0.name ?? $0.asked }, next: nil)
            schedule.gone(found.filter { $0.name == nil }.map(\.asked))
            summary.repositories = schedule.slots.count
        }
        let failure: DomainError? = await withTaskGroup(of: AccessOutcome.self) { group in
            var inFlight = 0
            while true {
                // What is whole is handed on first: `--repo` names that are all gone are whole before any request.
                while let done = schedule.nextDone() {
                    if done.gone { summary.missing.append(done.repository) }
                    if done.unreadable != nil { summary.unreadable.append(done.repository) }
                    let records = done.edges.map { Self.record($0, in: done.repository, members: members) }
                        .sorted { AccessOrder.precedes($0.login, $1.login) }
                    let read: AccessRepositoryRead = done.gone ? .gone : done.unreadable == nil ? .read : .refused
                    summary.records += records.count
                    guard await sink.take(records, of: done.repository, read: read) else {
                        group.cancelAll()
                        return DomainError.cancelled
                    }
                }
                if schedule.isFinished { return nil }
                while inFlight < concurrency, let work = schedule.nextWork() {
                    inFlight += 1
                    summary.requests += 1
                    group.addTask { await self.perform(work) }
                }
                guard inFlight > 0, let outcome = await group.next() else {
                    return DomainError.malformedResponse(
                        endpoint: "POST /graphql", detail: "the access map's read stopped with pages still to ask")
                }
                inFlight -= 1
                do throws(DomainError) {
                    let cost = try schedule.take(outcome)
                    summary.points += cost
                    summary.repositories = max(summary.repositories, schedule.slots.count)
                    summary.counted = schedule.counted
                } catch {
                    group.cancelAll()
                    return error
                }
            }
        }
        if let failure { throw failure }
    }

    /// The names GitHub gives the repositories `only` names ("ORG/NAME", 100 a request), so that they are read,
    /// ordered and written as the whole map has them: spelt as GitHub spells them, a renamed one under its
    /// name now. `name` is nil for one GitHub finds nowhere, or in another organization (moved away): not there.
    private func names(_ only: [String], counting summary: inout AccessReadSummary) async throws(DomainError)
        -> [(asked: String, name: String?)]
    {
        let asked = only.map { AccessPageAsk(repository: organization.value + "/" + $0, cursor: nil) }
        let owner = organization.value.lowercased() + "/"
        var found: [(asked: String, name: String?)] = []
        for start in stride(from: 0, to: asked.count, by: GraphQLAccessQuery.pageSize) {
            let chunk = Array(asked[start..<min(asked.count, start + GraphQLAccessQuery.pageSize)])
            let answer = try await ask(GraphQLAccessQuery.names(chunk), summary: &summary) {
                response, endpoint throws(GraphQLBatchFailure) in
                try GraphQLAccessResponse.names(response, asked: chunk, endpoint: endpoint)
            }
            summary.points += max(0, answer.cost ?? 0)
            for (ask, name) in zip(chunk, answer.names) {
                found.append((ask.repository, name.flatMap { $0.lowercased().hasPrefix(owner) ? $0 : nil }))
            }
        }
        return found
    }

    private func perform(_ work: AccessWork) async -> AccessOutcome {
        switch work {
        case .listing(let cursor):
            let login = organization.value
            do {
                let page = try await github.graphQL(
                    GraphQLAccessQuery.repositories(of: login, after: cursor), repeating: .asIs
                ) {
                    response, endpoint throws(GraphQLBatchFailure) in
                    try GraphQLAccessResponse.repositories(response, of: login, endpoint: endpoint)
                }
                return .listed(names: page.names, next: page.next, cost: page.cost, total: page.total)
            } catch {
                return .failed(error)
            }
        case .batch(let asks):
            do {
                let answer = try await github.graphQL(GraphQLAccessQuery.collaborators(asks, login: person)) {
                    response, endpoint throws(GraphQLBatchFailure) in
                    try GraphQLAccessResponse.batch(response, asked: asks, endpoint: endpoint)
                }
                return .answered(asks, answer.answers, cost: answer.cost)
            } catch {
                return .refused(asks, error)
            }
        }
    }

    /// The record of `edge`: its affiliation as `AccessMembership.affiliation` tells it (null where the token
    /// cannot tell, never a guess), and the two-factor state of a member listed (null for anyone else, never
    /// false).
    static func record(_ edge: AccessEdge, in repository: String, members: AccessMembership) -> AccessRecord {
        let member = members.members[edge.id]
        let affiliation = members.affiliation(of: edge.id, sources: edge.sources)
        let sources = edge.sources.map { source in
            JSONValue.object([
                .init("kind", .string(source.kind.rawValue)), .init("name", .string(source.name)),
                .init("permission", .string(source.permission)),
            ])
        }
        let raw = JSONValue.object([
            .init("repository", .string(repository)), .init("login", .string(edge.login)),
            .init("id", .integer(edge.id)), .init("permission", .string(edge.permission.rawValue)),
            .init("affiliation", affiliation.map { .string($0.rawValue) } ?? .null), .init("sources", .array(sources)),
            .init("two_factor", member?.twoFactor.map(JSONValue.bool) ?? .null),
        ])
        return AccessRecord(
            repository: repository, login: edge.login, id: edge.id, permission: edge.permission,
            affiliation: affiliation, sources: edge.sources, twoFactor: member?.twoFactor,
            raw: RawJSON(bytes: raw.bytes))
    }
}
