import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A moment on this machine's clock, as messages and the `rate-limit` table show it to people: `15:12:11 CET`, or
/// `2026-12-07 15:12:11 CET` on another day. ASCII in every locale (Foundation's styles wrote U+202F before "AM"
/// even under `LC_ALL=C`, which a C terminal or cron's mail garbles and `grep '10:12:11 AM'` misses), on a 24-hour
/// clock, in the zone the C library reads from `TZ` as `date` does, POSIX rules too (`TZ=UTC+5`, `JST-9`,
/// `CET-1CEST,M3.5.0,M10.5.0/3`), which Foundation read with the sign reversed or as UTC.
package enum LocalTime {
    /// `15:12:11 CET`; with `date`, `2026-12-07 15:12:11 CET`; without `zone`, `15:12:11`.
    package static func text(_ moment: Date, date: Bool = false, zone: Bool = true) -> String {
        guard let parts = parts(of: moment) else { return moment.formatted(.iso8601) }
        var text = [parts.tm_hour, parts.tm_min, parts.tm_sec].map(twoDigits).joined(separator: ":")
        if date {
            text = "\(parts.tm_year + 1900)-\(twoDigits(parts.tm_mon + 1))-\(twoDigits(parts.tm_mday)) " + text
        }
        return zone ? text + " " + zoneName(parts) : text
    }

    /// Whether two moments fall on the same day of this machine's calendar.
    package static func isSameDay(_ one: Date, _ other: Date) -> Bool {
        guard let first = parts(of: one), let second = parts(of: other) else { return false }
        return first.tm_year == second.tm_year && first.tm_yday == second.tm_yday
    }

    /// The zone's abbreviation (`CET`, `+05`), or its offset from UTC (`UTC-5`, `UTC+5:30`) where the abbreviation
    /// would mislead: none, one that names UTC at another offset (`TZ=UTC+5` is five hours behind it), or one with
    /// characters a zone's name never holds. At UTC's own offset, a name no such zone has is `UTC`: the C library
    /// reads a zone it cannot find (`TZ=America/New_Yrok`) as UTC named by its first letters, and "22:25 America"
    /// was a UTC time said as New York's (helper-313).
    static func zoneName(_ parts: tm) -> String {
        let name = parts.tm_zone.map { String(cString: $0) } ?? ""
        let offset = Int(parts.tm_gmtoff)
        // Every abbreviation the tz database gives at offset 0 (GMT: London, Dublin, Accra; WET: Lisbon, the
        // Canaries; +00: Troll, the Azores in summer, Casablanca), and the names of UTC itself.
        if offset == 0, !["GMT", "UTC", "UCT", "UT", "Z", "WET", "+00", "-00"].contains(name) { return "UTC" }
        // ASCII letters, digits, `+` and `-`, as POSIX allows in a zone's name.
        let plain = name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-")
        }
        guard name.isEmpty || !plain || (["UTC", "GMT", "UCT", "Z"].contains(name) && offset != 0) else {
            return name
        }
        let (hours, minutes) = (abs(offset) / 3600, abs(offset) % 3600 / 60)
        return "UTC" + (offset < 0 ? "-" : "+") + "\(hours)" + (minutes == 0 ? "" : ":" + twoDigits(Int32(minutes)))
    }

    /// Nil past what time_t holds (a forged cache entry's date of 1e300 seconds trapped: a review's find).
    private static func parts(of moment: Date) -> tm? {
        guard var seconds = time_t(exactly: moment.timeIntervalSince1970.rounded(.down)) else { return nil }
        var parts = tm()
        tzset()
        return localtime_r(&seconds, &parts) == nil ? nil : parts
    }

    private static func twoDigits(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
}
