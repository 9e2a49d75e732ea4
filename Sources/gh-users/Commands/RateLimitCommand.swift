import AtomicCore
import Data
import Domain
import Foundation
import JSONBytes
import Networking

/// `gh-users rate-limit`: every bucket's limit, what is left, and when it refills. Costs no quota.
struct RateLimitCommand: GitHubCommand {
    static let spec = CommandSpec(
        name: "rate-limit",
        abstract: "Show the current rate limits and when they reset (GET /rate_limit, which costs no quota).",
        usage: "gh-users rate-limit [options]",
        discussion: """
            One line per resource: core (most requests), search (30 a minute with a token), graphql and the
            others GitHub reports. Without a token the core limit is 60 an hour. json and ndjson give GitHub's
            own object, once; with --fields, one record per resource.
            """,
        arguments: [],
        options: [],
        examples: [
            ("gh-users rate-limit", "A table of every bucket."),
            ("gh-users rate-limit --json | jq .resources.core.remaining", "What is left of the core limit."),
            ("gh-users rate-limit --fields resource,remaining", "Just what is left of each."),
        ],
        fields: FieldCatalog.rateLimitBucket
    ).holdingOwnRecords()

    /// The command takes no options of its own.
    init() {}

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {}

    /// `GET /rate_limit`, which needs no token, written as the format asks.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        let overview = await Result.of { () throws(DomainError) in try await github.fetch(GitHubEndpoints.rateLimit) }
        let load = ResourceLoad([overview])
        return load.write(
            load.values.first.map { RateLimitRenderer.render($0, context: context.render) } ?? [], to: context)
    }
}

/// The buckets as a table (reset as a clock time and a duration on a terminal), tsv/csv rows, or GitHub's JSON.
enum RateLimitRenderer {
    static func render(_ overview: RateLimitOverview, context: RenderContext) -> [UInt8] {
        switch context.format {
        case .json where context.fields == nil:
            var output: [UInt8] = []
            JSONText.pretty(overview.raw.bytes, into: &output)
            return output + [UInt8(ascii: "\n")]
        case .ndjson where context.fields == nil:
            var output: [UInt8] = []
            JSONText.compact(overview.raw.bytes, into: &output)
            return output + [UInt8(ascii: "\n")]
        default:
            var writer = RecordStreamWriter(
                context: context, columns: columns(context, overview: overview))
            return writer.render(overview.buckets) + writer.finish(completed: true)
        }
    }

    /// One bucket with GitHub's keys plus its name, for `--fields`.
    static func bucketJSON(_ bucket: RateLimitBucket) -> RawJSON {
        RawJSON(
            bytes: JSONValue.object([
                .init("resource", .string(bucket.resource)), .init("limit", .integer(Int64(bucket.limit))),
                .init("remaining", .integer(Int64(bucket.remaining))),
                .init("used", bucket.used.map { .integer(Int64($0)) } ?? .null),
                .init("reset", .integer(Int64(bucket.resetAt.timeIntervalSince1970))),
            ]).bytes)
    }

    /// `overview`: where GitHub's clock differs from this one, the terminal's clock time and wait are this
    /// clock's (`RateLimitInfo.onThisClock`, as the waits take them).
    static func columns(_ context: RenderContext, overview: RateLimitOverview? = nil) -> [Column<RateLimitBucket>] {
        let now = context.now
        // The clock time and the wait are a table's on a terminal; csv and tsv write a time a program reads, even
        // on a terminal.
        let human = context.isTTY && context.format == .table
        return [
            // Cut only where nothing else can give, as a login is: never cut, its 29 letters
            // (`actions_runner_registration`) made every row wrap on a terminal under 50 columns.
            Column("RESOURCE", shrink: .last) { $0.resource },
            Column("LIMIT") { String($0.limit) },
            Column("REMAINING") { String($0.remaining) },
            Column("USED") { $0.used.map(String.init) ?? "" },
            // Not GitHub's `reset` (epoch seconds, which `--fields reset` writes): a time of its own, named so.
            Column("RESETS", key: "resets_at", shrink: .first, derived: true) { bucket in
                guard human else { return RelativeTime.rfc3339(bucket.resetAt) }
                let resetAt = RateLimitInfo.onThisClock(bucket.resetAt, gitHubNow: overview?.answeredAt, now: now)
                let wait = resetAt.timeIntervalSince(now)
                // With its zone, and its date on another day, as a message says a reset (helper-313: at 01:25 on
                // the night London's clocks go back, the hour comes twice).
                let clock = LocalTime.text(resetAt, date: !LocalTime.isSameDay(resetAt, now))
                return wait > 0 ? "\(clock) (in \(DurationText.describe(seconds: wait)))" : "\(clock) (now)"
            },
        ]
    }
}

extension RateLimitBucket: JSONRecord {
    var raw: RawJSON { RateLimitRenderer.bucketJSON(self) }
}
