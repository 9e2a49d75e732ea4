import AtomicCore
import Data
import Domain
import JSONBytes

/// `gh-users follows A B`: whether A follows B.
struct FollowsOptions: Sendable, Equatable {
    var follower: Login
    var followed: Login
}

/// Answers with its exit status, as `grep -q` and `git merge-base --is-ancestor` do: 0 when A follows B, 1
/// when not, 3 when either account does not exist, and 2 (never 1) for any other failure.
enum FollowsCommand {
    static let spec = CommandSpec(
        name: "follows",
        abstract: "Say whether one account follows another (GET /users/{username}/following/{target_user}).",
        usage: "gh-users follows A B [options]",
        discussion: """
            The exit status is the answer: 0 when A follows B, 1 when it does not. So that 1 always means
            no, a network or server failure, or a stdout that cannot be written, exits 2 here (a reader that
            goes away, as with | head, leaves the answer); 3 means A or B does not exist, 4 a token problem,
            5 a spent rate limit. A yes costs one request; a no costs two more, to tell it apart from an
            account that does not exist. JSON is {"follower": A, "followed": B, "follows": true|false}.
            """,
        arguments: [("A", "The account that may follow."), ("B", "The account that may be followed.")],
        options: [],
        examples: [
            ("gh-users follows octocat torvalds", "A sentence on a terminal, and the answer as the status."),
            ("gh-users follows alice bob --json", "The answer as JSON."),
        ],
        fields: ["follower", "followed", "follows"]
    ).holdingOwnRecords()

    /// A 204 is a yes at once; a 404 is a no only when both accounts exist.
    static func answer(_ options: FollowsOptions, _ github: GitHubReader) async throws(DomainError) -> Bool {
        do {
            return try await github.fetch(GitHubEndpoints.follows(options.follower, options.followed))
        } catch {
            guard case .notFound = error else { throw error }
        }
        _ = try await github.user(login: options.follower)
        _ = try await github.user(login: options.followed)
        return false
    }

    static func render(_ options: FollowsOptions, follows: Bool, context: RenderContext) -> [UInt8] {
        let record = JSONValue.object([
            .init("follower", .string(options.follower.value)), .init("followed", .string(options.followed.value)),
            .init("follows", .bool(follows)),
        ]).bytes
        let bytes = context.fields.map { JSONText.project(record, keys: $0) } ?? record
        var output: [UInt8] = []
        switch context.format {
        case .table where context.fields == nil:
            let verb = follows ? "follows" : "does not follow"
            return Array("\(options.follower.value) \(verb) \(options.followed.value).\n".utf8)
        case .json:
            JSONText.pretty(bytes, into: &output)
            return output + [UInt8(ascii: "\n")]
        case .ndjson:
            return bytes + [UInt8(ascii: "\n")]
        default:
            let columns = ["follower", "followed", "follows"].map { key in
                Column<RawJSON>(key.uppercased(), key: key) { JSONText.text(of: key, in: $0.bytes) }
            }
            var writer = RecordStreamWriter(context: context, columns: columns)
            return writer.render([RawJSON(bytes: record)]) + writer.finish(completed: true)
        }
    }
}

extension FollowsOptions: GitHubCommand {
    static var spec: CommandSpec { FollowsCommand.spec }

    /// Exactly two logins: A and B.
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        if let extra = parsed.positionals.dropFirst(2).first {
            throw UsageError(
                message: "unexpected argument '\(extra)': follows takes two logins, A and B", command: spec)
        }
        guard parsed.positionals.count == 2 else {
            throw UsageError(message: "follows needs two logins: A and B", command: spec)
        }
        self.init(
            follower: try LoginArgument.parse(parsed.positionals[0], spec: spec),
            followed: try LoginArgument.parse(parsed.positionals[1], spec: spec))
    }

    /// The answer as the exit status, and as a sentence or a record on stdout.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        let follows: Bool
        do throws(DomainError) {
            follows = try await FollowsCommand.answer(self, github)
        } catch {
            context.io.writeErr(context.presenter.present(error).message)
            return .unanswered(error)
        }
        do {
            try context.io.out.write(FollowsCommand.render(self, follows: follows, context: context.render))
        } catch {
            // The status is the answer: a reader that left (`| head`) leaves it standing. A write that failed
            // otherwise (a full disk, stdout closed) is said, and is 2, never taken for a yes or a no.
            guard let failure = error as? OutputWriteError else { return .answered(follows) }
            context.io.writeErr("gh-users: \(failure.message)\n")
            return .unanswered(.refused(failure.message))
        }
        return .answered(follows)
    }
}
