import Foundation

/// GitHub's answer to a GraphQL query that ran out of time: status 200 (or 502) and `"data": null` beside one
/// error with no `type` and no `path`, "Something went wrong while executing your query. This may be the result
/// of a timeout, or it could be a GitHub bug. …", as users recorded it (Tests/TestSupport/GraphQLTimeoutBodies.swift).
/// A batch that met it is asked again smaller (Data); a list's page, which cannot be, is asked again as it was,
/// as a 504 is.
package enum GraphQLTimeout {
    /// Whether one GraphQL error is the timeout: no type, no path, and GitHub's words.
    package static func isTimeout(message: String?, type: String?, hasPath: Bool) -> Bool {
        guard type == nil, !hasPath else { return false }
        let text = (message ?? "").lowercased()
        return text.contains("result of a timeout") || text.contains("something went wrong while executing your query")
    }

    /// Whether a 200's body is the timeout's whole answer: no data, and the timeout its only error. Only a short
    /// body with errors is decoded (the recorded ones are about 250 bytes), so a page of data, even a short last
    /// one, is never decoded twice.
    package static func isTimeoutAnswer(_ body: Foundation.Data) -> Bool {
        guard let errors = errorsOnly(body), errors.count == 1 else { return false }
        return isTimeout(message: errors[0].message, type: errors[0].type, hasPath: errors[0].path != nil)
    }

    /// The messages of a 200's body that is errors alone (no data), as `isTimeoutAnswer` reads one; nil for any
    /// other body.
    package static func errorsOnlyMessages(_ body: Foundation.Data) -> [String]? {
        errorsOnly(body).map { $0.map { $0.message ?? "" } }
    }

    /// The errors of a short body that has some and no data; nil for any other.
    private static func errorsOnly(_ body: Foundation.Data) -> [Answer.Error]? {
        guard body.count <= 4_096, body.range(of: Foundation.Data(#""errors""#.utf8)) != nil,
            let answer = try? JSONDecoder().decode(Answer.self, from: body), answer.data == nil,
            !answer.errors.isEmpty
        else { return nil }
        return answer.errors
    }

    private struct Answer: Decodable {
        struct Error: Decodable {
            let message: String?
            let type: String?
            let path: [PathPart]?
        }

        /// A path's element, a field's name or a list's index: only whether there is a path matters.
        struct PathPart: Decodable {
            init(from decoder: any Decoder) throws {}
        }

        /// Present and not null is data, whatever it holds.
        struct AnyData: Decodable {
            init(from decoder: any Decoder) throws {}
        }

        let data: AnyData?
        let errors: [Error]
    }
}
