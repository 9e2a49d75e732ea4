// The search response shape (`total_count`, `incomplete_results`, `items` with `score`) is modelled on GitHub's
// documented example `search-users.json` (`user-search-result-item-paginated`, the 200 of `GET /search/users`),
// taken from GitHub's OpenAPI description, github/rest-api-description (MIT License, Copyright (c) 2020 GitHub).

/// The `sort` parameter of `GET /search/users`; without one GitHub orders by "best match".
package enum StandInUserSearchSort: String, Sendable, CaseIterable {
    case followers
    case repositories
    /// When the account was created.
    case joined
}

/// A parsed `q` of `GET /search/users`.
///
/// Terms are separated by spaces (double quotes group words) and all must hold. Free-text terms match
/// case-insensitively as substrings of the login or name. Qualifiers: `type:user`/`type:org` (the Bot matches
/// neither), `followers:` and `repos:` with `N`, `>N`, `>=N`, `<N`, `<=N`, `N..M`, `N..*` or `*..M`, `created:`
/// with the same forms over dates (`2015-01-01`, a whole UTC day) and date-times (`2015-01-01T10:00:00Z`, or with
/// an offset such as `+02:00`), and `location:` (case-insensitive substring, quotes allowed). Other qualifiers and
/// unparsable numbers or dates are ignored, as if absent; an unknown `type:` value matches nothing.
struct StandInUserSearchQuery: Sendable {
    /// Lowercased.
    var freeText: [String] = []
    /// `User`, `Organization`, or a word no account's type is.
    var type: String?
    /// Each `followers:`, `repos:` and `created:` (Unix seconds), inclusive.
    var ranges: [(qualifier: String, range: ClosedRange<Int>)] = []
    /// Lowercased.
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
            case "followers", "repos":
                if let range = StandInCreatedRange.parse(value, value: { Int($0).map { $0...$0 } }) {
                    ranges.append((qualifier, range))
                }
            case "created":
                if let range = StandInCreatedRange.parse(value) {
                    ranges.append((qualifier, range))
                }
            case "location":
                locations.append(value.lowercased())
            default:
                // language: and anything unknown: GitHub's other qualifiers have no data here to filter on.
                break
            }
        }
    }

    func matches(_ user: StandInUser) -> Bool {
        guard type == nil || user.type == type else {
            return false
        }
        let numbers = StandInProfileNumbers(ordinal: user.ordinal)
        for (qualifier, range) in ranges {
            let value =
                qualifier == "created" ? user.createdAt : qualifier == "repos" ? numbers.publicRepos : numbers.followers
            guard range.contains(value) else {
                return false
            }
        }
        if freeText.isEmpty && locations.isEmpty {
            return true
        }
        let profile = user.profile
        let location = profile.location?.lowercased() ?? ""
        let login = user.login.lowercased()
        let name = profile.name?.lowercased() ?? ""
        return locations.allSatisfy { location.contains($0) }
            && freeText.allSatisfy { login.contains($0) || name.contains($0) }
    }

    /// Splits on whitespace outside double quotes and drops the quotes, so `location:"San Francisco"` becomes
    /// `location:San Francisco`; a token that starts with a quote (`"two words"`) is always free text.
    private static func tokens(of text: String) -> [(text: String, quoted: Bool)] {
        var tokens: [(String, Bool)] = []
        var (current, quoted, started, inQuotes) = ("", false, false, false)
        for character in text + " " {
            if character == "\"" {
                quoted = quoted || !started
                started = true
                inQuotes.toggle()
            } else if character.isWhitespace && !inQuotes {
                if !current.isEmpty {
                    tokens.append((current, quoted))
                }
                (current, quoted, started) = ("", false, false)
            } else {
                current.append(character)
                started = true
            }
        }
        return tokens
    }
}

extension StandInPopulation {
    /// Every account matching `query` (a `q` value, already form-decoded), in the order `GET /search/users`
    /// returns them: "best match" (ascending id) without `sort`, otherwise by the key (`order` desc unless
    /// `ascending`), ties broken by ascending id either way. GitHub's 1,000-result window is not applied here.
    package func searchUsers(query: String, sort: StandInUserSearchSort? = nil, ascending: Bool = false)
        -> [StandInUser]
    {
        searchPositions(StandInUserSearchQuery(query), sort: sort, ascending: ascending).map { users[$0] }
    }

    /// Positions into `users`, which the router caches between pages.
    func searchPositions(_ query: StandInUserSearchQuery, sort: StandInUserSearchSort?, ascending: Bool) -> [Int] {
        let positions = users.indices.filter { query.matches(users[$0]) }
        guard let sort else {
            return positions
        }
        // Keys first, so the sort compares integers instead of recomputing profiles.
        let keyed = positions.map { position -> (key: Int, position: Int) in
            let numbers = StandInProfileNumbers(ordinal: position + 1)
            switch sort {
            case .followers: return (numbers.followers, position)
            case .repositories: return (numbers.publicRepos, position)
            case .joined: return (users[position].createdAt, position)
            }
        }
        return keyed.sorted { first, second in
            guard first.key != second.key else {
                return first.position < second.position
            }
            return ascending ? first.key < second.key : first.key > second.key
        }.map(\.position)
    }
}
