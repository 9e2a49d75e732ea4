import Foundation
import Glibc

/// Formats Unix timestamps as UTC text with the C library's `gmtime_r` and `strftime`, which never depend on
/// the time zone and, in the C locale every process starts in, write English day and month names.
enum UTCTimestamp {
    /// `2008-01-14T04:33:35Z`, the form GitHub uses for `created_at`.
    static func iso8601(_ epochSeconds: Int) -> String {
        format(epochSeconds, "%Y-%m-%dT%H:%M:%SZ")
    }

    /// RFC 9110 IMF-fixdate, for the `Date` header.
    static func httpDate(_ epochSeconds: Int) -> String {
        format(epochSeconds, "%a, %d %b %Y %H:%M:%S GMT")
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

    private static func format(_ epochSeconds: Int, _ pattern: String) -> String {
        var time = time_t(epochSeconds)
        var fields = tm()
        gmtime_r(&time, &fields)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, pattern, &fields)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
