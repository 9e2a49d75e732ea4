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

    /// `2021-10-22 18:28:46 UTC`, exactly: four digits, then two each, at their places, for a moment that is
    /// (no 31 February, no second 60); nil for anything else.
    static func date(_ text: String?) -> Date? {
        guard let text, text.hasSuffix(" UTC") else { return nil }
        let bytes = Array(text.utf8.dropLast(4))
        let separators: [Int: UInt8] = [4: 0x2D, 7: 0x2D, 10: 0x20, 13: 0x3A, 16: 0x3A]
        guard bytes.count == 19,
            bytes.indices.allSatisfy({ index in
                separators[index].map { bytes[index] == $0 } ?? (0x30...0x39).contains(bytes[index])
            })
        else { return nil }
        func number(_ range: Range<Int>) -> Int { bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        let wanted = DateComponents(
            year: number(0..<4), month: number(5..<7), day: number(8..<10), hour: number(11..<13),
            minute: number(14..<16), second: number(17..<19))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        guard wanted.year ?? 0 > 0, let date = calendar.date(from: wanted) else { return nil }
        let back = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return back == wanted ? date : nil
    }
}
