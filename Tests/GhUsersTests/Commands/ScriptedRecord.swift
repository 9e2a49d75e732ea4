import Domain
import Foundation

@testable import gh_users

/// A record for a fake GitHub to answer with: the JSON as given, with the id Data's decoder would read from it.
func record(_ json: String) -> Record {
    let bytes = Array(json.utf8)
    return Record(id: Int64(JSONTextProbe.id(bytes)), raw: RawJSON(bytes: bytes))
}

/// Reads `id` the way Data's decoder does, for scripted records.
private enum JSONTextProbe {
    static func id(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let range = text.range(of: #""id":(\d+)"#, options: .regularExpression) else { return "" }
        return String(text[range].dropFirst(5))
    }
}
