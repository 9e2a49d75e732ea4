import Domain
import Foundation
import Networking

/// When GitHub says the token expires: a token with an expiry date (a fine-grained one, or a classic one made
/// with one) has it in every answer's `github-authentication-token-expiration`, as `2021-10-22 18:28:46 UTC`
/// (github3.py's `error-404-not-found-gzip` cassette, 2021).
enum TokenExpiry {
    /// Why a 401 refused the token, where its answer says the token's date had passed by GitHub's clock (its
    /// `Date`, else this machine's): `.expired`, which the message names; `.unstated` otherwise, a token revoked or
    /// never good.
    static func problem(_ response: HTTPResponse, now: Date = Date()) -> AccessProblem {
        guard let expiry = date(response.headers["github-authentication-token-expiration"]) else { return .unstated }
        let clock = response.headers["Date"].flatMap { HTTPDate.parse($0, now: now) } ?? now
        return expiry <= clock ? .expired(at: expiry) : .unstated
    }

    /// `2021-10-22 18:28:46 UTC`, exactly; nil for anything else.
    static func date(_ text: String?) -> Date? {
        guard let text, text.utf8.count == 23, text.hasSuffix(" UTC") else { return nil }
        let fields = text.dropLast(4).split(whereSeparator: { "-: ".contains($0) })
        let numbers = fields.compactMap { field in field.allSatisfy(\.isASCII) ? Int(field) : nil }
        guard fields.count == 6, numbers.count == 6, (1...12).contains(numbers[1]), (1...31).contains(numbers[2]),
            numbers[3] < 24, numbers[4] < 60, numbers[5] < 61
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.date(
            from: DateComponents(
                year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4],
                second: numbers[5]))
    }
}
