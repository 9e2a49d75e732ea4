import AtomicCore
import Domain
import Foundation

/// Runs `gh-users cache info|clear`. Data (the summary) goes to stdout; the confirmation of a clear to stderr.
struct CacheCoordinator: Coordinator {
    let options: CacheOptions
    let repository: any CacheRepository
    let command: CommandContext

    func run() async -> Int32 {
        let io = command.io
        let context = command.render
        let presenter = command.presenter
        do {
            switch options.action {
            case .info:
                let summary = try repository.summary()
                try? io.writeOut(CacheRenderer.render(summary, context: context))
            case .clear:
                let removed = try repository.clear()
                io.writeErr(
                    "Removed \(removed.entries) entries (\(CacheRenderer.size(removed.bytes))) from \(removed.path)\n"
                )
            }
            return ExitCode.success
        } catch {
            let presentation = presenter.present(error)
            io.writeErr(presentation.message)
            return presentation.exitCode
        }
    }
}

/// The cache summary for a person (labelled lines) or a script (JSON, or one tsv line).
enum CacheRenderer {
    static func render(_ summary: CacheSummary, context: RenderContext) -> String {
        switch context.format {
        case .json, .ndjson:
            let path = jsonString(summary.path)
            let fields = [
                "\"path\":\(path)", "\"entries\":\(summary.entries)", "\"size_bytes\":\(summary.bytes)",
                "\"limit_bytes\":\(summary.limitBytes)",
            ]
            return context.format == .json
                ? "{\n  " + fields.joined(separator: ",\n  ").replacingOccurrences(of: "\":", with: "\": ") + "\n}\n"
                : "{" + fields.joined(separator: ",") + "}\n"
        case .tsv:
            return [
                TerminalSanitizer.sanitize(summary.path, escapeBackslash: true), "\(summary.entries)",
                "\(summary.bytes)", "\(summary.limitBytes)",
            ]
            .joined(separator: "\t") + "\n"
        case .csv:
            return CSV.row(["path", "entries", "size_bytes", "limit_bytes"])
                + CSV.row([
                    TerminalSanitizer.sanitize(summary.path), "\(summary.entries)", "\(summary.bytes)",
                    "\(summary.limitBytes)",
                ])
        case .table:
            return """
                Path     \(TerminalSanitizer.sanitize(summary.path))
                Entries  \(summary.entries)
                Size     \(size(summary.bytes)) of \(size(summary.limitBytes))

                """
        }
    }

    private static func jsonString(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: (try? encoder.encode(text)) ?? Foundation.Data("\"\"".utf8), as: UTF8.self)
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
