/// A search range qualifier's value (GitHub's `X`, `>X`, `>=X`, `<X`, `<=X`, `A..B`, `A..*`, `*..B`) as an
/// inclusive range: of Unix seconds by default, where a date is its whole UTC day; of what `value` parses else.
package enum StandInCreatedRange {
    package static let unbounded = Int.max / 4

    package static func parse(_ text: String, value: (String) -> ClosedRange<Int>? = span) -> ClosedRange<Int>? {
        func bounded(_ text: String) -> ClosedRange<Int>? {
            value(text).flatMap { abs($0.lowerBound) < unbounded && abs($0.upperBound) < unbounded ? $0 : nil }
        }
        if let dots = text.firstRange(of: "..") {
            let (low, high) = (String(text[..<dots.lowerBound]), String(text[dots.upperBound...]))
            guard let lower = low == "*" ? -unbounded : bounded(low)?.lowerBound,
                let upper = high == "*" ? unbounded : bounded(high)?.upperBound, lower <= upper
            else { return nil }
            return lower...upper
        }
        let forms: [(String, (ClosedRange<Int>) -> ClosedRange<Int>)] = [
            (">=", { $0.lowerBound...unbounded }), ("<=", { -unbounded...$0.upperBound }),
            (">", { ($0.upperBound + 1)...unbounded }), ("<", { -unbounded...($0.lowerBound - 1) }),
        ]
        for (prefix, range) in forms where text.hasPrefix(prefix) {
            return bounded(String(text.dropFirst(prefix.count))).map(range)
        }
        return bounded(text)
    }

    package static func span(_ text: String) -> ClosedRange<Int>? {
        let bytes = Array(text.utf8)
        switch bytes.count {
        case 10:
            return UTCTimestamp.epochSeconds(iso8601: text).map { $0...($0 + 86_399) }
        case 19, 20:
            return UTCTimestamp.epochSeconds(iso8601: bytes.count == 19 ? text + "Z" : text).map { $0...$0 }
        case 25:
            // `+HH:MM` or `-HH:MM`: the local time is that far ahead of (or behind) UTC.
            let sign = bytes[19]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), bytes[22] == UInt8(ascii: ":"),
                let hours = Int(String(decoding: bytes[20..<22], as: UTF8.self)),
                let minutes = Int(String(decoding: bytes[23..<25], as: UTF8.self)), hours < 24, minutes < 60,
                bytes[20..<25].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }),
                let local = UTCTimestamp.epochSeconds(iso8601: String(decoding: bytes[0..<19], as: UTF8.self) + "Z")
            else { return nil }
            let offset = (hours * 3_600 + minutes * 60) * (sign == UInt8(ascii: "+") ? 1 : -1)
            return (local - offset)...(local - offset)
        default:
            return nil
        }
    }
}
