// The search response shape (`total_count`, `incomplete_results`, `items` with `score`) is modelled on GitHub's
// documented example `search-users.json` (`user-search-result-item-paginated`, the 200 of `GET /search/users`),
// taken from GitHub's OpenAPI description, github/rest-api-description (MIT License, Copyright (c) 2020 GitHub).

import Foundation

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
/// case-insensitively as substrings of the login or name, or of the fields `in:login`, `in:name`, `in:email`
/// select. Qualifiers: `type:user`/`type:org` (the Bot matches neither), `followers:` and `repos:` with `N`,
/// `>N`, `>=N`, `<N`, `<=N`, `N..M`, `N..*` or `*..M`, `created:` with the same forms over dates (`2015-01-01`,
/// a whole UTC day) and date-times (`2015-01-01T10:00:00Z`, or with an offset such as `+02:00`), and
/// `location:` (case-insensitive substring, quotes allowed). `language:`, unknown qualifiers and unparsable
/// numbers or dates are ignored, as if absent; an unknown `type:` value matches nothing.
package struct StandInUserSearchQuery: Sendable, Equatable {
    enum AccountType: Equatable {
        case user
        case organization
        case unknown
    }

    struct Field: OptionSet, Equatable {
        let rawValue: Int
        static let login = Field(rawValue: 1)
        static let name = Field(rawValue: 2)
        static let email = Field(rawValue: 4)
    }

    /// Lowercased.
    var freeText: [String] = []
    var fields: Field = []
    var accountType: AccountType?
    var followers: [ClosedRange<Int>] = []
    var repos: [ClosedRange<Int>] = []
    /// Unix seconds, inclusive.
    var created: [ClosedRange<Int>] = []
    /// Lowercased.
    var locations: [String] = []

    package init(_ text: String) {
        for token in Self.tokens(of: text) {
            guard !token.quotedWhole, let colon = token.text.firstIndex(of: ":"),
                token.text[..<colon].allSatisfy({ $0.isLetter || $0 == "_" || $0 == "-" }),
                colon != token.text.startIndex
            else {
                freeText.append(token.text.lowercased())
                continue
            }
            let value = String(token.text[token.text.index(after: colon)...])
            switch token.text[..<colon].lowercased() {
            case "type":
                switch value.lowercased() {
                case "user":
                    accountType = .user
                case "org":
                    accountType = .organization
                default:
                    accountType = .unknown
                }
            case "followers":
                if let range = StandInCreatedRange.parse(value, value: Self.number) {
                    followers.append(range)
                }
            case "repos":
                if let range = StandInCreatedRange.parse(value, value: Self.number) {
                    repos.append(range)
                }
            case "created":
                if let range = StandInCreatedRange.parse(value) {
                    created.append(range)
                }
            case "location":
                locations.append(value.lowercased())
            case "in":
                for item in value.lowercased().split(separator: ",") {
                    switch item {
                    case "login":
                        fields.insert(.login)
                    case "name":
                        fields.insert(.name)
                    case "email":
                        fields.insert(.email)
                    default:
                        break
                    }
                }
            default:
                // language: and anything unknown: GitHub's other qualifiers have no data here to filter on.
                break
            }
        }
        if fields.isEmpty {
            fields = [.login, .name]
        }
    }

    /// Whether matching needs the profile's strings rather than only the login and counters.
    var needsProfileText: Bool {
        !locations.isEmpty || (!freeText.isEmpty && fields != [.login])
    }

    func matches(_ user: StandInUser) -> Bool {
        switch accountType {
        case .user?:
            guard user.type == "User" else {
                return false
            }
        case .organization?:
            guard user.type == "Organization" else {
                return false
            }
        case .unknown?:
            return false
        case nil:
            break
        }
        guard created.allSatisfy({ $0.contains(user.createdAt) }) else {
            return false
        }
        if !followers.isEmpty || !repos.isEmpty {
            let numbers = StandInProfileNumbers(ordinal: user.ordinal)
            guard followers.allSatisfy({ $0.contains(numbers.followers) }),
                repos.allSatisfy({ $0.contains(numbers.publicRepos) })
            else {
                return false
            }
        }
        if freeText.isEmpty && locations.isEmpty {
            return true
        }
        let profile = needsProfileText ? user.profile : nil
        for location in locations {
            guard let text = profile?.location?.lowercased(), text.contains(location) else {
                return false
            }
        }
        if freeText.isEmpty {
            return true
        }
        let login = user.login.lowercased()
        let name = fields.contains(.name) ? profile?.name?.lowercased() : nil
        let email = fields.contains(.email) ? profile?.email?.lowercased() : nil
        for term in freeText {
            let found =
                (fields.contains(.login) && login.contains(term)) || (name?.contains(term) ?? false)
                || (email?.contains(term) ?? false)
            guard found else {
                return false
            }
        }
        return true
    }

    /// One count of `followers:` or `repos:`.
    static func number(_ text: String) -> ClosedRange<Int>? { Int(text).map { $0...$0 } }

    private struct Token {
        var text: String
        /// `"two words"`: always free text, even with a colon inside.
        var quotedWhole: Bool
    }

    /// Splits on whitespace outside double quotes and drops the quotes, so `location:"San Francisco"` becomes
    /// `location:San Francisco`.
    private static func tokens(of text: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var inQuotes = false
        var startsWithQuote = false
        var hasContent = false
        for character in text {
            if character == "\"" {
                if !hasContent {
                    startsWithQuote = true
                }
                inQuotes.toggle()
                hasContent = true
            } else if character.isWhitespace && !inQuotes {
                if hasContent && !current.isEmpty {
                    tokens.append(Token(text: current, quotedWhole: startsWithQuote))
                }
                current = ""
                startsWithQuote = false
                hasContent = false
            } else {
                current.append(character)
                hasContent = true
            }
        }
        if hasContent && !current.isEmpty {
            tokens.append(Token(text: current, quotedWhole: startsWithQuote))
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
        var positions: [Int] = []
        for (position, user) in users.enumerated() where query.matches(user) {
            positions.append(position)
        }
        guard let sort else {
            return positions
        }
        // Keys first, so the sort compares integers instead of recomputing profiles.
        var keyed = positions.map { position -> (key: Int, position: Int) in
            let numbers = StandInProfileNumbers(ordinal: position + 1)
            switch sort {
            case .followers:
                return (numbers.followers, position)
            case .repositories:
                return (numbers.publicRepos, position)
            case .joined:
                return (users[position].createdAt, position)
            }
        }
        keyed.sort { first, second in
            if first.key != second.key {
                return ascending ? first.key < second.key : first.key > second.key
            }
            return first.position < second.position
        }
        return keyed.map(\.position)
    }
}
