import AtomicCore
import Domain
import Foundation
import JSONBytes

/// `gh-users cache info|clear`: what to do with the response cache.
struct CacheOptions: Sendable, Equatable {
    enum Action: String, Sendable, CaseIterable {
        case info
        case clear
    }

    var action: Action
}

/// `gh-users cache`: names what to do; the router takes `info` or `clear` to the subcommand, so what reaches
/// this parse is a word that is neither, or none.
struct CacheCommand: LocalCommand, NestingCommand {
    var action: CacheOptions.Action

    static let spec = CommandSpec(
        name: "cache",
        abstract: "Show where the response cache is and how large, or empty it.",
        usage: "gh-users cache info|clear [--cache-dir DIR] [options]",
        discussion: """
            gh-users keeps each GitHub answer with its ETag and revalidates it on the next run: an unchanged
            answer (HTTP 304) costs a token no rate limit; a search, which GitHub sends uncached, is asked
            again. cache info prints the cache's path, entries and size (with --json: path, entries, size_bytes,
            limit_bytes and orphaned_temporary_files), and warns when no cache can be made or written there;
            cache clear removes every entry and the temporary files of interrupted writes, but keeps one younger
            than 5 minutes, another run's write under way (stderr says how many of each;
            with --json, or --format ndjson, csv or tsv, stdout gets path, removed_entries and removed_bytes), and
            repairs a store of yours whose CACHEDIR.TAG is missing, damaged or of another gh-users version. The
            size is bounded by GH_USERS_CACHE_SIZE (default 100MB); the entries GitHub least recently sent or
            confirmed go first (a read under --offline asks nothing, so it does not count).
            """,
        arguments: [],
        options: [],
        groups: groups,
        examples: examples
    )

    static let subcommands = [Command(local: CacheInfoCommand.self), Command(local: CacheClearCommand.self)]
    static let runsAlone = false

    static let groups = [OutputGroup.withoutFields, CacheGroup.location]

    static let examples = [
        ("gh-users cache info", "Path, entries and size."),
        ("gh-users cache info --json | jq .size_bytes", "The same, for a script."),
        ("gh-users cache clear", "Remove every cached answer."),
    ]

    /// The spec of `cache info` or `cache clear`.
    static func subcommandSpec(_ action: CacheOptions.Action) -> CommandSpec {
        let name = "cache " + action.rawValue
        return CommandSpec(
            name: name,
            abstract: action == .info
                ? "Print the response cache's path, entries and size."
                : "Remove every cached answer, and repair a store whose CACHEDIR.TAG is wrong.",
            usage: "gh-users \(name) [--cache-dir DIR] [options]",
            discussion: action == .info
                ? nil
                : """
                stderr says how many entries went. stdout stays empty unless --json or --format ndjson, csv or tsv
                asks for a record of path, removed_entries and removed_bytes, whatever --format's default says.
                """,
            arguments: [],
            options: [],
            groups: groups,
            examples: examples.filter { $0.0.hasPrefix("gh-users " + name) }
        )
    }

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        action = try WordArgument.parse(parsed, spec: spec, missing: "cache needs an action", unknown: "cache action")
    }

    func run(_ context: LocalContext) async -> CommandOutcome {
        CacheOptions(action: action).perform(context)
    }
}

/// `gh-users cache info`: the cache's path, entries and size.
struct CacheInfoCommand: LocalCommand {
    static let spec = CacheCommand.subcommandSpec(.info)

    init() {}

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {}

    func run(_ context: LocalContext) async -> CommandOutcome {
        CacheOptions(action: .info).perform(context)
    }
}

/// `gh-users cache clear`: removes every cached answer.
struct CacheClearCommand: LocalCommand {
    static let spec = CacheCommand.subcommandSpec(.clear)

    init() {}

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {}

    func run(_ context: LocalContext) async -> CommandOutcome {
        CacheOptions(action: .clear).perform(context)
    }
}

extension CacheOptions {
    /// Finds the cache as `--cache-dir` and the environment say, then does the action: the summary to stdout,
    /// or the confirmation of a clear to stderr.
    func perform(_ context: LocalContext) -> CommandOutcome {
        let io = context.command.io
        let location: CacheLocation
        do {
            location = try CacheLocation.resolve(
                cacheDir: context.common.cacheDirectory, environment: context.environment.environment)
        } catch {
            return .usage(error)
        }
        guard let repository = context.environment.makeCacheRepository(location) else {
            io.writeErr(
                "gh-users: there is no cache directory: HOME and XDG_CACHE_HOME name none (unset, relative, not "
                    + "UTF-8, or a HOME that is no folder); set one, or give --cache-dir\n")
            return .setupFailed
        }
        do throws(DomainError) {
            switch action {
            case .info:
                let summary = try repository.summary()
                if let blocked = summary.cannotStore {
                    io.writeErr("gh-users: warning: \(blocked); runs that use this folder go without a cache\n")
                }
                do {
                    try io.writeOut(CacheRenderer.render(summary, context: context.command.render))
                } catch {
                    return .writeFailed(error, io: io)
                }
            case .clear:
                let removed = try repository.clear()
                // The temporary files an interrupted write left, old enough to be nobody's, went too: said, as
                // `cache info` counts them (helper-231: they went without a word).
                let orphans = removed.orphanedTemporaryFiles
                io.writeErr(
                    "Removed \(Counted.text(removed.entries, "entry", plural: "entries")) "
                        + "(\(CacheRenderer.size(removed.bytes)))"
                        + (orphans > 0 ? " and \(Counted.text(orphans, "orphaned temporary file"))" : "")
                        + " from \(TerminalSanitizer.quotedPath(removed.path))\n"
                )
                // A write under way is left to its run, said so that a file still there after a clear is not
                // taken for one it missed (helper-353's P-4).
                if removed.writesUnderWay > 0 {
                    io.writeErr(
                        "Kept \(Counted.text(removed.writesUnderWay, "temporary file")) younger than 5 minutes: "
                            + "a write another run has under way (or a killed run's, which a run removes once it is "
                            + "5 minutes old)\n")
                }
                // Asked for a format (`--json`), a script gets what was removed as a record; else stdout stays
                // empty, as it always was.
                if context.common.format != nil, context.command.render.format != .table {
                    let record = CacheRenderer.record(
                        [
                            .init("path", .string(removed.path)),
                            .init("removed_entries", .integer(Int64(removed.entries))),
                            .init("removed_bytes", .integer(removed.bytes)),
                        ], context: context.command.render)
                    do {
                        try io.writeOut(record)
                    } catch {
                        return .writeFailed(error, io: io)
                    }
                }
            }
            return .success
        } catch {
            io.writeErr(context.command.presenter.present(error).message)
            return .failed(error)
        }
    }
}

/// The cache summary for a person (labelled lines) or a script (JSON, or one tsv line).
enum CacheRenderer {
    static func render(_ summary: CacheSummary, context: RenderContext) -> String {
        switch context.format {
        case .json, .ndjson, .tsv, .csv:
            return record(
                [
                    .init("path", .string(summary.path)), .init("entries", .integer(Int64(summary.entries))),
                    .init("size_bytes", .integer(summary.bytes)), .init("limit_bytes", .integer(summary.limitBytes)),
                    .init("orphaned_temporary_files", .integer(Int64(summary.orphanedTemporaryFiles))),
                ], context: context)
        case .table:
            var lines = [
                "Path     " + TerminalSanitizer.sanitize(summary.path),
                "Entries  \(summary.entries)",
                "Size     \(size(summary.bytes)) of \(size(summary.limitBytes))",
            ]
            let orphans = summary.orphanedTemporaryFiles
            if orphans > 0 {
                lines.append(
                    "Orphans  \(Counted.text(orphans, "temporary file")) of an interrupted write; the next write "
                        + (orphans == 1 ? "removes it once it is" : "removes them once they are") + " 5 minutes old")
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// One record for a script: a JSON object (one line for ndjson), a tsv line, or csv with its header.
    static func record(_ fields: [JSONValue.Member], context: RenderContext) -> String {
        /// A cell: the path as text, a count as its digits.
        func cell(_ value: JSONValue, _ text: (String) -> String) -> String {
            switch value {
            case .string(let string): text(string)
            case .integer(let number): "\(number)"
            default: ""
            }
        }
        switch context.format {
        case .json, .ndjson, .table:
            let compact = JSONValue.object(fields).bytes
            var output: [UInt8] = []
            if context.format == .json {
                JSONText.pretty(compact, into: &output)
            } else {
                output = compact
            }
            return String(decoding: output, as: UTF8.self) + "\n"
        case .tsv:
            return fields.map { cell($0.value) { TerminalSanitizer.sanitize($0, escapeBackslash: true) } }
                .joined(separator: "\t") + "\n"
        case .csv:
            return CSV.row(fields.map(\.key))
                + CSV.row(fields.map { cell($0.value) { CSV.cell($0, context: context) } })
        }
    }

    /// Sizes in decimal units, as `du -h --si` and the GH_USERS_CACHE_SIZE default (100MB) use them.
    static func size(_ bytes: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: value < 10 ? "%.1f %@" : "%.0f %@", value, units[unit])
    }
}
