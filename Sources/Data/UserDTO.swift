import Domain
import Foundation

/// GitHub's simple-user and public-user objects as they arrive. Only `id` and `login` are required, so a field
/// GitHub drops or nulls never fails a whole page. Explicit keys: `convertFromSnakeCase` halves decoding speed.
struct UserDTO: Decodable {
    let id: Int64
    let login: String
    let type: String?
    let siteAdmin: Bool?
    let htmlURL: String?
    let name: String?
    let company: String?
    let blog: String?
    let location: String?
    let email: String?
    let bio: String?
    let twitterUsername: String?
    let hireable: Bool?
    let publicRepos: Int?
    let publicGists: Int?
    let followers: Int?
    let following: Int?
    let createdAt: String?
    let updatedAt: String?

    enum CodingKeys: String, CodingKey {
        case id
        case login
        case type
        case siteAdmin = "site_admin"
        case htmlURL = "html_url"
        case name
        case company
        case blog
        case location
        case email
        case bio
        case twitterUsername = "twitter_username"
        case hireable
        case publicRepos = "public_repos"
        case publicGists = "public_gists"
        case followers
        case following
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    func toDomain(raw: RawJSON) -> User {
        User(
            id: id,
            login: login,
            type: AccountType(name: type ?? "User"),
            siteAdmin: siteAdmin ?? false,
            htmlURL: htmlURL,
            name: name,
            company: company,
            blog: blog,
            location: location,
            email: email,
            bio: bio,
            twitterUsername: twitterUsername,
            hireable: hireable,
            publicRepos: publicRepos,
            publicGists: publicGists,
            followers: followers,
            following: following,
            createdAt: createdAt.flatMap(UserDTO.parseDate),
            updatedAt: updatedAt.flatMap(UserDTO.parseDate),
            raw: raw
        )
    }

    /// An ISO 8601 time (`2008-01-14T04:33:35Z`, or with an offset or fractions of a second, as a server other
    /// than github.com may write it); one that cannot be read is dropped rather than failing the profile. The
    /// parser takes `2010-02-30` as March 2 and `25:61:61` as the next day, so each field is checked first: a
    /// column never shows a date that was not sent.
    static func parseDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8.prefix(19))
        guard bytes.count == 19, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
            bytes[16] == 0x3A
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard bytes[range].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), hour <= 23, minute <= 59, second <= 59
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return nil }
        return try? Date(text, strategy: .iso8601)
    }
}

/// GitHub's error body: `{"message": ..., "errors": [...], "documentation_url": ...}`. A 422 gives its reason in
/// `errors`, not in `message` ("Validation Failed"). Each entry is an object (`resource`, `field`, `code`, and
/// `message` for a custom reason) or, in the simple form, a string; an entry of any other shape is skipped,
/// and never costs the message.
struct GitHubErrorDTO: Decodable {
    let message: String?
    let errors: [ValidationErrorDTO]

    private enum CodingKeys: String, CodingKey {
        case message, errors
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        message = try? container.decodeIfPresent(String.self, forKey: .message)
        if let sentence = try? container.decodeIfPresent(String.self, forKey: .errors) {
            // GitHub writes `errors` as one string in some answers: the 400 for an `X-GitHub-Api-Version` it does
            // not support, some 422s.
            errors = [ValidationErrorDTO(sentence: sentence)]
            return
        }
        let entries = try? container.decodeIfPresent([ValidationErrorDTO?].self, forKey: .errors)
        errors = (entries ?? []).compactMap { $0 }
    }
}

/// One entry of a 422's `errors`: a sentence of GitHub's own, or the field it refused and why.
struct ValidationErrorDTO: Decodable {
    let resource: String?
    let field: String?
    let code: String?
    let message: String?

    private enum CodingKeys: String, CodingKey {
        case resource, field, code, message
    }

    init(sentence: String) {
        (resource, field, code, message) = (nil, nil, nil, sentence)
    }

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            (resource, field, code, message) = (nil, nil, nil, text)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        resource = try? container.decodeIfPresent(String.self, forKey: .resource)
        field = try? container.decodeIfPresent(String.self, forKey: .field)
        code = try? container.decodeIfPresent(String.self, forKey: .code)
        message = try? container.decodeIfPresent(String.self, forKey: .message)
    }

    /// GitHub's sentence when it gave one; otherwise what its documented codes mean for the field
    /// ("Label.color is invalid"); nil when the entry says nothing.
    var reason: String? {
        if let message, message.contains(where: { !$0.isWhitespace }) { return message }
        let subject = [resource, field].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ".")
        guard let code, !code.isEmpty else { return subject.isEmpty ? nil : subject + " was refused" }
        let name = subject.isEmpty ? "a field" : subject
        switch code {
        case "missing": return "\(subject.isEmpty ? "the resource" : subject) does not exist"
        case "missing_field": return "\(name) is missing"
        case "invalid": return "\(name) is invalid"
        case "already_exists": return "\(name) already exists"
        case "unprocessable": return "\(name) could not be processed"
        default: return "\(name): \(code)"
        }
    }
}
