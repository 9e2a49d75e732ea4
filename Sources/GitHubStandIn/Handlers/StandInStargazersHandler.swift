import Domain
import Foundation
import JSONBytes

/// Who starred a repository, and when: the world's stars (`StandInWorld.Repository.stars`), or for a repository
/// the population stars every User account, in ordinal order, the k-th starring `firstStar + k` hours: nothing is
/// stored, so a population of 45,000 gives a repository past REST's cap. One list answers the stargazers (REST and
/// GraphQL), `stargazers_count`, the star count and the star history, so they always agree.
struct StandInStargazerList {
    private let listed: [(user: StandInUser, at: Int)]?
    private let population: StandInPopulation

    init(_ stars: [StandInWorld.Star]?, in population: StandInPopulation) {
        self.population = population
        listed = stars.map { stars in
            stars.compactMap { star in
                guard let user = population.user(login: star.user),
                    let at = UTCTimestamp.epochSeconds(iso8601: star.starredAt)
                else { return nil }
                return (user, at)
            }.sorted { $0.at < $1.at }
        }
    }

    var count: Int { listed?.count ?? population.userPositions.count }

    func user(at position: Int) -> StandInUser {
        listed?[position].user ?? population.users[population.userPositions[position]]
    }

    func starredAt(_ position: Int) -> Int {
        listed?[position].at ?? StandInStargazers.firstStar + 3_600 * (position + 1)
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

    static func list(of repository: StandInWorld.Repository, in population: StandInPopulation) -> StandInStargazerList {
        StandInStargazerList(repository.stars, in: population)
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

/// `GET /repos/{owner}/{repo}/stargazers` (see `StandInStargazers`).
struct StandInStargazersHandler: StandInHandler {
    let endpoint = Endpoint.stargazers
    static let paginationLimited = StandInRecordedHandler.body(named: "error-422-pagination-limited") ?? []

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard
            let repository = StandInStargazers.listable(
                owner: request.parameters["owner"], name: request.parameters["repo"], request)
        else {
            return StandInErrorBody.notFound(documentationURL: request.documentation)
        }
        let paging = StandInPageRequest(query: request.query)
        guard !paging.startsPast(StandInStargazers.restCap) else {
            return StandInHTTPResponse(status: 422, body: Self.paginationLimited)
        }
        let stargazers = StandInStargazers.list(of: repository, in: request.population)
        let count = min(stargazers.count, StandInStargazers.restCap)
        let star = StandInRecordedHandler(endpoint)?.asksForMediaType(request.header("Accept")) ?? false
        var writer = JSONByteWriter(reservingCapacity: 2 + paging.perPage * 1_300)
        writer.raw("[")
        for (index, position) in paging.range(inCount: count).enumerated() {
            writer.raw(index == 0 ? "" : ",")
            StandInStargazers.write(stargazers, at: position, star: star, into: &writer)
        }
        writer.raw("]")
        var response = StandInHTTPResponse(status: 200, body: writer.bytes)
        request.setPageLink(
            on: &response, paging: paging, path: request.path, lastPage: paging.pageCount(forCount: count))
        return response
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
            writer.raw(",\"node\":{\"databaseId\":")
            writer.integer(user.id)
            for (key, value) in [
                ("id", user.nodeID), ("login", user.login), ("avatarUrl", user.avatarURL), ("url", user.htmlURL),
            ] {
                writer.unescaped(",\"\(key)\":")
                writer.string(value)
            }
            writer.raw(",\"isSiteAdmin\":")
            writer.boolean(user.siteAdmin)
            writer.raw("}}")
        }
        writer.raw("]}}")
        return true
    }
}
