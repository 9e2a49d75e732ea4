import AtomicCore

/// Column widths for a table that fits the terminal, measured in display columns. The widths are fixed by
/// the first batch so that later pages of a streamed crawl line up with it; wider cells are cut with "…".
struct TableLayout: Sendable, Equatable {
    static let gap = 2
    static let minimumShrunkWidth = 8

    let headers: [String]
    let widths: [Int]

    init(columns: [(header: String, shrinkable: Bool)], rows: [[String]], width: Int) {
        headers = columns.map(\.header)
        var widths = columns.map { DisplayWidth.of($0.header) }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], DisplayWidth.of(cell))
            }
        }
        // Take one column at a time from the widest shrinkable column, so narrow terminals share the cut fairly,
        // but never below a readable minimum.
        var total = widths.reduce(0, +) + TableLayout.gap * max(0, widths.count - 1)
        while total > width {
            let candidates = widths.indices.filter {
                columns[$0].shrinkable && widths[$0] > TableLayout.minimumShrunkWidth
            }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
            total -= 1
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
