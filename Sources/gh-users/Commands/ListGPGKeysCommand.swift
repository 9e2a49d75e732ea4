import AtomicCore
import Domain
import JSONBytes

/// `gh-users gpg-keys LOGIN`: the GPG keys an account signs commits with.
struct ListGPGKeysCommand: AccountRecordsCommand {
    var login: Login
    var paging = PagingOptions()

    init(login: Login) {
        self.login = login
    }

    static let spec = CommandSpec(
        name: "gpg-keys",
        abstract: "List an account's GPG keys (GET /users/{username}/gpg_keys).",
        usage: "gh-users gpg-keys LOGIN [--limit N | --all] [options]",
        discussion: """
            The table shows each key's id, the emails it covers, whether it can sign and when it expires
            ("never" where GitHub says null; blank where it says nothing).
            JSON carries GitHub's whole key objects, subkeys and the armoured raw_key included.
            """,
        arguments: [("LOGIN", "The account whose GPG keys to list.")],
        options: [],
        examples: [
            ("gh-users gpg-keys octocat", "Each key with its emails and expiry."),
            (
                "gh-users gpg-keys octocat --json | jq -r '.[].raw_key // empty' | gpg --import",
                "Import them (a key GitHub keeps no armoured text for has a null raw_key)."
            ),
        ],
        fields: [
            "id", "name", "primary_key_id", "key_id", "public_key", "emails", "subkeys", "can_sign",
            "can_encrypt_comms", "can_encrypt_storage", "can_certify", "created_at", "expires_at", "revoked",
            "raw_key",
        ]
    ).paging("GPG keys", profiles: false).taking(.login)

    /// The account's GPG keys, page by page as GitHub lists them.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        await AccountRecords.stream(
            .gpgKeys, of: login, paging: paging, noun: "GPG keys", columns: Self.columns, context, github)
    }

    static func columns(_ context: RenderContext) -> [Column<Record>] {
        [
            Column("KEY ID", path: ["key_id"]),
            // The addresses on a table; GitHub's array in csv and tsv, as `--fields emails` writes it.
            Column("EMAILS", key: "emails", shrink: .first) { key in
                context.format == .table
                    ? JSONText.elements(at: ["emails"], in: key.raw.bytes)
                        .map { JSONText.text(of: "email", in: $0) }.joined(separator: ", ")
                    : JSONText.text(at: ["emails"], in: key.raw.bytes)
            },
            Column("CAN SIGN", key: "can_sign") { key in
                let text = JSONText.text(of: "can_sign", in: key.raw.bytes)
                // A null or missing value stays blank: "no" would be a value GitHub did not send.
                guard context.format == .table else { return text }
                return ["true": "yes", "false": "no"][text] ?? ""
            },
            Column("EXPIRES", key: "expires_at") { key in
                let text = JSONText.text(of: "expires_at", in: key.raw.bytes)
                guard context.format == .table else { return text }
                // GitHub's null is "never"; a missing or empty value stays blank, as `can_sign`'s does.
                let bytes = key.raw.bytes
                let value = (try? JSONText.objectMembers(bytes))?["expires_at"]
                let never = value.map { bytes[$0].elementsEqual("null".utf8) } ?? false
                return text.isEmpty
                    ? (never ? "never" : "") : RelativeTime.cell(text, context: context, past: "expired")
            },
        ]
    }
}
