import AtomicCore
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
    /// `--fields`: the columns or keys to write instead of the command's own.
    var fields: [String]? = nil
    /// stdout is a terminal even where `isTTY` says no (`TERM=dumb`): what GitHub's data holds is still shown
    /// harmless there, never sent raw.
    var reachesTerminal = false
    /// `isTTY` only because `GH_FORCE_TTY` says so: stdout is a file or a pipe, where csv is the exact data.
    var forced = false
    /// Whether colour may use the 256-colour palette, or the 8 basic colours alone (`ColorDepth`).
    var extendedColors = true

    /// What a terminal is told on stderr when a table has no rows, as `gh` does: "gh-users: no followers found".
    /// nil for a pipe or any other format, so what a script reads stays empty.
    func nothingFound(_ noun: String, saying note: String? = nil) -> String? {
        isTTY && format == .table ? "gh-users: " + (note ?? "no \(noun) found") : nil
    }

    /// Whether records are written through columns: a table, tsv or csv, or `--fields`. JSON as GitHub wrote it
    /// needs none, so a list works its columns out only when this holds.
    var readsColumns: Bool { fields != nil || (format != .json && format != .ndjson) }

    /// The context of a run's stdout (`io`) with its `--format` (else `requested`'s default), `--color` and
    /// `--fields`: one place for what every command's output reads from the terminal and the options.
    static func resolve(_ common: CommonOptions, io: IOStreams, requested: OutputFormat?, now: Date) -> RenderContext {
        var context = resolve(
            requested: requested, isTTY: io.stdoutIsTTY,
            colorEnabled: common.color.isEnabled(policy: io.colorPolicy, isTTY: io.stdoutIsTTY),
            width: io.terminalWidth, now: now, fields: common.fields, reachesTerminal: io.stdoutIsTerminal)
        context.extendedColors = io.colorDepth == .extended
        context.forced = io.stdoutIsForced
        return context
    }

    /// table on a terminal, tsv when piped, unless a format was asked for.
    static func resolve(
        requested: OutputFormat?,
        isTTY: Bool,
        colorEnabled: Bool,
        width: Int,
        now: Date,
        fields: [String]? = nil,
        reachesTerminal: Bool = false
    ) -> RenderContext {
        let format = requested ?? (isTTY ? .table : .tsv)
        // json, ndjson and csv are never coloured; tsv and table only when colour is on.
        let color = colorEnabled && (format == .table || format == .tsv)
        return RenderContext(
            format: format,
            isTTY: isTTY,
            colorEnabled: color,
            width: max(20, width),
            now: now,
            fields: fields,
            reachesTerminal: reachesTerminal
        )
    }
}

/// Which columns a table cuts to fit the terminal, and in which order: what identifies a row least goes first,
/// so two rows never look alike while a description or a URL could still give.
enum ColumnShrink: Int, Sendable, Comparable, CaseIterable {
    /// Descriptions, bios, times, URLs: they give way first, from the right, each cut to the minimum and then left
    /// out.
    case first = 1
    /// Other text that names something (a display name, a repository, a title), and `--fields` columns that are
    /// none of the command's own.
    case second = 2
    /// What a row is known by (a login): cut only when nothing else can give.
    case last = 3

    static func < (lhs: ColumnShrink, rhs: ColumnShrink) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A column of a table, tsv or csv rendering.
struct Column<Item>: Sendable {
    let header: String
    /// GitHub's name for the field, used as the csv header so scripts see the API's names.
    let key: String
    /// When the table may cut this column to fit the terminal; nil: never.
    let shrink: ColumnShrink?
    /// Computed here rather than read from GitHub's JSON (a key's fingerprint): `--fields` takes it by its key.
    let isDerived: Bool
    let value: @Sendable (Item) -> String

    /// The widest a cell of this column can be, when GitHub bounds it (a login is at most 39 characters); nil when
    /// it is free text. A streamed table gives the column this room, as later rows may need it.
    var naturalWidth: Int? { Column.naturalWidths[key] }

    /// The most a streamed table gives this column from the room left over (`TableLayout.withRoom`): a profile's
    /// name, company or location 40, while a bio or a description takes the rest; nil for all it can have.
    var widest: Int? { ["name", "company", "location"].contains(key) ? 40 : nil }

    init(
        _ header: String, key: String? = nil, shrink: ColumnShrink? = nil, derived: Bool = false,
        value: @escaping @Sendable (Item) -> String
    ) {
        self.header = header
        self.key = key ?? header.lowercased()
        self.shrink = shrink
        self.isDerived = derived
        self.value = value
    }
}

extension Column {
    /// What a computed column shows where it can compute nothing (a key that does not decode has no
    /// fingerprint): `?` in a table; an empty cell in tsv and csv, and null in JSON, so that no script reads a
    /// placeholder as a value.
    static var unknown: String { "?" }

    /// The widest cells of GitHub's bounded fields, by key: a login has at most 39 characters, a profile's URL
    /// is GitHub's address and a login, an account's type is at most "Organization", an account's or a
    /// repository's id has at most 10 digits (an event's 11 already fill its column, which only grows).
    static var naturalWidths: [String: Int] {
        ["login": 39, "html_url": 58, "type": 12, "id": 10]
    }
}
