import Domain

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

    /// One object past `maximumObjectBytes` is malformed, and is not read.
    static func refuseOversizedObject(_ body: ResourceBody) throws(DomainError) {
        guard body.bytes.count > maximumObjectBytes else { return }
        throw .malformedResponse(
            endpoint: body.label,
            detail:
                "one object of \(body.bytes.count) bytes, where GitHub's are a few kilobytes (1 MiB at most is read)")
    }
}
