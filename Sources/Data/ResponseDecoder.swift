import AtomicCore
import Domain
import Foundation
import JSONBytes
import Networking

/// Decodes bodies into entities, keeping each object's exact bytes for JSON output. A list answered
/// `204 No Content` is an empty page that says so (`Page.noContent`), never a malformed body.
enum ResponseDecoder {
    /// A body's first byte past JSON's blanks (RFC 8259's space, tab, line feed and carriage return): what the
    /// value opens with. Nil for a body of blanks alone.
    static func firstByte(_ body: some Collection<UInt8>) -> UInt8? {
        body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    /// A GraphQL answer, which is one object: a byte-order mark or UTF-16, which Foundation's decoder takes, is
    /// not GitHub's (NETWORK.md: exit 1), as REST's readers refuse it. A web page is said as one, as REST says it
    /// (helper-320: "expected '{'" named no API URL to check).
    static func refuseUnlessObject(_ response: HTTPResponse, endpoint: String) throws(DomainError) {
        guard firstByte(response.body) != UInt8(ascii: "{") else { return }
        if let page = webPage(response, endpoint: endpoint) { throw page }
        throw .malformedResponse(endpoint: endpoint, detail: "the body is not valid JSON: expected '{' at its start")
    }

    /// A read's answer that is a web page, which GitHub's REST API never sends (its 404s are JSON too): the web
    /// server of an Enterprise host given as the API URL without `/api/v3`, or the sign-in page it redirected to.
    /// A write takes its 404 alone (its success says the change may be made); GraphQL takes a success's page
    /// (`refuseUnlessObject`), and its 404 where the path shows a web server's (`ErrorMapping.graphQLError`).
    static func webPage(_ response: HTTPResponse, endpoint: String) -> DomainError? {
        let html = response.headers["Content-Type"]?.lowercased().hasPrefix("text/html") == true
        let first = firstByte(response.body)
        // A 404 that is no JSON at all is a web server's too (Go's "404 page not found" in text/plain, which was
        // said as no such user: helper-287); GitHub's 404s are JSON, or empty.
        let notJSON = first.map { ![UInt8(ascii: "{"), UInt8(ascii: "[")].contains($0) } ?? false
        let page = (200..<300).contains(response.status) && first == UInt8(ascii: "<")
        guard response.status == 404 ? html || notJSON : page else { return nil }
        return .malformedResponse(
            endpoint: endpoint,
            detail: DomainError.webPageDetail + " (HTTP \(response.status)), not GitHub's API: check the API URL "
                + "(--api-url or GH_USERS_API_URL); GitHub Enterprise Server's is https://HOST/api/v3, and a "
                + "ghe.com one's https://api.TENANT.ghe.com, which GH_HOST=HOST sets")
    }

    /// A page that is a JSON array of `DTO`s, each entity keeping its element's exact bytes.
    static func list<DTO: Decodable & Sendable, Entity: Sendable>(
        of type: DTO.Type,
        map: @escaping @Sendable (DTO, RawJSON) -> Entity
    ) -> @Sendable (ResourceBody) throws(DomainError) -> Page<Entity> {
        { body throws(DomainError) in
            if body.noContent { return .noContent }
            var page = Page(
                items: try items(bytes: body.bytes, endpoint: body.label, as: DTO.self, map: map), next: body.next)
            page.bodyBytes = body.bytes.count
            return page
        }
    }

    /// A page of records that need no typed field: each element's bytes, and its numeric `id` when it has one.
    @Sendable static func records(_ body: ResourceBody) throws(DomainError) -> Page<Record> {
        if body.noContent { return .noContent }
        try refuseOversizedItems(body.bytes, endpoint: body.label)
        let elements = try elements(body.bytes, endpoint: body.label)
        // Every record is an object, as every account of a list is: a null, a number or an array is no record.
        for (index, range) in elements.enumerated() where body.bytes[range.lowerBound] != UInt8(ascii: "{") {
            throw .malformedResponse(
                endpoint: body.label, detail: "item \(index + 1) is \(kind(of: body.bytes[range])), not an object")
        }
        let records = try elements.enumerated().map { index, range throws(DomainError) -> Record in
            let raw = Array(body.bytes[range])
            // As a decoded list's items are (`items`): jq and `--fields` keep the last, a table the same.
            try refuseRepeatedKey(raw, endpoint: body.label, item: index + 1)
            return Record(id: recordID(raw), raw: RawJSON(bytes: raw))
        }
        var page = Page(items: records, next: body.next)
        page.bodyBytes = body.bytes.count
        return page
    }

    /// A body past this size is decoded one element at a time. Decoded whole, JSONDecoder's view of every element
    /// and every DTO exist at once beside the entities, and the body cap is per page: four 63 MB pages of
    /// GitHub's collaborators peaked at 546-675 MiB decoded whole, 427-453 MiB one by one (issue 38,
    /// docs/PERFORMANCE.md). GitHub's pages (about 130 KB) are decoded whole, as fast as before.
    static let oneByOneBytes = 4 << 20

    static func items<DTO: Decodable, Entity>(
        bytes: [UInt8],
        endpoint: String,
        as type: DTO.Type,
        oneByOneFrom threshold: Int = oneByOneBytes,
        scanning: Bool = true,
        map: (DTO, RawJSON) -> Entity
    ) throws(DomainError) -> [Entity] {
        try refuseOversizedItems(bytes, endpoint: endpoint)
        if scanning, let entities = scannedItems(bytes: bytes, as: type, map: map) { return entities }
        if bytes.count > threshold { return try itemsOneByOne(bytes: bytes, endpoint: endpoint, as: type, map: map) }
        let dtos: [DTO]
        do {
            dtos = try JSONDecoder().decode([DTO].self, from: Foundation.Data(bytes))
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: describe(error, in: bytes))
        }
        let ranges = try elements(bytes, endpoint: endpoint)
        guard ranges.count == dtos.count else {
            throw .malformedResponse(endpoint: endpoint, detail: "the array could not be split into its elements")
        }
        var entities: [Entity] = []
        entities.reserveCapacity(ranges.count)
        for (index, (dto, range)) in zip(dtos, ranges).enumerated() {
            let raw = Array(bytes[range])
            try refuseRepeatedKey(raw, endpoint: endpoint, item: index + 1)
            entities.append(map(dto, RawJSON(bytes: raw)))
        }
        return entities
    }

    /// `items` read in one pass each (`ScannedDTO`), mapped one by one; nil when the DTO has no such reader or
    /// any element needs Foundation's decoder, which then reads the page (and words what is wrong with it).
    static func scannedItems<DTO, Entity>(bytes: [UInt8], as type: DTO.Type, map: (DTO, RawJSON) -> Entity)
        -> [Entity]?
    {
        guard let scanned = type as? any ScannedDTO.Type, let ranges = JSONText.strictArrayElements(bytes) else {
            return nil
        }
        var entities: [Entity] = []
        entities.reserveCapacity(ranges.count)
        for range in ranges {
            guard let dto = scanned.init(scanning: bytes, in: range) as? DTO else { return nil }
            entities.append(map(dto, RawJSON(bytes: Array(bytes[range]))))
        }
        return entities
    }

    /// `items`, each element decoded and mapped before the next, so only one DTO exists at a time.
    private static func itemsOneByOne<DTO: Decodable, Entity>(
        bytes: [UInt8], endpoint: String, as type: DTO.Type, map: (DTO, RawJSON) -> Entity
    ) throws(DomainError) -> [Entity] {
        let ranges = try elements(bytes, endpoint: endpoint)
        let decoder = JSONDecoder()
        var entities: [Entity] = []
        entities.reserveCapacity(ranges.count)
        for (index, range) in ranges.enumerated() {
            let raw = Array(bytes[range])
            let dto: DTO
            do {
                dto = try decoder.decode(DTO.self, from: Foundation.Data(raw))
            } catch {
                throw .malformedResponse(endpoint: endpoint, detail: "item \(index + 1): " + describe(error, in: raw))
            }
            try refuseRepeatedKey(raw, endpoint: endpoint, item: index + 1)
            entities.append(map(dto, RawJSON(bytes: raw)))
        }
        return entities
    }

    private static func elements(_ bytes: [UInt8], endpoint: String) throws(DomainError) -> [Range<Int>] {
        do {
            return try JSONText.arrayElements(bytes)
        } catch {
            throw .malformedResponse(
                endpoint: endpoint, detail: shape(of: bytes, "[", "not a list", else: error.reason))
        }
    }

    /// What is wrong with a body that should open with `opening`: another JSON value there is `other` ("not a
    /// list"), as the decoding of a whole page words it; else `reason`, the reader's own words.
    private static func shape(of bytes: [UInt8], _ opening: Character, _ other: String, else reason: String) -> String {
        // A byte order mark, which JSON forbids (RFC 8259, 8.1), said as such: "not an object" of `\u{feff}{…}` read
        // as a body of something else (helper-367).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return "it begins with a byte order mark, which JSON forbids" }
        guard let first = firstByte(bytes), first != opening.asciiValue else { return reason }
        return other
    }

    /// A search envelope: its items keep their exact bytes, `score` included.
    @Sendable static func search(_ body: ResourceBody) throws(DomainError) -> Page<User> {
        if body.noContent { return .noContent }
        let endpoint = body.label
        let envelope: UserSearchDTO
        do {
            envelope = try JSONDecoder().decode(UserSearchDTO.self, from: Foundation.Data(body.bytes))
        } catch {
            throw .malformedResponse(endpoint: endpoint, detail: describe(error, in: body.bytes))
        }
        // A count of results is 0 or more: "Showing 1 account of -5" would be a made-up count.
        guard envelope.totalCount >= 0 else {
            throw .malformedResponse(endpoint: endpoint, detail: "total_count \(envelope.totalCount) is not a count")
        }
        let bytes = body.bytes
        let members: [String: Range<Int>]
        do {
            members = try JSONText.objectMembers(bytes)
        } catch {
            throw .malformedResponse(
                endpoint: endpoint, detail: shape(of: bytes, "{", "not an object", else: error.reason))
        }
        try refuseRepeatedKey(bytes, endpoint: endpoint)
        guard let itemsRange = members["items"] else {
            throw .malformedResponse(endpoint: endpoint, detail: "a required field 'items' is missing")
        }
        let users = try items(bytes: Array(bytes[itemsRange]), endpoint: endpoint, as: UserDTO.self) {
            $0.toDomain(raw: $1)
        }
        guard users.count == envelope.items.count else {
            throw .malformedResponse(endpoint: endpoint, detail: "the items could not be split")
        }
        var page = Page(
            items: users,
            next: body.next,
            totalCount: envelope.totalCount,
            incompleteResults: envelope.incompleteResults ?? false
        )
        page.bodyBytes = bytes.count
        page.answeredAt = body.headers["date"].flatMap { HTTPDate.parse($0) }
        return page
    }

    /// The buckets in a stable order: core, search, then the rest by name. A count or reset out of range
    /// (`RateLimitDTO.Bucket.bucket(named:)`) makes the answer malformed.
    static func rateLimits(_ body: ResourceBody) throws(DomainError) -> RateLimitOverview {
        let raw = try object(body)
        let dto: RateLimitDTO
        do {
            dto = try JSONDecoder().decode(RateLimitDTO.self, from: Foundation.Data(body.bytes))
        } catch {
            throw .malformedResponse(endpoint: body.label, detail: describe(error, in: body.bytes))
        }
        let first = ["core", "search"]
        let names = dto.resources.keys.sorted { lhs, rhs in
            let left = first.firstIndex(of: lhs) ?? first.count
            let right = first.firstIndex(of: rhs) ?? first.count
            return left == right ? lhs < rhs : left < right
        }
        var buckets: [RateLimitBucket] = []
        for name in names {
            guard let bucket = dto.resources[name] else { continue }
            buckets.append(try bucket.bucket(named: name, endpoint: body.label))
        }
        var overview = RateLimitOverview(buckets: buckets, raw: RawJSON(bytes: raw))
        // Resets are GitHub's times: a table shows them on this clock, as the waits take them.
        overview.answeredAt = body.headers["date"].flatMap { HTTPDate.parse($0) }
        return overview
    }

    /// `{"contexts": [{"message", "octicon"}]}`, kept as sent (compacted) once it is found to be that shape.
    @Sendable static func hovercard(_ body: ResourceBody) throws(DomainError) -> Record {
        let raw = try object(body)
        do {
            _ = try JSONDecoder().decode(HovercardDTO.self, from: Foundation.Data(body.bytes))
        } catch {
            throw .malformedResponse(endpoint: body.label, detail: describe(error, in: body.bytes))
        }
        return Record(id: nil, raw: RawJSON(bytes: raw))
    }

    static func user(_ body: ResourceBody) throws(DomainError) -> User {
        let raw = try object(body)
        do {
            let dto = try JSONDecoder().decode(UserDTO.self, from: Foundation.Data(body.bytes))
            return dto.toDomain(raw: RawJSON(bytes: raw))
        } catch {
            throw .malformedResponse(endpoint: body.label, detail: describe(error, in: body.bytes))
        }
    }

    /// A single object's bytes as kept for output (compacted), once they are held to what a list page is held to
    /// (`JSONText.arrayElements`): UTF-8 JSON whose first byte past whitespace opens it. Foundation's decoder,
    /// which checks the object's shape after this, skips a byte order mark and reads UTF-16, and the bytes kept
    /// are the body's own, so without this `--json` printed a BOM or NUL bytes. With `{` first and a key, `}` or
    /// whitespace second, the decoder reads the rest as UTF-8 and refuses what is not.
    private static func object(_ body: ResourceBody) throws(DomainError) -> [UInt8] {
        try refuseOversizedObject(body)
        do {
            _ = try JSONText.objectMembers(body.bytes)
        } catch {
            throw .malformedResponse(
                endpoint: body.label, detail: shape(of: body.bytes, "{", "not an object", else: error.reason))
        }
        try refuseRepeatedKey(body.bytes, endpoint: body.label)
        var raw: [UInt8] = []
        JSONText.compact(body.bytes, into: &raw)
        return raw
    }

    /// An object that gives a key twice says two things: Foundation's decoder, and so the table, keeps the first
    /// value, where jq, `--fields` and a JSON reader downstream keep the last. It is malformed (exit 1). The list
    /// pages read in one pass (`ScannedDTO`) hand such an element to Foundation's decoder, which comes here; so does
    /// every GraphQL answer with a success status, whole, before its reader decodes it (`GitHubRepository.graphQL`).
    static func refuseRepeatedKey(_ object: [UInt8], endpoint: String, item: Int? = nil)
        throws(DomainError)
    {
        guard let key = JSONText.repeatedKey(in: object) else { return }
        // The key is the server's text: named only when it is short and plain.
        let named = TerminalSanitizer.isPlainWord(key) ? "the key '\(key)'" : "a key"
        throw .malformedResponse(
            endpoint: endpoint, detail: (item.map { "item \($0): " } ?? "") + named + " is given twice")
    }

    /// What a JSON value is, in words: "null", "a number", "an array".
    private static func kind(of value: ArraySlice<UInt8>) -> String {
        switch value.first {
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "["): return "an array"
        default: return "a number"
        }
    }

    /// The counts and ids GitHub sends as whole numbers, by key: what a number that does not fit was.
    private static let wholeNumberKeys = ["id", "public_repos", "public_gists", "followers", "following"]

    /// A decoding error in words. Foundation on Linux calls a count of 1.5 "not valid JSON" with no key, so when
    /// the body is valid JSON, the first count that is not a whole number is named, in the object or its items.
    /// Foundation cannot read a number beyond a Double (`1e400`) either: valid JSON all the same (RFC 8259 sets no
    /// limit), which `JSONText.flaw` tells apart.
    private static func describe(_ error: any Error, in bytes: [UInt8]) -> String {
        guard case DecodingError.dataCorrupted = error,
            (try? JSONSerialization.jsonObject(with: Foundation.Data(bytes), options: .fragmentsAllowed)) != nil
                || JSONText.flaw(in: bytes, deeperThan: JSONText.maximumDepth) == nil
        else { return describe(error) }
        var objects = [bytes]
        if let items = JSONText.value(at: ["items"], in: bytes) { objects.append(items) }
        objects += objects.flatMap { array in
            ((try? JSONText.arrayElements(array)) ?? []).map { Array(array[$0]) }
        }
        for object in objects {
            guard let members = try? JSONText.objectMembers(object) else { continue }
            for key in wholeNumberKeys {
                guard let range = members[key], object[range.lowerBound] != UInt8(ascii: "n") else { continue }
                let value = String(decoding: object[range], as: UTF8.self)
                guard Int64(value) == nil else { continue }
                return "\(key) is \(value.count > 40 ? value.prefix(40) + "…" : value), "
                    + (Self.isWhole(value) ? "beyond what a 64-bit whole number holds" : "not a whole number")
            }
        }
        return "a value does not fit its field"
    }

    /// Whether a JSON number is written as a whole one: no fraction (`123`), or an exponent that leaves none
    /// (`1e400`, `1.5e400`).
    private static func isWhole(_ number: String) -> Bool {
        let parts = number.split(omittingEmptySubsequences: false) { $0 == "e" || $0 == "E" }
        let exponent = parts.count > 1 ? Int(parts[1]) ?? Int.max : 0
        let fraction = parts[0].split(separator: ".").dropFirst().first?.count ?? 0
        return exponent >= fraction
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _):
            return "a required field '\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(let type, let context), DecodingError.valueNotFound(let type, let context):
            // A list's element by its place from 1 (`item 11`), as messages count; a key by its name.
            let path = context.codingPath.map { key in key.intValue.map { "item \($0 + 1)" } ?? key.stringValue }
            guard let last = path.last else {
                return String(describing: type).hasPrefix("Array") ? "not a list" : "not an object"
            }
            if path.count == 1, context.codingPath[0].intValue != nil {
                return "\(last) of the list is not what GitHub documents here"
            }
            return "a field has the wrong type at '\(path.joined(separator: "."))'"
        case DecodingError.dataCorrupted:
            return "the body is not valid JSON"
        default:
            return "the body could not be read"
        }
    }
}

/// The shape `GET /users/{username}/hovercard` documents; only checked, the bytes are what is kept.
private struct HovercardDTO: Decodable {
    struct Context: Decodable {
        let message: String
        let octicon: String
    }

    let contexts: [Context]
}
