import Foundation

/// Dates as a person reads them on a terminal ("3 days ago"), and as RFC 3339 for scripts.
enum RelativeTime {
    static func describe(_ date: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        if seconds < 0 { return "in the future" }
        let minute = 60.0
        let hour = 60 * minute
        let day = 24 * hour
        switch seconds {
        case ..<minute: return "just now"
        case ..<hour: return plural(Int(seconds / minute), "minute")
        case ..<day: return plural(Int(seconds / hour), "hour")
        case ..<(30 * day): return plural(Int(seconds / day), "day")
        case ..<(365 * day): return plural(Int(seconds / (30 * day)), "month")
        default: return plural(Int(seconds / (365 * day)), "year")
        }
    }

    /// A timestamp GitHub sent as text: relative on a terminal, and exactly as sent anywhere else, since data
    /// formats never alter a field.
    static func cell(_ text: String, context: RenderContext) -> String {
        guard context.isTTY, let date = try? Date(text, strategy: .iso8601) else { return text }
        return describe(date, now: context.now)
    }

    static func rfc3339(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    private static func plural(_ count: Int, _ unit: String) -> String {
        Counted.text(count, unit) + " ago"
    }
}
