import Foundation

enum OutputFormat: String, Sendable, CaseIterable {
    case table
    case tsv
    case csv
    case json
    case ndjson
}

/// What a pure renderer may know about where its text goes.
struct RenderContext: Sendable {
    let format: OutputFormat
    let isTTY: Bool
    let colorEnabled: Bool
    let width: Int
    let now: Date

    /// table on a terminal, tsv when piped, unless a format was asked for.
    static func resolve(
        requested: OutputFormat?,
        isTTY: Bool,
        colorEnabled: Bool,
        width: Int,
        now: Date
    ) -> RenderContext {
        let format = requested ?? (isTTY ? .table : .tsv)
        // json, ndjson and csv are never coloured; tsv and table only when colour is on.
        let color = colorEnabled && (format == .table || format == .tsv)
        return RenderContext(format: format, isTTY: isTTY, colorEnabled: color, width: max(20, width), now: now)
    }
}

/// A column of a table, tsv or csv rendering.
struct Column<Item>: Sendable {
    let header: String
    /// Whether the table may cut this column to fit the terminal.
    let shrinkable: Bool
    let value: @Sendable (Item) -> String

    init(_ header: String, shrinkable: Bool = false, value: @escaping @Sendable (Item) -> String) {
        self.header = header
        self.shrinkable = shrinkable
        self.value = value
    }
}
