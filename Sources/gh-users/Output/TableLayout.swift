import AtomicCore

/// Column widths for a table that fits the terminal, measured in display columns. The widths are fixed by
/// the first batch so that later pages of a streamed crawl line up with it; wider cells are cut with "…", and a
/// description that cannot fit at a readable width is left out. When more is to come, `withRoom` gives columns
/// room for later rows.
struct TableLayout: Sendable, Equatable {
    static let gap = 2
    static let minimumShrunkWidth = 8
    /// The widest a column that is never cut to fit may be: such a column holds what GitHub bounds (a type, an
    /// id, a role, a login of at most 39) or what gh-users computes (a key's SHA256 fingerprint, 50), so a longer
    /// cell is no value of GitHub's and is cut with "…" here.
    static let boundedWidth = 64

    let headers: [String]
    let widths: [Int]
    /// How each column may be cut (`ColumnShrink`); nil, never (an id, a type, a count): a later row's longer
    /// cell there (a crawl's ids past the first page's digits) is written whole rather than cut to a number that
    /// is not its own, and the row takes the room from its cells that may be cut.
    let shrinks: [ColumnShrink?]
    /// The terminal's columns the layout leaves free: a row whose id outgrew its column uses them first.
    let room: Int

    /// `dropping`: free text may be left out to fit (not for `--fields`, whose columns the user named).
    init(columns: [(header: String, shrink: ColumnShrink?)], rows: [[String]], width: Int, dropping: Bool = true) {
        headers = columns.map(\.header)
        shrinks = columns.map(\.shrink)
        var widths = columns.map { DisplayWidth.of($0.header) }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], DisplayWidth.of(cell))
            }
        }
        for index in widths.indices where columns[index].shrink == nil {
            widths[index] = min(widths[index], max(DisplayWidth.of(columns[index].header), Self.boundedWidth))
        }
        // Take one column at a time from the earliest tier that can still give, so a name is cut only when nothing
        // else can be, never below a readable minimum. Descriptions and the like give way from the right, one
        // column at a time, each cut to the minimum and then left out: a column of a few letters says nothing,
        // while a cut name can be mistaken for another. URLs, then names, are cut from the widest.
        var total = widths.reduce(0, +) + TableLayout.gap * max(0, widths.count - 1)
        shrinking: while total > width {
            if let giving = widths.indices.last(where: { columns[$0].shrink == .first && widths[$0] > 0 }),
                widths.filter({ $0 > 0 }).count > 1
            {
                if widths[giving] > TableLayout.minimumShrunkWidth {
                    widths[giving] -= 1
                    total -= 1
                } else {
                    total -= widths[giving] + TableLayout.gap
                    widths[giving] = 0
                }
                continue shrinking
            }
            for tier in [ColumnShrink.second, .last] {
                let candidates = widths.indices.filter {
                    columns[$0].shrink == tier && widths[$0] > TableLayout.minimumShrunkWidth
                }
                if let widest = candidates.max(by: { widths[$0] < widths[$1] }) {
                    widths[widest] -= 1
                    total -= 1
                    continue shrinking
                }
            }
            // Every column that may be cut is at its minimum and the table is still wider than the terminal (a
            // `--full` list at 60 columns ran 3 cells past it): a free-text column (a location) is left out, from the
            // right, as a description is, while another is shown. The last one stays (it may be what the rows are
            // of, as `access`'s repository), and an id, a login or a count is never left out.
            let free = widths.indices.filter { columns[$0].shrink == .second && widths[$0] > 0 }
            if dropping, free.count > 1, let dropped = free.last {
                total -= widths[dropped] + TableLayout.gap
                widths[dropped] = 0
                continue shrinking
            }
            break
        }
        self.widths = widths
        room = max(0, width - total)
    }

    private init(headers: [String], widths: [Int], shrinks: [ColumnShrink?], room: Int) {
        self.headers = headers
        self.widths = widths
        self.shrinks = shrinks
        self.room = room
    }

    /// The room a streamed table claims for a bounded column before free text: all of an id's 10 digits, and 20
    /// of a login's 39 characters, which few logins pass. The rest of a login's room comes only from room left over.
    static let claimedWidth = 20
    /// The least a name keeps while a location is shown beside it (else the location is left out).
    static let sharedNameWidth = 16

    /// This layout for a table whose first chunk is not all of it, so that later rows are not cut to the first
    /// chunk's widths. Within `width`, each shown column with a natural width (an id's 10 digits, a login's 39
    /// characters) first claims up to `claimedWidth` of it, taken from what is cut before names (a description,
    /// a URL) as far as it can give, names (free text cut before a login) down to 16 while two are shown, then
    /// from a description, a URL or a location left out, then from names down to the readable minimum, which every
    /// name is brought to first; then names have up to `claimedWidth` each; then bounded columns grow to their
    /// natural width from what is left; then free text shares the rest of the terminal. Sized from a first row
    /// alone, a crawl cut most logins and ids that came after it, while names kept their room; claimed without
    /// names', a `--full` list at 80 columns cut every name to 7 letters, or to 3 when its first account had none,
    /// and a wider terminal then cut names again to show a location. Nothing grows past the terminal.
    /// `dropping`: a column may be left out (not for `--fields`, whose columns the user named). `widest`: the most
    /// room left over a column takes (a name's 40, `Column.widest`), nil for all it can have.
    func withRoom(
        natural: [Int?], shrinks: [ColumnShrink?], width: Int, dropping: Bool = true, widest: [Int?] = []
    ) -> TableLayout {
        var widths = self.widths
        var shown = widths.indices.filter { widths[$0] > 0 }
        var spare = width - widths.reduce(0, +) - TableLayout.gap * max(0, shown.count - 1)
        // What is cut before a name (a description, a URL) gives; an id, a type and a login claim, a login first:
        // an id is never cut (a longer one takes its row's room), so its claim only keeps the rows aligned.
        let gives = shown.filter { shrinks[$0].map { $0 < .last } ?? false }
        let claiming = shown.filter { !gives.contains($0) }.sorted {
            (shrinks[$0] == .last ? 0 : 1) < (shrinks[$1] == .last ? 0 : 1)
        }
        let claims = claiming.map { index in
            natural[index].map { max(0, min($0, Self.claimedWidth) - widths[index]) } ?? 0
        }
        let names = { shown.filter { natural[$0] == nil && shrinks[$0] == .second } }
        // Leaves out a description or a URL, from the right, or else the last of two or more names (a location,
        // as the whole table's layout does): one cut to the minimum says next to nothing.
        func leaveOut() -> Bool {
            guard dropping, shown.count > 1,
                let dropped = gives.last(where: { shrinks[$0] == .first && widths[$0] > 0 })
                    ?? (names().count > 1 ? names().last : nil)
            else { return false }
            spare += widths[dropped] + TableLayout.gap
            widths[dropped] = 0
            shown.removeAll { $0 == dropped }
            return true
        }
        // A name is brought to the readable minimum before any claim (the header's 4 where the first account has
        // none): what names lack counts with the claims. Free text and URLs give, widest first, down to that
        // minimum, and names only down to a login's claim while two are shown; then what is at its floor is left out
        // (a description or a URL, else a location), and then names give down to the minimum.
        let lacking = { names().reduce(0) { $0 + max(0, TableLayout.minimumShrunkWidth - widths[$1]) } }
        func givesDownTo(_ index: Int) -> Int {
            names().count > 1 && names().contains(index) ? Self.sharedNameWidth : TableLayout.minimumShrunkWidth
        }
        var leftOut = false
        while spare < claims.reduce(0, +) + lacking() {
            if let giving = gives.filter({ widths[$0] > (leftOut ? TableLayout.minimumShrunkWidth : givesDownTo($0)) })
                .max(by: { widths[$0] < widths[$1] })
            {
                widths[giving] -= 1
                spare += 1
            } else if leaveOut() {
                continue
            } else if !leftOut {
                leftOut = true
            } else {
                break
            }
        }
        for index in names() where spare > 0 {
            let growth = min(max(0, TableLayout.minimumShrunkWidth - widths[index]), spare)
            widths[index] += growth
            spare -= growth
        }
        for (position, index) in claiming.enumerated() where spare > 0 {
            let growth = min(claims[position], spare)
            widths[index] += growth
            spare -= growth
        }
        // Two names that cannot both have 16 are one: a wider terminal cut names to show a location (helper-342).
        while names().count > 1, spare < names().reduce(0, { $0 + max(0, givesDownTo($1) - widths[$1]) }), leaveOut() {}
        for (position, index) in names().enumerated() where spare > 0 {
            let share = min(max(0, Self.claimedWidth - widths[index]), spare / (names().count - position))
            widths[index] += share
            spare -= share
        }
        for index in shown where spare > 0 {
            guard let natural = natural[index], natural > widths[index] else { continue }
            let growth = min(natural - widths[index], spare)
            widths[index] += growth
            spare -= growth
        }
        // Then free text shares the rest: a name (or a location) up to its `widest`, then the rest (a description,
        // an outcome) all that is left. At 200 columns a `--full` list spread 11-letter names over 59 (helper-360).
        let free = shown.filter { natural[$0] == nil && shrinks[$0] != nil }
        let most = { (index: Int) in index < widest.count ? widest[index] : nil }
        for tier in [free.filter { most($0) != nil }, free.filter { most($0) == nil }] {
            for (position, index) in tier.enumerated() where spare > 0 {
                var share = spare / (tier.count - position)
                if let most = most(index) { share = min(share, max(0, most - widths[index])) }
                widths[index] += share
                spare -= share
            }
        }
        return TableLayout(headers: headers, widths: widths, shrinks: shrinks, room: max(0, spare))
    }

    func header(_ colors: ColorScheme) -> String {
        line(headers, style: colors.bold)
    }

    /// A row of the shown columns; a column of width 0 gave way to the terminal's width and is left out. The row
    /// ends after its last cell that holds anything: no line ends in the padding of empty cells.
    func line(_ cells: [String], style: (String) -> String = { $0 }) -> String {
        let filled = self.widths.indices.filter { self.widths[$0] > 0 && $0 < cells.count && !cells[$0].isEmpty }
        let shown = self.widths.indices.filter { self.widths[$0] > 0 && $0 <= (filled.last ?? -1) }
        var widths = self.widths
        // A never-cut cell wider than its column (up to `boundedWidth`) takes its room from the row's other
        // cells' padding, then from its cells that may be cut, in the order the layout cuts them and
        // never below a readable minimum; what is still missing runs past the edge, as an id is never cut.
        let cellWidths = widths.indices.map { $0 < cells.count ? DisplayWidth.of(cells[$0]) : 0 }
        var over = shown.reduce(0) { sum, index in
            sum + (shrinks[index] == nil ? max(0, min(cellWidths[index], Self.boundedWidth) - widths[index]) : 0)
        }
        // The terminal's free columns first, and those of columns this row leaves empty at its end; then
        // padding, nearest the wider cell: after it (the columns beyond line up again), then before it.
        over -=
            room
            + self.widths.indices.filter { $0 > (shown.last ?? -1) && self.widths[$0] > 0 }
            .reduce(0) { $0 + self.widths[$1] + TableLayout.gap }
        let wider = shown.first { shrinks[$0] == nil && cellWidths[$0] > widths[$0] } ?? 0
        let nearest = shown.filter { $0 > wider } + shown.filter { $0 < wider }.reversed()
        for index in nearest where over > 0 && cellWidths[index] < widths[index] {
            let given = min(over, widths[index] - cellWidths[index])
            widths[index] -= given
            over -= given
        }
        for tier in ColumnShrink.allCases {
            for index in shown.reversed() where shrinks[index] == tier && over > 0 {
                let given = min(over, max(0, widths[index] - min(widths[index], Self.minimumShrunkWidth)))
                widths[index] -= given
                over -= given
                // A description or a URL at its minimum says nothing: this row leaves it out.
                if tier == .first, over > 0, shown.count > 1 {
                    over -= widths[index] + TableLayout.gap
                    widths[index] = 0
                }
            }
        }
        let kept = shown.filter { widths[$0] > 0 }
        var text = ""
        for index in kept {
            let width = shrinks[index] == nil ? max(widths[index], Self.boundedWidth) : widths[index]
            let cell = DisplayWidth.truncate(cells[index], toWidth: width)
            let isLast = index == kept.last
            text +=
                style(cell)
                + (isLast
                    ? ""
                    : String(repeating: " ", count: max(0, widths[index] - DisplayWidth.of(cell)) + TableLayout.gap))
        }
        return text + "\n"
    }
}
