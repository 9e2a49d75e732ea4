import AtomicCore
import Domain
import JSONBytes

/// `star-history` output: a line and the chart as its table,
/// `{"repository","from","to","by","count","gained","history"}` as its JSON, and one record per day or week
/// (date, stars, total) in every other format or with `--fields`.
enum StarHistoryRenderer {
    static func render(_ report: StarHistoryReport, context: RenderContext) -> [UInt8] {
        switch context.format {
        case .table where context.fields == nil:
            return Array(StarHistoryChart.render(report.points, title: title(report, context), context: context).utf8)
        case .json where context.fields == nil:
            let document = JSONValue.object([
                .init("repository", .string(report.repository.description)),
                .init("from", .string(report.span.lowerBound.description)),
                .init("to", .string(report.span.upperBound.description)),
                .init("by", .string(report.grouping.rawValue)),
                .init("count", .integer(Int64(report.count))),
                .init("gained", .integer(Int64(report.gained))),
                .init("history", .array(report.points.map(pointValue))),
            ])
            var output: [UInt8] = []
            JSONText.pretty(document.bytes, into: &output)
            return output + [UInt8(ascii: "\n")]
        default:
            var writer = RecordStreamWriter(context: context, columns: columns)
            return writer.render(report.points) + writer.finish(completed: true)
        }
    }

    static let columns: [Column<StarPoint>] = [
        Column("DATE") { $0.start.description },
        Column("STARS") { String($0.gained) },
        Column("TOTAL") { String($0.total) },
    ]

    /// "octocat/Hello-World: 42 stars now; 19 gained from 2025-08-01 to 2025-08-31", on one line when it fits
    /// the width, else on two.
    static func title(_ report: StarHistoryReport, _ context: RenderContext) -> String {
        let count = Counted.grouped(report.count) + (report.count == 1 ? " star" : " stars")
        return ContributionsHeatmap.fitted(
            [
                "\(report.repository): \(count) now;",
                "\(Counted.grouped(report.gained)) gained from \(report.span.lowerBound) to "
                    + "\(report.span.upperBound)",
            ], width: context.width
        ).joined(separator: "\n")
    }

    fileprivate static func pointValue(_ point: StarPoint) -> JSONValue {
        .object([
            .init("date", .string(point.start.description)), .init("stars", .integer(Int64(point.gained))),
            .init("total", .integer(Int64(point.total))),
        ])
    }
}

extension StarPoint: JSONRecord {
    var raw: RawJSON { RawJSON(bytes: StarHistoryRenderer.pointValue(self).bytes) }
}
