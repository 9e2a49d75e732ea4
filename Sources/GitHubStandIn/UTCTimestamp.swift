import Foundation

/// Formats Unix timestamps as UTC text.
///
/// Done with integer calendar arithmetic so the output never depends on locale, time zone or formatter caches,
/// and so thousands of profiles can be rendered without touching Foundation's date machinery.
enum UTCTimestamp {
    struct Fields: Equatable {
        var year: Int
        var month: Int
        var day: Int
        var hour: Int
        var minute: Int
        var second: Int
        /// 0 = Sunday.
        var weekday: Int
    }

    static func fields(of epochSeconds: Int) -> Fields {
        let days = floorDivide(epochSeconds, 86_400)
        let secondOfDay = epochSeconds - days * 86_400
        // Shift the epoch to 0000-03-01 so leap days fall at the end of a 400-year era.
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchBasedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchBasedMonth + 2) / 5 + 1
        let month = marchBasedMonth < 10 ? marchBasedMonth + 3 : marchBasedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        // 1970-01-01 was a Thursday.
        let weekday = ((days % 7) + 7 + 4) % 7
        return Fields(
            year: year, month: month, day: day, hour: secondOfDay / 3_600, minute: (secondOfDay % 3_600) / 60,
            second: secondOfDay % 60, weekday: weekday)
    }

    /// `2008-01-14T04:33:35Z`, the form GitHub uses for `created_at`.
    static func iso8601(_ epochSeconds: Int) -> String {
        let f = fields(of: epochSeconds)
        return "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2))T\(pad(f.hour, 2)):\(pad(f.minute, 2)):"
            + "\(pad(f.second, 2))Z"
    }

    /// RFC 9110 IMF-fixdate, for the `Date` header.
    static func httpDate(_ epochSeconds: Int) -> String {
        let f = fields(of: epochSeconds)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(weekdays[f.weekday]), \(pad(f.day, 2)) \(months[f.month - 1]) \(pad(f.year, 4)) "
            + "\(pad(f.hour, 2)):\(pad(f.minute, 2)):\(pad(f.second, 2)) GMT"
    }

    /// The inverse of `iso8601`, for query values such as search's `created:`: `YYYY-MM-DDTHH:MM:SSZ`
    /// or a bare `YYYY-MM-DD` (midnight UTC). Anything else, offsets, fractions and 2023-02-30 included, is nil:
    /// only text `iso8601` writes back unchanged is accepted.
    static func epochSeconds(iso8601 text: String) -> Int? {
        let canonical = text.count == 10 ? text + "T00:00:00Z" : text
        guard let date = try? Date(canonical, strategy: .iso8601) else { return nil }
        let seconds = Int(date.timeIntervalSince1970)
        return iso8601(seconds) == canonical ? seconds : nil
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
