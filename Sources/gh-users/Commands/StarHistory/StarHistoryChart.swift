import AtomicCore
import Domain

/// The running total of a star history drawn to fit the width, as `contributions` fits its map: a column per
/// day or week (or, when more than the width holds, per run of them, at the total its last one ended with),
/// eight rows of bars in eighths of a row, the highest and lowest totals on the left, the first and last dates
/// under the bars. Bars are yellow when colour is on.
enum StarHistoryChart {
    static let rows = 8
    private static let eighths = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// `points` oldest first; `title` is the line over the chart.
    static func render(_ points: [StarPoint], title: String, context: RenderContext) -> String {
        guard let first = points.first, let last = points.last else { return title + "\n" }
        let (before, overflow) = first.total.subtractingReportingOverflow(first.gained)
        let opening = overflow ? 0 : max(0, before)
        let high = max(opening, points.map(\.total).max() ?? 0)
        // A total that never moved is drawn from 0, as full bars: from itself it would be no bars at all, which
        // reads as no stars.
        let low = opening == high ? 0 : opening
        let labels = [Counted.grouped(high), Counted.grouped(low)]
        let labelWidth = labels.map(\.count).max() ?? 1
        let columns = max(1, context.width - labelWidth - 2)
        let shown = buckets(points, columns: columns)
        // Each column's height in eighths of a row; a total above the lowest shows at least one eighth.
        let heights = shown.map { point -> Int in
            guard high > low else { return 0 }
            // In floating point: a server's count of 2^57 or more overflowed the product, and the run died with
            // SIGILL (a review's find); the quotient is at most rows * 8 whatever the totals are.
            let eighths = Int(Double(point.total - low) * Double(rows * 8) / Double(high - low))
            return point.total > low ? max(1, eighths) : 0
        }
        let indent = String(repeating: " ", count: labelWidth + 2)
        var lines = [title]
        for row in 0..<rows {
            let floor = (rows - 1 - row) * 8
            let bars = trimmed(heights.map { height in eighths[min(8, max(0, height - floor))] }.joined())
            let label = row == 0 ? labels[0] : row == rows - 1 ? labels[1] : ""
            let axis = row == 0 || row == rows - 1 ? " ┤" : " │"
            lines.append(pad(label, labelWidth) + axis + colour(bars, context))
        }
        // The first date under the first column; the last under the last, when both fit apart under the bars, and
        // else after the first where the width has room (helper-313: three days' bars showed the first alone), or
        // on a line of its own (helper-329: at 20 columns the last was lost).
        let start = first.start.description
        let end = last.start.description
        let room = shown.count - start.count - end.count
        let span = start == end ? start : start + " to " + end
        let dates =
            room >= 1
            ? start + String(repeating: " ", count: room) + end
            : labelWidth + 2 + span.count <= context.width || start == end ? span : start + "\n" + indent + "to " + end
        lines.append(indent + dates)
        return lines.joined(separator: "\n") + "\n"
    }

    /// At most `columns` points: when there are more, runs of consecutive ones, each shown as its last.
    static func buckets(_ points: [StarPoint], columns: Int) -> [StarPoint] {
        guard points.count > columns else { return points }
        return (0..<columns).map { column in
            let start = column * points.count / columns
            let end = (column + 1) * points.count / columns - 1
            let gained = points[start...end].reduce(0) { $0 + $1.gained }
            return StarPoint(start: points[start].start, gained: gained, total: points[end].total)
        }
    }

    private static func colour(_ bars: String, _ context: RenderContext) -> String {
        context.colorEnabled && !bars.isEmpty ? "\u{1B}[33m" + bars + "\u{1B}[0m" : bars
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private static func trimmed(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
