import JSONBytes

/// A DTO that can be read from its element's bytes in one pass (`JSONMemberReader`), for the lists that carry
/// many of it (a page's accounts, a snapshot's lines: `SnapshotLines`). Nil where the bytes need Foundation's
/// `JSONDecoder`: anything unusual, malformed or not, is read again by Foundation, which decides and words any
/// error, so a page reads the same either way.
package protocol ScannedDTO {
    init?(scanning bytes: [UInt8], in range: Range<Int>)
}

extension UserDTO: ScannedDTO {
    /// The fields `CodingKeys` names, each read once and with its type; a key given twice, a count that is not a
    /// whole number, or a type Foundation would refuse is left to Foundation.
    init?(scanning bytes: [UInt8], in range: Range<Int>) {
        var reader = JSONMemberReader(bytes, in: range)
        var fields = ScannedUser()
        // The field each key names, found once: the reader keeps the strings of those alone.
        var named: CodingKeys?
        func keeps(_ key: ArraySlice<UInt8>) -> Bool {
            named = Self.field(named: key)
            return named != nil
        }
        while let (_, value) = reader.next(keeping: keeps) {
            // A key given twice leaves the reader unreadable, so Foundation's reading refuses it (`ResponseDecoder`).
            guard let field = named else { continue }
            switch (field, value) {
            case (.id, .integer(let number)): fields.id = number
            case (.login, .string(let text)): fields.login = text
            case (.id, _), (.login, _): return nil
            case (_, .null): continue
            case (.siteAdmin, .boolean(let flag)): fields.siteAdmin = flag
            case (.hireable, .boolean(let flag)): fields.hireable = flag
            case (.publicRepos, .integer(let number)): fields.publicRepos = Int(exactly: number)
            case (.publicGists, .integer(let number)): fields.publicGists = Int(exactly: number)
            case (.followers, .integer(let number)): fields.followers = Int(exactly: number)
            case (.following, .integer(let number)): fields.following = Int(exactly: number)
            case (.type, .string(let text)): fields.type = text
            case (.htmlURL, .string(let text)): fields.htmlURL = text
            case (.name, .string(let text)): fields.name = text
            case (.company, .string(let text)): fields.company = text
            case (.blog, .string(let text)): fields.blog = text
            case (.location, .string(let text)): fields.location = text
            case (.email, .string(let text)): fields.email = text
            case (.bio, .string(let text)): fields.bio = text
            case (.twitterUsername, .string(let text)): fields.twitterUsername = text
            case (.createdAt, .string(let text)): fields.createdAt = text
            case (.updatedAt, .string(let text)): fields.updatedAt = text
            default: return nil
            }
        }
        guard reader.finished, let id = fields.id, let login = fields.login else { return nil }
        self.init(
            id: id, login: login, type: fields.type, siteAdmin: fields.siteAdmin, htmlURL: fields.htmlURL,
            name: fields.name, company: fields.company, blog: fields.blog, location: fields.location,
            email: fields.email, bio: fields.bio, twitterUsername: fields.twitterUsername, hireable: fields.hireable,
            publicRepos: fields.publicRepos, publicGists: fields.publicGists, followers: fields.followers,
            following: fields.following, createdAt: fields.createdAt, updatedAt: fields.updatedAt)
    }

    /// The field a key names, by its bytes: `CodingKeys(rawValue:)` would make a `String` of every key first.
    private static func field(named key: ArraySlice<UInt8>) -> CodingKeys? {
        for (field, bytes) in fieldsByLength[min(key.count, fieldsByLength.count - 1)] where key.elementsEqual(bytes) {
            return field
        }
        return nil
    }

    /// Each field with its key's bytes, found by the key's length.
    private static let fieldsByLength: [[(CodingKeys, [UInt8])]] = {
        let fields: [CodingKeys] = [
            .id, .login, .type, .siteAdmin, .htmlURL, .name, .company, .blog, .location, .email, .bio,
            .twitterUsername, .hireable, .publicRepos, .publicGists, .followers, .following, .createdAt, .updatedAt,
        ]
        var table = Array(repeating: [(CodingKeys, [UInt8])](), count: 18)
        for field in fields {
            table[field.rawValue.utf8.count].append((field, Array(field.rawValue.utf8)))
        }
        return table
    }()
}

/// The fields of a `UserDTO` as they are read.
private struct ScannedUser {
    var id: Int64?
    var login: String?
    var type: String?
    var siteAdmin: Bool?
    var htmlURL: String?
    var name: String?
    var company: String?
    var blog: String?
    var location: String?
    var email: String?
    var bio: String?
    var twitterUsername: String?
    var hireable: Bool?
    var publicRepos: Int?
    var publicGists: Int?
    var followers: Int?
    var following: Int?
    var createdAt: String?
    var updatedAt: String?
}
