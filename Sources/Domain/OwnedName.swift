/// A repository named as `OWNER/REPO`, checked so both parts go into a URL path as they are: the owner is a
/// login, the name 1 to 100 letters, digits, `.`, `-` or `_`, neither `.` nor `..`. A trailing `.git` is GitHub's
/// clone URL, not the name, and is dropped, as GitHub drops it; so is `https://github.com/` before the owner.
package struct RepositoryName: Sendable, Hashable, CustomStringConvertible {
    package let owner: Login
    package let name: String

    package static let maximumNameLength = 100

    package init(validating text: String) throws(DomainError) {
        var path = Substring(text)
        for prefix in ["https://github.com/", "http://github.com/", "github.com/"] where path.hasPrefix(prefix) {
            path = path.dropFirst(prefix.count)
        }
        if path.hasSuffix("/") { path = path.dropLast() }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, Login.isValid(String(parts[0])) else {
            throw .invalidInput(Self.problem(text, "give it as OWNER/REPO, such as octocat/Hello-World"))
        }
        var name = String(parts[1])
        if name.hasSuffix(".git"), name.count > 4 { name.removeLast(4) }
        guard Self.isValidName(name) else {
            throw .invalidInput(
                Self.problem(
                    text, "a repository name has 1 to \(Self.maximumNameLength) letters, digits, '.', '-' or '_'"))
        }
        owner = try Login(validating: String(parts[0]))
        self.name = name
    }

    package var description: String { "\(owner)/\(name)" }

    private static func isValidName(_ name: String) -> Bool {
        guard (1...maximumNameLength).contains(name.count), name != ".", name != ".." else { return false }
        return name.unicodeScalars.allSatisfy { OwnedNameRules.isNameScalar($0, dot: true) }
    }

    private static func problem(_ text: String, _ rule: String) -> String {
        "invalid repository \(OwnedNameRules.shown(text)): \(rule)"
    }
}

/// A team named as `ORG/TEAM`: the organization's login and the team's slug (its name in URLs: 1 to 100
/// letters, digits, `-` or `_`, as GitHub makes slugs).
package struct TeamName: Sendable, Hashable, CustomStringConvertible {
    package let organization: Login
    package let slug: String

    package init(validating text: String) throws(DomainError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, Login.isValid(String(parts[0])) else {
            throw .invalidInput(
                "invalid team \(OwnedNameRules.shown(text)): give it as ORG/TEAM, such as github/justice-league")
        }
        let slug = String(parts[1])
        guard (1...100).contains(slug.count),
            slug.unicodeScalars.allSatisfy({ OwnedNameRules.isNameScalar($0, dot: false) })
        else {
            throw .invalidInput(
                "invalid team \(OwnedNameRules.shown(text)): a team's slug has 1 to 100 letters, digits, '-' or '_'")
        }
        organization = try Login(validating: String(parts[0]))
        self.slug = slug
    }

    package var description: String { "\(organization)/\(slug)" }
}

/// What the names under an owner share: the characters they may hold, and how a bad one is quoted in an error.
private enum OwnedNameRules {
    static func isNameScalar(_ scalar: Unicode.Scalar, dot: Bool) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_": return true
        case ".": return dot
        default: return false
        }
    }

    /// The text as typed, unless it holds control characters, which an error never prints.
    static func shown(_ text: String) -> String {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? "(with control characters)" : "'\(text)'"
    }
}
