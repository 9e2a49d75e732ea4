import Domain
import Foundation
import Testing

@testable import Data

/// A page past `ResponseDecoder.oneByOneBytes` is decoded one element at a time, so JSONDecoder's view of the
/// whole page and every DTO never exist at once (issue 38: four 63 MB pages of collaborators peaked at
/// 546-675 MiB decoded whole, 427-453 MiB one by one). It must read exactly what the whole-page decoding reads.
struct LargePageDecodingTests {
    private static func page(_ count: Int, broken: Int? = nil) -> [UInt8] {
        let accounts = (1...count).map { id in
            id == broken
                ? #"{"login":"user\#(id)","id":"\#(id)","type":"User"}"#
                : #"{"login":"user\#(id)","id":\#(id),"type":"User","site_admin":false}"#
        }
        return Array(("[" + accounts.joined(separator: ",") + "]").utf8)
    }

    private static func users(_ bytes: [UInt8], oneByOneFrom threshold: Int) throws(DomainError) -> [User] {
        try ResponseDecoder.items(bytes: bytes, endpoint: "GET /users", as: UserDTO.self, oneByOneFrom: threshold) {
            $0.toDomain(raw: $1)
        }
    }

    @Test func oneByOneReadsWhatTheWholePageReads() throws {
        let bytes = Self.page(2_000)
        let whole = try Self.users(bytes, oneByOneFrom: .max)
        let oneByOne = try Self.users(bytes, oneByOneFrom: 0)
        #expect(whole.count == 2_000)
        #expect(oneByOne == whole)
        #expect(oneByOne.map(\.raw) == whole.map(\.raw))
    }

    /// An item past 1 MiB is refused before the page is read, as one object answered alone is: a review's
    /// account with a 50 MB bio took 203 MB, one of 4 million small keys 479 MB. An item of 1 MiB is read.
    @Test(arguments: [Int.max, 0])
    func anItemPastAMebibyteIsRefusedUnread(threshold: Int) throws {
        func page(bio: Int) -> [UInt8] {
            let item =
                #"{"login":"big","id":2,"type":"User","site_admin":false,"bio":"\#(String(repeating: "a", count: bio))"}"#
            return Array(#"[{"login":"a","id":1,"type":"User","site_admin":false},"#.utf8) + Array(item.utf8) + [0x5D]
        }
        let fits = (1 << 20) - #"{"login":"big","id":2,"type":"User","site_admin":false,"bio":""}"#.utf8.count
        #expect(try Self.users(page(bio: fits), oneByOneFrom: threshold).count == 2)
        #expect(
            throws: DomainError.malformedResponse(
                endpoint: "GET /users",
                detail: "item 2 is one object of 1048577 bytes, where GitHub's are a few kilobytes (1 MiB at most is "
                    + "read)")
        ) { try Self.users(page(bio: fits + 1), oneByOneFrom: threshold) }
    }

    @Test func aBrokenItemIsNamed() {
        do {
            _ = try Self.users(Self.page(50, broken: 17), oneByOneFrom: 0)
            Issue.record("a page with a broken item was read")
        } catch {
            guard case .malformedResponse(_, let detail, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(detail == "item 17: a field has the wrong type at 'id'", "\(detail)")
        }
    }

    /// What is wrong is said in the words messages use, never Swift's coding path (`Index 10`): a null in the
    /// list by its place from 1, a body that is not a list as such, whole or one by one.
    @Test(arguments: [Int.max, 0])
    func aNullItemAndABodyThatIsNoListAreSaidInWords(threshold: Int) {
        func detail(_ text: String) -> String {
            do {
                _ = try Self.users(Array(text.utf8), oneByOneFrom: threshold)
                return "read"
            } catch {
                guard case .malformedResponse(_, let detail, _) = error else { return "\(error)" }
                return detail
            }
        }
        let null = detail(#"[{"login":"a","id":1,"type":"User"},null]"#)
        #expect(null.contains("item 2") && !null.contains("Index"), "\(null)")
        for body in [#"{"login":"a","id":1}"#, "5", "true", #""text""#] {
            #expect(detail(body).hasSuffix("not a list"), "\(body): \(detail(body))")
        }
        // A byte order mark, which JSON forbids, is said as one (before: "not a list"; helper-367).
        let marked = detail("\u{FEFF}" + #"[{"login":"a","id":1,"type":"User"}]"#)
        #expect(marked == "it begins with a byte order mark, which JSON forbids", "\(marked)")
    }
}
