import Foundation
import Glibc

/// UTC text by `gmtime_r` and `strftime`, which never depend on the time zone and write English names in the C
/// locale every process starts in.
enum UTCTimestamp {
    static func iso8601(_ epochSeconds: Int) -> String { format(epochSeconds, "%Y-%m-%dT%H:%M:%SZ") }

    static func httpDate(_ epochSeconds: Int) -> String { format(epochSeconds, "%a, %d %b %Y %H:%M:%S GMT") }

    /// The inverse of `iso8601`, also of a bare date; nil for what `iso8601` would not write back (2023-02-30).
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
