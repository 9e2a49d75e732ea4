import AtomicCore

/// Column widths for a table that fits the terminal, measured in display columns. The widths are fixed by
/// the first batch so that later pages of a streamed crawl line up with it; wider cells are cut with "…".
struct TableLayout: Sendable, Equatable {
    static let gap = 2
    static let minimumShrunkWidth = 8

    let headers: [String]
    let widths: [Int]

    init(columns: [(header: String, shrink: ColumnShrink?)], rows: [[String]], width: Int) {
        headers = columns.map(\.header)
        var widths = columns.map { DisplayWidth.of($0.header) }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], DisplayWidth.of(cell))
            }
        }
        // Take one column at a time from the widest column of the earliest tier that can still give (descriptions,
        // then URLs, then names), so a name is cut only when nothing else can be, never below a readable minimum.
        var total = widths.reduce(0, +) + TableLayout.gap * max(0, widths.count - 1)
        shrinking: while total > width {
            for tier in ColumnShrink.allCases {
                let candidates = widths.indices.filter {
                    columns[$0].shrink == tier && widths[$0] > TableLayout.minimumShrunkWidth
                }
                if let widest = candidates.max(by: { widths[$0] < widths[$1] }) {
                    widths[widest] -= 1
                    total -= 1
                    continue shrinking
                }
            }
            break
        }
        self.widths = widths
    }

    func header(_ colors: ColorScheme) -> String {
        line(headers, style: colors.bold)
    }

    func line(_ cells: [String], style: (String) -> String = { $0 }) -> String {
        var text = ""
        for (index, width) in widths.enumerated() {
            let cell = DisplayWidth.truncate(index < cells.count ? cells[index] : "", toWidth: width)
            let isLast = index == widths.count - 1
            text +=
                style(cell)
                + (isLast ? "" : String(repeating: " ", count: width - DisplayWidth.of(cell) + TableLayout.gap))
        }
        return text + "\n"
    }
}
