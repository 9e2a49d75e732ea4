import Domain
import Foundation
import Networking

/// When GitHub says the token expires: a token with an expiry date (a fine-grained one, or a classic one made
/// with one) has it in every answer's `github-authentication-token-expiration`, as `2021-10-22 18:28:46 UTC`
/// (github3.py's `error-404-not-found-gzip` cassette, 2021).
enum TokenExpiry {
    /// Why a 401 refused the token, where its answer says the token's date had passed by GitHub's clock (its
    /// `Date`, else this machine's) a minute before: `.expired`, which the message names; `.unstated` otherwise, a
    /// token revoked or never good. The minute: a fine-grained token's header has been seen to give the time of the
    /// answer itself (google/go-github#3708), which would call every revoked one expired.
    static func problem(_ response: HTTPResponse, now: Date = Date()) -> AccessProblem {
        guard let expiry = date(response.headers["github-authentication-token-expiration"]) else { return .unstated }
        let clock = response.headers["Date"].flatMap { HTTPDate.parse($0, now: now) } ?? now
        return expiry.addingTimeInterval(60) <= clock ? .expired(at: expiry) : .unstated
    }

    /// `2021-10-22 18:28:46 UTC`, or with the zone's offset (`2025-09-05 17:55:53 +0500`, which google/go-github#2650
    /// found in logs too), exactly: four digits, then two each, at their places, for a moment that is (no 31
    /// February, no second 60); nil for anything else.
    static func date(_ text: String?) -> Date? {
        guard let text else { return nil }
        let all = Array(text.utf8)
        guard all.count == 23 || all.count == 25, let offset = offset(all[19...]) else { return nil }
        let bytes = Array(all[..<19])
        let separators: [Int: UInt8] = [4: 0x2D, 7: 0x2D, 10: 0x20, 13: 0x3A, 16: 0x3A]
        guard
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
        return back == wanted ? date.addingTimeInterval(-offset) : nil
    }

    /// ` UTC` as 0, and ` +0500` or ` -0330` as seconds east of UTC; nil for anything else.
    private static func offset(_ zone: ArraySlice<UInt8>) -> TimeInterval? {
        if zone.elementsEqual(" UTC".utf8) { return 0 }
        let bytes = Array(zone)
        guard bytes.count == 6, bytes[0] == 0x20, bytes[1] == 0x2B || bytes[1] == 0x2D,
            bytes[2...].allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        let digits = bytes[2...].map { Int($0 - 0x30) }
        let (hours, minutes) = (digits[0] * 10 + digits[1], digits[2] * 10 + digits[3])
        guard hours < 24, minutes < 60 else { return nil }
        return TimeInterval((bytes[1] == 0x2B ? 1 : -1) * (hours * 3600 + minutes * 60))
    }
}
