import Foundation

/// JSON that gh-users writes of its own (not GitHub's bytes) is made by an encoder, never by string building,
/// so any text in it is escaped correctly. Keys keep the order the type encodes them in.
enum JSONEncoding {
    static func bytes(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Encoding plain structs of strings and numbers cannot fail.
        return Array((try? encoder.encode(value)) ?? Foundation.Data("{}".utf8))
    }
}
