import Domain
import JSONBytes

/// How much of an answer is read: reading JSON costs many times its bytes, so an answer far past what GitHub sends
/// is refused before it is read, long before the transport's body cap (`GH_USERS_MAX_RESPONSE_BYTES`, per page).
extension ResponseDecoder {
    /// The most one object (an account, a hovercard, the rate limits) may hold: GitHub's are a few kilobytes, and
    /// reading one costs many times its bytes (a 56 MiB object of four million small keys took 866 MB, ten at once
    /// 2.2 GB), so a bigger one is read as no GitHub answer, long before the body cap.
    static let maximumObjectBytes = 1 << 20

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
}
