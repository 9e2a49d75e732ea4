import AtomicCore
import Data
import Domain
import JSONBytes

/// `gh-users hovercard LOGIN [--subject-type TYPE --subject-id ID]`: which account, and about which subject.
struct HovercardOptions: Sendable, Equatable {
    enum SubjectType: String, Sendable, CaseIterable {
        case organization
        case repository
        case issue
        case pullRequest = "pull_request"
    }

    var login: Login
    var subjectType: SubjectType?
    var subjectID: String?
}

/// What GitHub's hovercard says of an account (`GET /users/{username}/hovercard`), one context a line: its
/// message and GitHub's octicon for it. JSON is GitHub's object as sent.
enum HovercardCommand {
    /// The two options go together: each refuses to be given without the other.
    private static let typeSpec = OptionSpec(
        "subject-type", value: "TYPE",
        help: "organization, repository, issue or pull_request: what the card is about; needs --subject-id.",
        choices: HovercardOptions.SubjectType.allCases.map(\.rawValue))
    private static let idSpec = OptionSpec(
        "subject-id", value: "ID",
        help: "The id of the organization, repository, issue or pull request; needs --subject-type.")
    static let subjectType = OptionDeclaration<HovercardOptions>.optional(
        typeSpec, at: \.subjectType,
        parse: { reading throws(UsageError) in
            let type = try reading.choice(HovercardOptions.SubjectType.self)
            guard reading.parsed.value(idSpec) != nil else { throw unpaired(reading) }
            return type
        },
        write: \.rawValue)
    static let subjectID = OptionDeclaration<HovercardOptions>.optional(
        idSpec, at: \.subjectID,
        parse: { reading throws(UsageError) in
            guard reading.parsed.value(typeSpec) != nil else { throw unpaired(reading) }
            let id = reading.text
            let digits = !id.isEmpty && id.utf8.allSatisfy({ (0x30...0x39).contains($0) })
            guard digits, let number = Int64(id), number > 0 else {
                let past = digits && Int64(id) == nil ? ", at most \(Int64.max)" : ""
                throw .invalidNumber(
                    reading.option, id, rule: "the subject's numeric id, 1 or more" + past, spec: reading.command)
            }
            return String(number)
        },
        write: { $0 })
    static let options = GroupDeclaration(title: "OPTIONS", options: [subjectType, subjectID])

    private static func unpaired(_ reading: OptionReading) -> UsageError {
        reading.usageError("--subject-type and --subject-id go together: give both or neither")
    }

    static let spec = CommandSpec(
        name: "hovercard",
        abstract: "Show what GitHub's hovercard says of an account (\(Endpoint.hovercard)).",
        usage: "gh-users hovercard LOGIN [--subject-type TYPE --subject-id ID] [options]",
        discussion: """
            One line per context GitHub gives: where the account works or lives, the organizations it is in,
            and, with a subject, how it relates to that organization, repository, issue or pull request.
            --subject-type and --subject-id go together. Needs a token (exit 4 without one, before anything
            is sent; a classic token needs the repo scope). Without --fields, JSON and ndjson are GitHub's object as sent (ndjson on one line); tsv,
            csv and every format with --fields give each context's message and octicon, a row each. A card
            with no contexts writes no rows (json and ndjson still its object); a terminal is told so on stderr.
            """,
        arguments: [("LOGIN", "The account whose hovercard to show.")],
        options: options.group.options,
        examples: [
            ("gh-users hovercard octocat", "What its hovercard says."),
            (
                "gh-users hovercard octocat --subject-type repository --subject-id 1300192",
                "What it says of octocat next to octocat/Spoon-Knife."
            ),
        ],
        fields: ["message", "octicon"]
    ).taking(.login).holdingOwnRecords()

    /// The card's contexts, one record each.
    static func contexts(of card: Record) -> [RawJSON] {
        JSONText.elements(at: ["contexts"], in: card.raw.bytes).map(RawJSON.init(bytes:))
    }

    /// GitHub's object for JSON; else one row per context.
    static func render(_ card: Record, context: RenderContext) -> [UInt8] {
        var output: [UInt8] = []
        switch context.format {
        case .json where context.fields == nil:
            JSONText.pretty(card.raw.bytes, into: &output)
            return output + [UInt8(ascii: "\n")]
        case .ndjson where context.fields == nil:
            return card.raw.bytes + [UInt8(ascii: "\n")]
        default:
            let contexts = contexts(of: card)
            let columns = [
                Column<RawJSON>("MESSAGE", key: "message", shrink: .first) {
                    JSONText.text(of: "message", in: $0.bytes)
                },
                Column<RawJSON>("OCTICON", key: "octicon") { JSONText.text(of: "octicon", in: $0.bytes) },
            ]
            var writer = RecordStreamWriter(context: context, columns: columns)
            return writer.render(contexts) + writer.finish(completed: true)
        }
    }
}

extension HovercardOptions: GitHubCommand {
    static var spec: CommandSpec { HovercardCommand.spec }

    /// The LOGIN, then `--subject-type` and `--subject-id`, which go together.
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        self.init(login: try parsed.login(spec))
        try HovercardCommand.options.parse(parsed, spec: spec, into: &self)
    }

    /// Exit 4 without a token, before anything is sent; then `GET /users/{username}/hovercard`, written as one
    /// line per context, and on a terminal "no hovercard contexts found" for a card without any.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        guard context.presenter.hasToken else { return TokenRequirement(command: "hovercard").refuse(context) }
        let subject = subjectType.map { ($0.rawValue, subjectID ?? "") }
        let card = await Result.of { () throws(DomainError) in
            try await github.fetch(GitHubEndpoints.hovercard(of: login, subject: subject))
        }
        let load = ResourceLoad([card])
        return load.write(
            load.values.first.map { HovercardCommand.render($0, context: context.render) } ?? [], to: context,
            empty: ("hovercard contexts", { HovercardCommand.contexts(of: $0).isEmpty }))
    }
}
