import Foundation
import Testing

@testable import AtomicCore

#if canImport(Glibc)
    import Glibc
#endif

/// The zone a local time names: the C library's abbreviation, or the offset where that would mislead.
struct LocalTimeTests {
    private func zone(_ name: String?, offset: Int) -> String {
        var parts = tm()
        parts.tm_gmtoff = offset
        guard let name else { return LocalTime.zoneName(parts) }
        return name.withCString { pointer in
            parts.tm_zone = pointer
            return LocalTime.zoneName(parts)
        }
    }

    @Test func aZoneIsNamedByItsAbbreviationOrItsOffset() {
        #expect(zone("CET", offset: 3_600) == "CET")
        #expect(zone("+05", offset: 18_000) == "+05")
        #expect(zone("UTC", offset: 0) == "UTC")
        // TZ=UTC+5 is POSIX for five hours behind UTC, and the C library still calls it "UTC".
        #expect(zone("UTC", offset: -18_000) == "UTC-5")
        #expect(zone("GMT", offset: 19_800) == "UTC+5:30")
        #expect(zone(nil, offset: 20_700) == "UTC+5:45")
        #expect(zone("", offset: -12_600) == "UTC-3:30")
        // Never a terminal's escape from a zone's name.
        #expect(zone("A\u{1B}[2J", offset: 3_600) == "UTC+1")
        #expect(zone("Zürich", offset: 3_600) == "UTC+1")
        // A zone the C library could not find is UTC under the name's first letters (helper-313).
        #expect(zone("America", offset: 0) == "UTC")
        #expect(zone("Nowhere", offset: 0) == "UTC")
        #expect(zone("", offset: 0) == "UTC")
        for name in ["GMT", "WET", "+00"] { #expect(zone(name, offset: 0) == name) }
    }

    @Test func aTimeIsASCIIOnATwentyFourHourClock() {
        let moment = Date(timeIntervalSince1970: 1_900_000_000)
        let text = LocalTime.text(moment, date: true)
        #expect(text.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(text.wholeMatch(of: /2030-03-1[78] \d\d:\d\d:40 [A-Za-z0-9+:-]+/) != nil, "\(text)")
        #expect(LocalTime.text(moment, zone: false).wholeMatch(of: /\d\d:\d\d:40/) != nil)
        #expect(LocalTime.isSameDay(moment, moment.addingTimeInterval(1)) || LocalTime.isSameDay(moment, moment - 1))
        #expect(!LocalTime.isSameDay(moment, moment.addingTimeInterval(86_400)))
        // The same day of another month is another day: a reset 28 days or more away lost its date when the day
        // of the month was compared (helper-339's M7-12). 31 and 365 days on, at the same clock time.
        #expect(!LocalTime.isSameDay(moment, moment.addingTimeInterval(31 * 86_400)))
        #expect(!LocalTime.isSameDay(moment, moment.addingTimeInterval(365 * 86_400)))
    }

    /// A date past what time_t holds (a forged cache entry's) or none at all is said without trapping.
    @Test(arguments: [1e300, -1e300, .infinity, .nan])
    func aMomentPastTheClocksRangeIsStillSaid(seconds: Double) {
        let moment = Date(timeIntervalSince1970: seconds)
        #expect(!LocalTime.text(moment, date: true).isEmpty)
        #expect(!LocalTime.isSameDay(moment, Date()))
    }
}
