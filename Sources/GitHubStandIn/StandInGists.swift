// The `base-gist` JSON below (key names, key order, URL forms) follows the schema of `GET /users/{username}/gists`
// in `gists-list-for-user.schema.json`, from GitHub's OpenAPI description, github/rest-api-description (MIT License,
// Copyright (c) 2020 GitHub); the description's example for it was not obtained, so every gist is synthetic.

import Foundation

/// One file of a gist as the list shows it (no content).
package struct StandInGistFile: Sendable, Equatable {
    package let filename: String
    /// A MIME type such as `text/markdown`.
    package let type: String
    package let language: String
    package let rawURL: String
    /// Bytes.
    package let size: Int
}

/// One entry of `GET /users/{username}/gists`.
package struct StandInGist: Sendable, Equatable, StandInRecord {
    /// 32 lowercase hex digits, as new gists have; GitHub sends gist ids as strings.
    package let id: String
    /// Sorted by filename, the order GitHub lists a gist's files in.
    package let files: [StandInGistFile]
    package let owner: StandInUser
    /// Null, empty or text, as GitHub sends all three.
    package let description: String?
    package let comments: Int
    /// Unix seconds.
    package let createdAt: Int
    /// Unix seconds, never before `createdAt`.
    package let updatedAt: Int

    /// `comments_enabled`, `forks` and `history` are left out: the schema does not require them and the list
    /// form omits the latter two. `user` is null, as GitHub sends it in lists; `owner` carries the account.
    package func write(into writer: inout JSONByteWriter) {
        let api = "https://api.github.com/gists/" + id
        writer.raw("{\"url\":\"")
        writer.unescaped(api)
        writer.raw("\",\"forks_url\":\"")
        writer.unescaped(api)
        writer.raw("/forks\",\"commits_url\":\"")
        writer.unescaped(api)
        writer.raw("/commits\",\"id\":\"")
        writer.unescaped(id)
        writer.raw("\",\"node_id\":\"")
        Base64Text.append("04:Gist" + id, to: &writer.bytes)
        writer.raw("\",\"git_pull_url\":\"https://gist.github.com/")
        writer.unescaped(id)
        writer.raw(".git\",\"git_push_url\":\"https://gist.github.com/")
        writer.unescaped(id)
        writer.raw(".git\",\"html_url\":\"https://gist.github.com/")
        writer.unescaped(id)
        writer.raw("\",\"files\":{")
        for (position, file) in files.enumerated() {
            if position > 0 {
                writer.raw(",")
            }
            writer.string(file.filename)
            writer.raw(":{\"filename\":")
            writer.string(file.filename)
            writer.raw(",\"type\":")
            writer.string(file.type)
            writer.raw(",\"language\":")
            writer.string(file.language)
            writer.raw(",\"raw_url\":")
            writer.string(file.rawURL)
            writer.raw(",\"size\":")
            writer.integer(file.size)
            writer.raw("}")
        }
        writer.raw("},\"public\":true,\"created_at\":")
        writer.string(UTCTimestamp.iso8601(createdAt))
        writer.raw(",\"updated_at\":")
        writer.string(UTCTimestamp.iso8601(updatedAt))
        writer.raw(",\"description\":")
        writer.optionalString(description)
        writer.raw(",\"comments\":")
        writer.integer(comments)
        writer.raw(",\"user\":null,\"comments_url\":\"")
        writer.unescaped(api)
        writer.raw("/comments\",\"owner\":")
        owner.writeSimpleUser(into: &writer)
        writer.raw(",\"truncated\":false}")
    }
}

/// An account has as many public gists as its profile's `public_gists` says, Organizations included, so the
/// profile and the list never disagree.
extension StandInPopulation {
    private static let gistSalt: UInt64 = 0x6769_7374

    /// Name, MIME type and language; names with spaces and non-ASCII text make clients escape `raw_url` and keys.
    private static let gistFileKinds: [(name: String, type: String, language: String)] = [
        ("README.md", "text/markdown", "Markdown"),
        ("notes.txt", "text/plain", "Text"),
        ("setup.sh", "application/x-sh", "Shell"),
        ("main.swift", "text/x-swift", "Swift"),
        ("config.yml", "application/x-yaml", "YAML"),
        ("data.json", "application/json", "JSON"),
        ("snippet.py", "application/x-python", "Python"),
        ("hello_world.rb", "application/x-ruby", "Ruby"),
        ("my notes.md", "text/markdown", "Markdown"),
        ("メモ.txt", "text/plain", "Text"),
    ]

    private static let gistDescriptions = [
        "Dotfiles for a fresh machine", "How I set up my terminal", "Benchmark results (unscientific)",
        "雑多なメモ", "TODO: \"clean this up\" \\ later",
    ]

    static func gistCount(of user: StandInUser) -> Int {
        StandInProfileNumbers(ordinal: user.ordinal).publicGists
    }

    /// `GET /users/{username}/gists`: newest first. `since` (Unix seconds) keeps only gists updated at or after
    /// it, as the endpoint's `since` parameter does.
    package func gists(of user: StandInUser, since: Int? = nil) -> [StandInGist] {
        let count = Self.gistCount(of: user)
        var gists: [StandInGist] = []
        gists.reserveCapacity(count)
        // Built newest first; created and updated times both fall as the index rises, so either order is the same.
        for index in stride(from: count - 1, through: 0, by: -1) {
            let gist = Self.gist(of: user, index: index)
            if let since, gist.updatedAt < since {
                // Older gists were updated earlier still.
                break
            }
            gists.append(gist)
        }
        return gists
    }

    /// The `index`-th gist (0 = oldest). Ids are a bijective mix of the global index, so no two gists share one.
    static func gist(of user: StandInUser, index: Int) -> StandInGist {
        let global = (user.ordinal - 1) * 1_000 + index
        var random = StandInSeededBytes(seed: global, salt: gistSalt)
        let id =
            StandInHex.lowercase(StandInSeededBytes.finalize(UInt64(global) ^ gistSalt))
            + StandInHex.lowercase(random.next())
        // One gist every ~9 days from 2012 on, updated within the next 8 days.
        let createdAt = 1_325_376_000 + (user.ordinal % 997) * 86_400 + index * 800_000 + random.next(below: 50_000)
        let updatedAt = createdAt + random.next(below: 700_000)
        let revision = random.hex(bytes: 20)
        let fileCount = 1 + random.next(below: 3)
        let first = random.next(below: gistFileKinds.count)
        let files = (0..<fileCount).map { offset -> StandInGistFile in
            let kind = gistFileKinds[(first + offset) % gistFileKinds.count]
            return StandInGistFile(
                filename: kind.name, type: kind.type, language: kind.language,
                rawURL: "https://gist.githubusercontent.com/\(user.loginPathComponent)/\(id)/raw/\(revision)/"
                    + StandInPathEncoding.encode(kind.name),
                size: 10 + random.next(below: 5_000))
        }.sorted { $0.filename < $1.filename }
        let description: String?
        switch index % 5 {
        case 0:
            description = nil
        case 1:
            description = ""
        default:
            description = gistDescriptions[(index + user.ordinal) % gistDescriptions.count]
        }
        return StandInGist(
            id: id, files: files, owner: user, description: description, comments: random.next(below: 4),
            createdAt: createdAt, updatedAt: updatedAt)
    }
}

/// Percent-encoding of one URL path segment: everything but RFC 3986 unreserved characters.
enum StandInPathEncoding {
    static func encode(_ text: String) -> String {
        let encoded = StandInFormEncoding.encode(text)
        // Form encoding writes a space as `+`, which in a path is a literal plus.
        return encoded.replacingOccurrences(of: "+", with: "%20")
    }
}
