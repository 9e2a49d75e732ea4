// The search response shape (`total_count`, `incomplete_results`, `items` with `score`) is modelled on GitHub's
// documented example `search-users.json` (`user-search-result-item-paginated`, the 200 of `GET /search/users`),
// taken from GitHub's OpenAPI description, github/rest-api-description (MIT License, Copyright (c) 2020 GitHub).

/// Without a `sort`, GitHub orders by "best match".
package enum StandInUserSearchSort: String, Sendable, CaseIterable {
    case followers, repositories, joined
}

/// A parsed `q`: terms all of which must hold. Free text matches the login or name; the qualifiers are `type:`,
/// `followers:`, `repos:`, `created:` (`StandInCreatedRange`) and `location:`. Others, and values that do not
/// parse, are ignored; an unknown `type:` matches nothing.
struct StandInUserSearchQuery: Sendable {
    /// Lowercased, as `locations`.
    var freeText: [String] = []
    var type: String?
    var ranges: [(qualifier: String, range: ClosedRange<Int>)] = []
    var locations: [String] = []

    init(_ text: String) {
        for (token, quoted) in Self.tokens(of: text) {
            guard !quoted, let colon = token.firstIndex(of: ":"), colon != token.startIndex,
                token[..<colon].allSatisfy({ $0.isLetter || $0 == "_" || $0 == "-" })
            else {
                freeText.append(token.lowercased())
                continue
            }
            let qualifier = token[..<colon].lowercased()
            let value = String(token[token.index(after: colon)...])
            switch qualifier {
            case "type":
                type = ["user": "User", "org": "Organization"][value.lowercased(), default: "none"]
            case "followers", "repos", "created":
                let number = qualifier == "created" ? StandInCreatedRange.span : { Int($0).map { $0...$0 } }
                if let range = StandInCreatedRange.parse(value, value: number) { ranges.append((qualifier, range)) }
            case "location":
                locations.append(value.lowercased())
            default:
                // language: and anything unknown: GitHub's other qualifiers have no data here to filter on.
                break
            }
        }
    }

    func matches(_ user: StandInUser) -> Bool {
        guard type == nil || user.type == type else { return false }
        let numbers = StandInProfileNumbers(ordinal: user.ordinal)
        for (qualifier, range) in ranges {
            let value =
                qualifier == "created" ? user.createdAt : qualifier == "repos" ? numbers.publicRepos : numbers.followers
            guard range.contains(value) else { return false }
        }
        guard !freeText.isEmpty || !locations.isEmpty else { return true }
        let profile = user.profile
        let location = profile.location?.lowercased() ?? ""
        let login = user.login.lowercased()
        let name = profile.name?.lowercased() ?? ""
        return locations.allSatisfy { location.contains($0) }
            && freeText.allSatisfy { login.contains($0) || name.contains($0) }
    }

    /// Splits on whitespace outside double quotes, dropping them; a token that starts with a quote is free text. A
    /// token whose quote never closes (`open`: it runs to the end) is dropped with what follows it.
    private static func tokens(of text: String) -> [(text: String, quoted: Bool)] {
        let token = #/(?<open>(?:"[^"]*"|[^\s"])*"[^"]*$)|(?:"[^"]*"|[^\s"])+/#
        return text.matches(of: token).compactMap { match in
            let text = match.output.0.filter { $0 != "\"" }
            return match.output.open != nil || text.isEmpty ? nil : (text, match.output.0.first == "\"")
        }
    }
}

extension StandInPopulation {
    /// Every account matching `query`, in GitHub's order: "best match" (ascending id), or by `sort`, ties by id.
    package func searchUsers(query: String, sort: StandInUserSearchSort? = nil, ascending: Bool = false)
        -> [StandInUser]
    {
        searchPositions(StandInUserSearchQuery(query), sort: sort, ascending: ascending).map { users[$0] }
    }

    func searchPositions(_ query: StandInUserSearchQuery, sort: StandInUserSearchSort?, ascending: Bool) -> [Int] {
        let positions = users.indices.filter { query.matches(users[$0]) }
        guard let sort else { return positions }
        // Descending is ascending by the negated key; ties stay by id either way.
        let keyed = positions.map { position in
            let numbers = StandInProfileNumbers(ordinal: position + 1)
            let key =
                switch sort {
                case .followers: numbers.followers
                case .repositories: numbers.publicRepos
                case .joined: users[position].createdAt
                }
            return (key * (ascending ? 1 : -1), position)
        }
        return keyed.sorted(by: <).map(\.1)
    }
}
