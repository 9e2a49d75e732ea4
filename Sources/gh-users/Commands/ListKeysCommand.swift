import AtomicCore
import Data
import Domain
import JSONBytes

/// `gh-users keys LOGIN`: an account's public SSH keys, as people fetch them to grant server access.
struct ListKeysCommand: AccountRecordsCommand {
    var login: Login
    var paging = PagingOptions()

    init(login: Login) {
        self.login = login
    }

    static let spec = CommandSpec(
        name: "keys",
        abstract: "List an account's public SSH keys (GET /users/{username}/keys).",
        usage: "gh-users keys LOGIN [--limit N | --all] [options]",
        discussion: """
            The table, tsv and csv show each key's id, type and fingerprint, computed here as ssh-keygen -lf
            prints it (SHA256 of the key), and the key itself (cut to fit in the table, whole elsewhere). JSON
            is GitHub's records as sent, without the two computed ones: ask for them with --fields. A key that
            does not decode shows '?' as its fingerprint (an empty cell in tsv and csv, null in JSON) and never
            stops the listing; its type is the first word of its text where that names one (ssh-…, ecdsa-…,
            sk-…), else '?' too.
            """,
        arguments: [("LOGIN", "The account whose keys to list.")],
        options: [],
        examples: [
            ("gh-users keys octocat", "Each key with its fingerprint."),
            (
                "gh-users keys octocat --all --format tsv --fields key >> ~/.ssh/authorized_keys",
                "Let the account's keys log in here."
            ),
        ],
        fields: ["id", "key", "created_at", "last_used", "type", "fingerprint"]
    ).paging("keys", profiles: false).taking(.login).holdingOwnRecords()

    /// The account's keys, page by page as GitHub lists them.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        await AccountRecords.stream(
            .keys, of: login, paging: paging, noun: "keys", columns: Self.columns, context, github)
    }

    static func columns(_ context: RenderContext) -> [Column<Record>] {
        [
            Column("ID", path: ["id"]),
            Column("TYPE", key: "type", derived: true) {
                SSHKeyText.type(of: JSONText.text(of: "key", in: $0.raw.bytes))
            },
            Column("FINGERPRINT", key: "fingerprint", derived: true) {
                SSHKeyFingerprint.sha256(of: JSONText.text(of: "key", in: $0.raw.bytes)) ?? Column<Record>.unknown
            },
            Column("KEY", path: ["key"], shrink: .first),
        ]
    }
}

/// The parts of an SSH public key's text (`TYPE BASE64 [COMMENT]`) that a table shows.
enum SSHKeyText {
    /// `ssh-ed25519`: the first word where it names a key type (`SSHKeyFingerprint.namesAKeyType`), else `?`. Any text of two words showed its first: `not a key` was of type `not` (helper-296).
    static func type(of key: String) -> String {
        let words = key.split(whereSeparator: \.isWhitespace)
        guard words.count >= 2, SSHKeyFingerprint.namesAKeyType(words[0]) else { return Column<Record>.unknown }
        return String(words[0])
    }
}
