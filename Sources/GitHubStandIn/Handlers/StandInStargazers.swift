import Domain
import Foundation
import JSONBytes

/// Who starred a repository, and when: the world's stars, or every User account of the population, the k-th at
/// `firstStar + k` hours, stored nowhere. One list answers the stargazers, the counts and the history, so they agree.
struct StandInStargazerList {
    /// For the population's stars: where those who took theirs back sit in `userPositions`.
    private let withdrawn: [Int]
    /// How many of the population's stars are kept (none for a repository that lists its stars).
    private let kept: Int
    /// The stars listed, or for the population's those given since.
    private let later: [(user: StandInUser, at: Int)]
    private let population: StandInPopulation

    init(_ repository: StandInWorld.Repository, in population: StandInPopulation) {
        self.population = population
        later = (repository.stars ?? repository.laterStars).compactMap { star in
            guard let user = population.user(login: star.user),
                let at = UTCTimestamp.epochSeconds(iso8601: star.starredAt)
            else { return nil }
            return (user, at)
        }.sorted { $0.at < $1.at }
        withdrawn = repository.unstarred.compactMap { login in
            population.user(login: login).flatMap { user in population.userPositions.firstIndex(of: user.ordinal - 1) }
        }.sorted()
        kept = repository.stars == nil ? population.userPositions.count - withdrawn.count : 0
    }

    var count: Int { kept + later.count }

    /// Who gave the star at `position`, oldest first, and when.
    func star(at position: Int) -> (user: StandInUser, at: Int) {
        guard position < kept else { return later[position - kept] }
        // The index among the User accounts, past those who took their star back.
        var index = position
        for gone in withdrawn where gone <= index { index += 1 }
        return (population.users[population.userPositions[index]], Self.firstStar + 3_600 * (index + 1))
    }

    /// When `user` starred the repository; nil for never (or a star taken back).
    func starredAt(by user: StandInUser) -> Int? {
        if let star = later.first(where: { $0.user.id == user.id }) { return star.at }
        guard kept > 0, user.type == "User", let index = population.userPositions.firstIndex(of: user.ordinal - 1),
            !withdrawn.contains(index)
        else { return nil }
        return Self.firstStar + 3_600 * (index + 1)
    }

    /// GitHub's star history: `{"week", "total", "days"}` for each week (from Sunday, UTC) with a star, newest first.
    func weeks() -> [[UInt8]] {
        var days: [Int: [Int]] = [:]
        for position in 0..<count {
            let day = star(at: position).at / 86_400
            let weekday = (day + 4) % 7
            days[day - weekday, default: Array(repeating: 0, count: 7)][weekday] += 1
        }
        return days.keys.sorted(by: >).map { week in
            let counts = days[week, default: []].map { Int64($0) }
            return JSONValue.object([
                .init("week", .integer(Int64(week * 86_400))), .init("total", .integer(counts.reduce(0, +))),
                .init("days", .array(counts.map(JSONValue.integer))),
            ]).bytes
        }
    }
}

/// GitHub's July 2026 rule: only those with a grant on a repository may list its stargazers and watchers; anyone
/// else gets 404 (the answer reported most often), or GraphQL's empty list. REST stops at 40,000 with GitHub's 422;
/// GraphQL has no such cap.
extension StandInStargazerList {
    static let firstStar = 1_420_070_400
    static let restCap = Endpoint.stargazers.itemCap ?? 40_000
    static let paginationLimited = StandInRecordedHandler.body(named: "error-422-pagination-limited") ?? []
}
