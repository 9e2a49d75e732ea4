/// Durations as a person reads them in a message: "45s", "12m 3s", "2h 5m", "11d 13h".
enum DurationText {
    /// Total for any input: a wait computed from a server's value may be NaN, infinite or absurd, and a
    /// message about it must not be what crashes (`Int(Double)` traps outside Int's range).
    static func describe(seconds: Double) -> String {
        // A century: past that the figure means nothing to a reader (it said "36600d 0h" as if it were one), and
        // Int conversion stays far from its limit.
        let ceiling = 100.0 * 366 * 86_400
        if seconds > ceiling { return "more than 100 years" }
        let bounded = seconds.isNaN ? 0 : max(seconds, 0)
        let total = Int(bounded.rounded(.up))
        let days = total / 86_400
        let hours = (total % 86_400) / 3600
        let minutes = (total % 3600) / 60
        let rest = total % 60
        if days > 0 { return "\(days)d \(hours)h" }
        if hours > 0 { return "\(hours)h \(minutes)m" }
        if minutes > 0 { return "\(minutes)m \(rest)s" }
        return "\(rest)s"
    }
}
