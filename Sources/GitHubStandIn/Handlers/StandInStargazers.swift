import Domain
import Foundation
import JSONBytes

/// Who starred a repository, and when: the world's stars (`StandInWorld.Repository.stars`), or for a repository
/// the population stars every User account, in ordinal order, the k-th starring `firstStar + k` hours: nothing is
/// stored, so a population of 45,000 gives a repository past REST's cap. One list answers the stargazers (REST and
/// GraphQL), `stargazers_count`, the star count and the star history, so they always agree.
struct StandInStargazerList {
    private let listed: [(user: StandInUser, at: Int)]?
    /// For the population's stars: where those who took theirs back sit in `userPositions`, ascending; and the
    /// stars given since, after every one of the population's.
    private let withdrawn: [Int]
    private let later: [(user: StandInUser, at: Int)]
    private let population: StandInPopulation

    init(_ repository: StandInWorld.Repository, in population: StandInPopulation) {
        self.population = population
        func resolved(_ stars: [StandInWorld.Star]) -> [(user: StandInUser, at: Int)] {
            stars.compactMap { star in
                guard let user = population.user(login: star.user),
                    let at = UTCTimestamp.epochSeconds(iso8601: star.starredAt)
                else { return nil }
                return (user, at)
            }.sorted { $0.at < $1.at }
        }
        listed = repository.stars.map(resolved)
        later = resolved(repository.laterStars)
        withdrawn = repository.unstarred.compactMap { login in
            population.user(login: login).flatMap { user in population.userPositions.firstIndex(of: user.ordinal - 1) }
        }.sorted()
    }

    /// How many of the population's stars are still given.
    private var kept: Int { population.userPositions.count - withdrawn.count }

    var count: Int { listed?.count ?? kept + later.count }

    /// Where the population's `position`-th kept star sits in `userPositions`, past the withdrawn ones.
    private func populationIndex(_ position: Int) -> Int {
        var index = position
        for gone in withdrawn where gone <= index { index += 1 }
        return index
    }

    func user(at position: Int) -> StandInUser {
        if let listed { return listed[position].user }
        guard position < kept else { return later[position - kept].user }
        return population.users[population.userPositions[populationIndex(position)]]
    }

    func starredAt(_ position: Int) -> Int {
        if let listed { return listed[position].at }
        guard position < kept else { return later[position - kept].at }
        return StandInStargazers.firstStar + 3_600 * (populationIndex(position) + 1)
    }

    /// GitHub's star history: `{"week", "total", "days"}` for each week (from Sunday, UTC) with a star, newest first.
    func weeks() -> [[UInt8]] {
        var days: [Int: [Int]] = [:]
        for position in 0..<count {
            let day = starredAt(position) / 86_400
            let weekday = (day + 4) % 7
            days[day - weekday, default: Array(repeating: 0, count: 7)][weekday] += 1
        }
        return days.keys.sorted(by: >).map { week in
            var writer = JSONByteWriter(reservingCapacity: 80)
            writer.raw("{\"week\":")
            writer.integer(week * 86_400)
            writer.raw(",\"total\":")
            writer.integer(days[week, default: []].reduce(0, +))
            writer.raw(",\"days\":[")
            writer.unescaped(days[week, default: []].map(String.init).joined(separator: ","))
            writer.raw("]}")
            return writer.bytes
        }
    }
}

/// Who may list a repository's stargazers and watchers: GitHub's July 2026 rule, and REST's 400-page cap, for
/// `GET /repos/{owner}/{repo}/stargazers` and GraphQL's `Repository.stargazers`.
///
/// - Only those with a grant on the repository (its admins and collaborators, `StandInWorld.grants`) may list its
///   stargazers or watchers. Anyone else (and anyone without a token) gets 404 `Not Found` for both lists, the
///   answer reported most often since July 2026; GraphQL answers them an empty list (`totalCount` 0).
/// - REST serves at most 40,000 stargazers (`Endpoint.stargazers`' cap): a page past it is 422 with the message
///   GitHub gives (`Bodies/error-422-pagination-limited.json`), and `Link` never points past the page that holds
///   the 40,000th. GraphQL has no such cap.
enum StandInStargazers {
    /// 2015-01-01T00:00:00Z.
    static let firstStar = 1_420_070_400
    static let restCap = Endpoint.stargazers.itemCap ?? 40_000
    /// The 422 GitHub gives for a page past the cap, as recorded.
    static let paginationLimited = StandInRecordedHandler.body(named: "error-422-pagination-limited") ?? []

    static func list(of repository: StandInWorld.Repository, in population: StandInPopulation) -> StandInStargazerList {
        StandInStargazerList(repository, in: population)
    }

    /// The repository, when it exists and the caller has a grant on it.
    static func listable(owner: String?, name: String?, _ request: StandInRouteRequest) -> StandInWorld.Repository? {
        let world = request.context.world.current
        guard let owner, let name, let repository = world.repository(owner, name),
            let login = request.signedInAccount?.login, world.permission(of: login, on: repository) != nil
        else { return nil }
        return repository
    }

    /// `{"starred_at", "user"}`, the star media type's record; the user alone in the default one.
    static func write(_ list: StandInStargazerList, at position: Int, star: Bool, into writer: inout JSONByteWriter) {
        guard star else { return list.user(at: position).writeSimpleUser(into: &writer) }
        writer.raw("{\"starred_at\":")
        writer.string(UTCTimestamp.iso8601(list.starredAt(position)))
        writer.raw(",\"user\":")
        list.user(at: position).writeSimpleUser(into: &writer)
        writer.raw("}")
    }
}

// GraphQL's `Repository.stargazers`, as `StandInGraphQLHandler` answers gh-users's stargazers query.
extension StandInStargazers {
    /// The `owner` and `name` of `repository(owner: "…", name: "…")`; nil when the document asks no repository.
    static func repository(in query: String) -> (owner: String, name: String)? {
        guard let call = query.range(of: "repository(owner:") else { return nil }
        guard let owner = literal(after: "owner:", in: query, from: call.lowerBound),
            let name = literal(after: "name:", in: query, from: call.lowerBound)
        else { return nil }
        return (owner, name)
    }

    /// The string literal after `label` (`after: "…"`), from `start` on; owners, names and the stand-in's cursors
    /// hold no quote or backslash, so it needs no unescaping.
    static func literal(after label: String, in query: String, from start: String.Index) -> String? {
        guard let found = query.range(of: label, range: start..<query.endIndex) else { return nil }
        let rest = query[found.upperBound...].drop { $0 == " " }
        guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { return nil }
        return String(rest[rest.index(after: rest.startIndex)..<close])
    }

    /// The stand-in's opaque cursor for the stargazer at `position` (0-based): base64 of `cursor:N`, N 1-based.
    static func cursor(_ position: Int) -> String {
        Data("cursor:\(position + 1)".utf8).base64EncodedString()
    }

    /// The position after the one `cursor` names; nil for a cursor the stand-in did not give.
    static func position(after cursor: String) -> Int? {
        guard let data = Data(base64Encoded: cursor), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("cursor:"), let number = Int(text.dropFirst("cursor:".count)), number >= 0
        else { return nil }
        return number
    }

    /// `"repository":{"stargazers":{…}}` for the query's `first` (at most 100) and `after`, oldest star first,
    /// with the fields gh-users's query asks in its order (`cursor` on each edge when asked); the caller's
    /// answer is an empty list when it may not list them. Nil for an `after` the stand-in did not give.
    static func writeRepository(
        _ repository: (owner: String, name: String), query: String, request: StandInRouteRequest,
        into writer: inout JSONByteWriter
    ) -> Bool {
        let world = listable(owner: repository.owner, name: repository.name, request)
        let stargazers = world.map { list(of: $0, in: request.population) }
        let listed = stargazers?.count ?? 0
        var start = 0
        if let after = literal(after: "after:", in: query, from: query.startIndex) {
            guard let position = position(after: after) else { return false }
            start = min(position, listed)
        }
        let firstText = query.range(of: "first:").map {
            query[$0.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
        }
        let first = max(0, min(100, firstText.flatMap { Int($0) } ?? 100))
        let end = min(listed, start + first)
        let cursors = query.contains("cursor")
        writer.raw("\"repository\":{\"stargazers\":{\"totalCount\":")
        writer.integer(listed)
        writer.raw(",\"pageInfo\":{\"hasNextPage\":")
        writer.boolean(end < listed)
        writer.raw(",\"endCursor\":")
        writer.optionalString(end > start ? cursor(end - 1) : nil)
        writer.raw("},\"edges\":[")
        for position in start..<end {
            guard let user = stargazers?.user(at: position) else { break }
            writer.raw(position == start ? "{" : ",{")
            if cursors {
                writer.raw("\"cursor\":")
                writer.string(cursor(position))
                writer.raw(",")
            }
            writer.raw("\"starredAt\":")
            writer.string(UTCTimestamp.iso8601(stargazers?.starredAt(position) ?? 0))
            writer.raw(",\"node\":")
            user.writeGraphQLNode(["id", "login", "avatarUrl", "url"], into: &writer)
            writer.raw("}")
        }
        writer.raw("]}}")
        return true
    }
}
