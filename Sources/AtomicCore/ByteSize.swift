import Foundation

/// A size as a setting gives it (`GH_USERS_CACHE_SIZE`, `GH_USERS_MAX_RESPONSE_BYTES`), read one way for all of
/// them, as GNU's tools read sizes: a number of bytes, or with `K`, `M`, `G` or `KiB`, `MiB`, `GiB` (1,024s:
/// `64M` is 64 MiB) or `KB`, `MB`, `GB` (1,000s), in any case, with a space before the unit or none; a
/// fraction where the result is whole bytes (`1.5MB`). Nil for anything else, 0, or past `Int64`.
package enum ByteSize {
    package static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        guard let number = Double(digits), number.isFinite, number > 0,
            let multiplier = multipliers[unit]
        else { return nil }
        let bytes = number * multiplier
        guard bytes >= 1, bytes < Double(Int64.max), bytes == bytes.rounded() else { return nil }
        return Int64(bytes)
    }

    private static let multipliers: [String: Double] = [
        "": 1, "b": 1,
        "k": 1_024, "kib": 1_024, "m": 1_048_576, "mib": 1_048_576, "g": 1_073_741_824, "gib": 1_073_741_824,
        "kb": 1e3, "mb": 1e6, "gb": 1e9,
    ]
}
