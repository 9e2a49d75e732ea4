import Foundation

/// A header read from the network: not sent, sent and within the rules, or sent and not. Keeping `malformed`
/// apart from `absent` lets a caller fail with a message instead of quietly guessing (or crashing on a
/// conversion later).
package enum HeaderField<Value: Sendable & Equatable>: Sendable, Equatable {
    case absent
    case valid(Value)
    /// Why the value was refused, as a sentence fit for an error message. It quotes the server's text, so it
    /// must be sanitised before it reaches a terminal.
    case malformed(String)

    package var value: Value? {
        if case .valid(let value) = self { return value }
        return nil
    }
}

/// Bounded parsers for the numbers and dates that arrive in headers. Every number from the network is read
/// here, with a range, so that nothing downstream converts an unbounded `Double` (`nan`, `1e308`) or `Int`
/// into something smaller.
package enum HeaderValue {
    /// The largest delta-seconds RFC 9111 (§1.2.2) asks a recipient to handle; a longer wait is not a number
    /// any server means.
    package static let maximumDeltaSeconds: Int64 = 2_147_483_648
    /// 9999-12-31T23:59:59Z, the last second a four-digit year can show.
    package static let maximumEpochSeconds: Int64 = 253_402_300_799
    /// Server text quoted in a message is cut to this many characters.
    static let quotedLength = 40

    /// ASCII digits only (after trimming spaces), within `range`: no sign, fraction, exponent, `nan` or `inf`,
    /// which is what RFC 9110 allows for delta-seconds and what GitHub sends for its counters and epoch times.
    package static func integer(_ text: String, in range: ClosedRange<Int64>) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int64(trimmed), range.contains(value)
        else { return nil }
        return value
    }

    /// `x-ratelimit-remaining` and other counters.
    package static func count(_ text: String?, name: String) -> HeaderField<Int64> {
        guard let text else { return .absent }
        guard let value = integer(text, in: 0...Int64(Int32.max)) else {
            return .malformed("\(name) \(quote(text)) is not a count")
        }
        return .valid(value)
    }

    /// `x-ratelimit-reset`: whole seconds since 1970, up to the end of year 9999.
    package static func epochTime(_ text: String?, name: String) -> HeaderField<Date> {
        guard let text else { return .absent }
        guard let seconds = integer(text, in: 0...maximumEpochSeconds) else {
            return .malformed("\(name) \(quote(text)) is not a time in whole seconds since 1970 (up to year 9999)")
        }
        return .valid(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// `Retry-After` in either of RFC 9110's forms (§10.2.3): delta-seconds, or an HTTP-date, which becomes the
    /// wait from `now` (none when the date has passed).
    package static func retryAfter(_ text: String?, now: Date) -> HeaderField<Duration> {
        // Blank is absent: GitHub's abuse limit "can sometimes" send it so (octokit/plugin-throttling.js).
        guard let text, !text.allSatisfy(\.isWhitespace) else { return .absent }
        if let seconds = integer(text, in: 0...maximumDeltaSeconds) {
            return .valid(.seconds(seconds))
        }
        if let date = HTTPDate.parse(text, now: now) {
            let wait = max(0, date.timeIntervalSince(now))
            // A date past the year 9999 is already refused by the parser, so this stays far inside Int64.
            return .valid(.milliseconds(Int64((wait * 1000).rounded(.up))))
        }
        return .malformed(
            "Retry-After \(quote(text)) is neither a number of seconds up to \(maximumDeltaSeconds) nor an HTTP date")
    }

    /// The server's text in quotes, cut short: it goes into a one-line message.
    static func quote(_ text: String) -> String {
        let cut = text.count > quotedLength ? text.prefix(quotedLength) + "…" : Substring(text)
        return "'\(cut)'"
    }
}

/// HTTP-date (RFC 9110 §5.6.7) in all three forms a recipient must accept: IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`) and
/// asctime (`Sun Nov  6 08:49:37 1994`). Parsed by hand: DateFormatter is not Sendable, depends on the locale,
/// and would accept more than the grammar does.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    package static func parse(_ text: String, now: Date = Date()) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count <= 64 else { return nil }
        if let comma = trimmed.firstIndex(of: ",") {
            let rest = trimmed[trimmed.index(after: comma)...].split(separator: " ")
            // IMF-fixdate: 06 Nov 1994 08:49:37 GMT
            if rest.count == 5, rest[4] == "GMT", let year = Int(rest[2]), rest[2].count == 4 {
                return make(year: year, month: rest[1], day: rest[0], time: rest[3])
            }
            // RFC 850: 06-Nov-94 08:49:37 GMT
            if rest.count == 3, rest[2] == "GMT" {
                let parts = rest[0].split(separator: "-")
                guard parts.count == 3, parts[2].count == 2, let yy = Int(parts[2]) else { return nil }
                return make(year: fullYear(twoDigit: yy, now: now), month: parts[1], day: parts[0], time: rest[1])
            }
            return nil
        }
        // asctime: Sun Nov  6 08:49:37 1994
        let parts = trimmed.split(separator: " ")
        guard parts.count == 5, parts[4].count == 4, let year = Int(parts[4]) else { return nil }
        return make(year: year, month: parts[1], day: parts[2], time: parts[3])
    }

    /// RFC 9110: a two-digit year that would be more than 50 years in the future is in the past century.
    private static func fullYear(twoDigit: Int, now: Date) -> Int {
        let currentYear = 1970 + Int(now.timeIntervalSince1970 / 31_556_952)
        var year = (currentYear / 100) * 100 + twoDigit
        if year > currentYear + 50 { year -= 100 }
        return year
    }

    private static func make(year: Int, month: Substring, day: Substring, time: Substring) -> Date? {
        guard (1900...9999).contains(year), let monthIndex = months.firstIndex(of: month.lowercased()),
            day.count <= 2, let dayNumber = Int(day), dayNumber >= 1,
            dayNumber <= daysIn(month: monthIndex + 1, year: year)
        else { return nil }
        let clock = time.split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: year, month: monthIndex + 1, day: dayNumber)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
