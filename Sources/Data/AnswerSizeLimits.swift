import Domain
import JSONBytes

/// How much of an answer is read: reading JSON costs many times its bytes, so an answer far past what GitHub sends
/// is refused before it is read, long before the transport's body cap (`GH_USERS_MAX_RESPONSE_BYTES`, per page).
extension ResponseDecoder {
    /// The most one object (an account, a hovercard, the rate limits) may hold: GitHub's are a few kilobytes, and
    /// reading one costs many times its bytes (a 56 MiB object of four million small keys took 866 MB, ten at once
    /// 2.2 GB), so a bigger one is read as no GitHub answer, long before the body cap.
    static let maximumObjectBytes = 1 << 20

    /// What an answer may hold, checked before it is read (`refuseMalformed`). Reading JSON costs about 80 bytes
    /// a value whatever its size: a page of 21 million `{}` under the body cap took 1.3 GB, and crashed under a
    /// 1 GB `ulimit -v` (helper-320). GitHub's largest pages (a hundred events, a hundred repositories of about 120
    /// values each) hold tens of thousands of values, and its widest objects and lists a hundred or so members.
    static let answerBounds = JSONText.Bounds(members: 10_000, values: 1_000_000)

    /// The most a GraphQL answer may hold: the largest gh-users asks for (a batch of ten repositories' hundred
    /// collaborators with their sources, a hundred profiles) are well under a mebibyte, and reading one costs many
    /// times its bytes (61 MB of small `errors` took 524 MB).
    static let maximumGraphQLAnswerBytes = 16 << 20

    /// A GraphQL answer past `maximumGraphQLAnswerBytes` is malformed, and is not read.
    static func refuseOversized(_ count: Int, endpoint: String) throws(DomainError) {
        guard count > maximumGraphQLAnswerBytes else { return }
        throw .malformedResponse(
            endpoint: endpoint,
            detail: "an answer of \(count) bytes, far past what gh-users's queries ask for (16 MiB at most is read)")
    }

    /// A list's item past `maximumObjectBytes` is malformed too, and the page is not read: an account of a list
    /// costs what one answered alone does (a review's 50 MB bio took 203 MB, 4 million small keys 479 MB). Only a
    /// page past that size can hold one; a page that does not split into items is left for the decoder to word.
    static func refuseOversizedItems(_ bytes: [UInt8], endpoint: String) throws(DomainError) {
        guard bytes.count > maximumObjectBytes, let items = try? JSONText.arrayElements(bytes) else { return }
        guard let index = items.firstIndex(where: { $0.count > maximumObjectBytes }) else { return }
        throw .malformedResponse(
            endpoint: endpoint,
            detail: "item \(index + 1) is one object of \(items[index].count) bytes, where GitHub's are a few "
                + "kilobytes (1 MiB at most is read)")
    }

    /// One object past `maximumObjectBytes` is malformed, and is not read.
    static func refuseOversizedObject(_ body: ResourceBody) throws(DomainError) {
        guard body.bytes.count > maximumObjectBytes else { return }
        throw .malformedResponse(
            endpoint: body.label,
            detail:
                "one object of \(body.bytes.count) bytes, where GitHub's are a few kilobytes (1 MiB at most is read)")
    }

    /// Every answer that opens as an object or an array, before it is read, whatever reads it: it must be JSON
    /// throughout, for its bytes are written as they came, where a decoder reads only the fields it maps (a raw
    /// control character in a field nothing decodes would reach `jq` as no JSON at all); and one nested deeper
    /// than `JSONText.maximumDepth` is no object GitHub has, and indented it would print the square of its depth.
    /// Another body (empty, an HTML page) is left to the reader, whose message says what it is, and so is any
    /// flaw but the depth in an answer that is not `whole` (a GraphQL error status, which its reader maps).
    static func refuseMalformed(_ body: some Collection<UInt8>, endpoint: String, whole: Bool = true)
        throws(DomainError)
    {
        let first = firstByte(body)
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let flaw = JSONText.flaw(in: body, deeperThan: JSONText.maximumDepth, within: answerBounds)
        else { return }
        switch flaw {
        case .tooDeep:
            throw .malformedResponse(
                endpoint: endpoint,
                detail: "the answer nests objects or arrays more than \(JSONText.maximumDepth) levels deep, "
                    + "where GitHub's are a few levels deep")
        case .tooWide:
            throw .malformedResponse(
                endpoint: endpoint,
                detail: "the answer holds a list or an object of more than \(answerBounds.members) members, where "
                    + "GitHub's hold a hundred or so")
        case .tooManyValues:
            throw .malformedResponse(
                endpoint: endpoint,
                detail: "the answer holds more than \(answerBounds.values) values, where GitHub's hold tens of "
                    + "thousands at most")
        case .notJSON(let offset, let reason):
            guard whole else { return }
            throw .malformedResponse(
                endpoint: endpoint, detail: "the body is not valid JSON: \(reason) at byte \(offset)")
        }
    }
}
