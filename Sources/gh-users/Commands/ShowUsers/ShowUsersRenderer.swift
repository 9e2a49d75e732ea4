import AtomicCore
import Domain
import Foundation
import JSONBytes

/// How `show` looks: a labelled profile on a terminal, one row per account in tsv and csv, and GitHub's own
/// object (or an array of them) in JSON.
enum ShowUsersRenderer {
    /// A value as GitHub wrote it: a time with its fraction and offset, a count as its digits (`1e3` stays so), as
    /// `--fields` writes it.
    private static func sent(_ key: String) -> Column<User> {
        Column(key) { JSONText.text(of: key, in: $0.raw.bytes) }
    }

    /// A table of them (`--fields` on a terminal) is cut to its width as the lists' tables are: free text and
    /// addresses first, as a list's URL column, then the names, the login last.
    static let columns: [Column<User>] = [
        Column("login", shrink: .last) { $0.login },
        Column("id") { String($0.id) },
        Column("type") { $0.typeAsSent },
        Column("name", shrink: .second) { $0.name ?? "" },
        Column("company", shrink: .second) { $0.company ?? "" },
        Column("location", shrink: .second) { $0.location ?? "" },
        Column("email", shrink: .first) { $0.email ?? "" },
        Column("blog", shrink: .first) { $0.blog ?? "" },
        Column("bio", shrink: .first) { $0.bio ?? "" },
        sent("public_repos"), sent("public_gists"), sent("followers"), sent("following"), sent("created_at"),
        Column("html_url", shrink: .first) { $0.htmlURL ?? "" },
    ]

    /// The whole output for the profiles found, in the order asked. `asArray` is true when several logins were given.
    static func render(_ users: [User], asArray: Bool, context: RenderContext) -> [UInt8] {
        switch context.format {
        case .json where !asArray:
            guard let user = users.first else { return [] }
            var output: [UInt8] = []
            let bytes = RecordStreamWriter(context: context, columns: columns).json(user)
            JSONText.pretty(bytes, into: &output)
            output.append(UInt8(ascii: "\n"))
            return output
        case .table where context.fields == nil:
            return Array(users.map { profile($0, context: context) }.joined(separator: "\n").utf8)
        default:
            var writer = RecordStreamWriter(context: context, columns: columns)
            return writer.render(users) + writer.finish(completed: true)
        }
    }

    /// A vertical profile, labels on the left, values cut to the terminal width, but for addresses (the email,
    /// the blog, the profile's URL): one cut with "…" can be neither followed nor copied, so it runs past the
    /// terminal's edge, which wraps it, as gh's views leave a URL whole. A bio keeps its lines (`bioLines`).
    /// `extra` rows come last (the token's scopes, for `me`).
    static func profile(_ user: User, context: RenderContext, extra: [(String, String)] = []) -> String {
        let colors = ColorScheme(enabled: context.colorEnabled)
        func clean(_ text: String) -> String { TerminalSanitizer.sanitize(text) }
        var title = colors.bold(clean(user.login))
        if let name = user.name, !name.isEmpty {
            let shown = colors.bold(DisplayWidth.truncate(clean(name), toWidth: context.width / 2))
            // No login sent is no "()" beside the name.
            title = user.login.isEmpty ? shown : shown + " (" + title + ")"
        }
        // The type as GitHub sent it: none sent is no row (before: "User", which csv and tsv left blank).
        let kind = [JSONText.text(of: "type", in: user.raw.bytes), user.siteAdmin ? "site admin" : ""]
            .filter { !$0.isEmpty }.joined(separator: ", ")
        var fields: [(String, String)] = (kind.isEmpty ? [] : [("Type", kind)]) + [("ID", String(user.id))]
        let optional: [(String, String?)] = [
            ("Company", user.company), ("Location", user.location), ("Email", user.email),
            ("Blog", user.blog.flatMap { $0.isEmpty ? nil : $0 }),
            ("Twitter", user.twitterUsername.flatMap { $0.isEmpty ? nil : "@" + $0 }),
            ("Bio", user.bio),
        ]
        for (label, value) in optional {
            if let value, !value.isEmpty { fields.append((label, value)) }
        }
        // Each count GitHub sent, though the other of its row is missing.
        let counts = [user.publicRepos.map { "\($0) public" }, user.publicGists.map { Counted.text($0, "gist") }]
        if !counts.allSatisfy({ $0 == nil }) {
            fields.append(("Repos", counts.compactMap { $0 }.joined(separator: ", ")))
        }
        if let followers = user.followers {
            fields.append(("Followers", "\(followers)" + (user.following.map { ", following \($0)" } ?? "")))
        } else if let following = user.following {
            fields.append(("Following", "\(following)"))
        }
        // The time as GitHub sent it, as the `created_at` column shows it: relative on a terminal where it reads.
        let joined = JSONText.text(of: "created_at", in: user.raw.bytes)
        if !joined.isEmpty { fields.append(("Joined", RelativeTime.cell(joined, context: context))) }
        if let url = user.htmlURL, !url.isEmpty { fields.append(("URL", url)) }
        fields += extra
        let labelWidth = fields.map { $0.0.count }.max() ?? 0
        var text = title + "\n"
        for (label, value) in fields {
            let room = max(10, context.width - labelWidth - 4)
            let cells =
                label == "Bio"
                ? bioLines(value, room: room)
                : [
                    ["Email", "Blog", "URL"].contains(label)
                        ? clean(value) : DisplayWidth.truncate(clean(value), toWidth: room)
                ]
            for (index, cell) in cells.enumerated() {
                let shown =
                    index == 0
                    ? colors.dim(DisplayWidth.pad(label, toWidth: labelWidth))
                    : String(repeating: " ", count: labelWidth)
                text += cell.isEmpty && index > 0 ? "\n" : "  " + shown + "  " + cell + "\n"
            }
        }
        return text
    }

    /// The most lines a bio takes: GitHub keeps a bio to 160 characters, so only a server's own data reaches it.
    static let bioLineLimit = 10

    /// A bio as its author broke it into lines: it was one line cut at the edge, its breaks shown as `\n`
    /// (helper-360). A line that fits is shown as written, its blank lines, indentation and spaces kept
    /// (helper-364); a longer one is filled to `room` at its indentation (a line that is one word is cut). Blank
    /// lines before and after go. At most `bioLineLimit` lines, the last ending in "…" where more was cut.
    static func bioLines(_ bio: String, room: Int) -> [String] {
        var lines = bio.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { line in
            line.allSatisfy(\.isWhitespace) ? "" : TerminalSanitizer.sanitize(String(line))
        }
        while lines.first == "" { lines.removeFirst() }
        while lines.last == "" { lines.removeLast() }
        let filled = lines.flatMap { line -> [String] in
            guard DisplayWidth.of(line) > room else { return [line] }
            let indent = min(line.prefix { $0 == " " }.count, room / 2)
            return HelpRenderer.fill(String(line.drop { $0 == " " }), indent: indent, width: room)
                .split(separator: "\n").map { DisplayWidth.truncate(String($0), toWidth: room) }
        }
        guard filled.count > bioLineLimit else { return filled }
        var shown = Array(filled.prefix(bioLineLimit))
        shown[bioLineLimit - 1] = DisplayWidth.truncate(shown[bioLineLimit - 1] + " …", toWidth: room)
        return shown
    }
}
