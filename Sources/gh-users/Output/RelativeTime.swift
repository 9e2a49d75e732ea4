import Foundation

/// Dates as a person reads them on a terminal ("3 days ago"), and as RFC 3339 for scripts.
enum RelativeTime {
    /// "3 days ago", or "in 3 days" for a time to come (a key's expiry); under a minute either way is "just now".
    static func describe(_ date: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        let span = abs(seconds)
        let minute = 60.0
        let hour = 60 * minute
        let day = 24 * hour
        let text: String
        switch span {
        case ..<minute: return "just now"
        case ..<hour: text = Counted.text(Int(span / minute), "minute")
        case ..<day: text = Counted.text(Int(span / hour), "hour")
        case ..<(30 * day): text = Counted.text(Int(span / day), "day")
        // Twelve 30-day months are 360 days: from there it is a year (helper-313 saw "12 months ago").
        case ..<(360 * day): text = Counted.text(Int(span / (30 * day)), "month")
        default: text = Counted.text(max(1, Int(span / (365 * day))), "year")
        }
        return seconds < 0 ? "in " + text : text + " ago"
    }

    /// A timestamp GitHub sent as text: relative in a table on a terminal, and exactly as sent anywhere else
    /// (tsv and csv on a terminal too), since data formats never alter a field.
    /// `past` goes before a time gone by ("expired" for a key's expiry, which read "10 years ago" alone).
    static func cell(_ text: String, context: RenderContext, past: String? = nil) -> String {
        guard context.isTTY, context.format == .table, let date = try? Date(text, strategy: .iso8601) else {
            return text
        }
        let described = describe(date, now: context.now)
        guard let past, date < context.now else { return described }
        return past + " " + described
    }

    static func rfc3339(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
