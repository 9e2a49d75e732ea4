import AtomicCore
import Data
import Domain
import JSONBytes

/// `gh-users signing-keys LOGIN`: the SSH keys an account signs commits with, to verify its signatures.
struct ListSigningKeysCommand: AccountRecordsCommand {
    var login: Login
    var paging = PagingOptions()

    init(login: Login) {
        self.login = login
    }

    static let spec = CommandSpec(
        name: "signing-keys",
        abstract: "List the SSH keys an account signs commits with (GET /users/{username}/ssh_signing_keys).",
        usage: "gh-users signing-keys LOGIN [--limit N | --all] [options]",
        discussion: """
            Use them to verify the account's SSH-signed commits and tags. The fingerprint is computed here
            as ssh-keygen -lf prints it, in the table, tsv and csv; JSON is GitHub's records as sent, and
            --fields adds it. A key that does not decode shows '?' (an empty cell in tsv and csv, null in JSON).
            """,
        arguments: [("LOGIN", "The account whose signing keys to list.")],
        options: [],
        examples: [
            ("gh-users signing-keys octocat", "Each key with its title and fingerprint."),
            (
                "gh-users signing-keys octocat --all --format tsv --fields key",
                "The keys alone, for git's allowed signers file."
            ),
        ],
        fields: ["key", "id", "title", "created_at", "fingerprint"]
    ).paging("signing keys", profiles: false).taking(.login).holdingOwnRecords()

    /// The account's signing keys, page by page as GitHub lists them.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        await AccountRecords.stream(
            .signingKeys, of: login, paging: paging, noun: "signing keys", columns: Self.columns, context, github)
    }

    static func columns(_ context: RenderContext) -> [Column<Record>] {
        [
            Column("ID", path: ["id"]),
            Column("TITLE", path: ["title"], shrink: .second),
            Column("FINGERPRINT", key: "fingerprint", derived: true) {
                SSHKeyFingerprint.sha256(of: JSONText.text(of: "key", in: $0.raw.bytes)) ?? Column<Record>.unknown
            },
            .time("ADDED", "created_at", context),
            Column("KEY", path: ["key"], shrink: .first),
        ]
    }
}
