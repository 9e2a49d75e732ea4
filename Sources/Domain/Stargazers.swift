/// One page of a repository's stargazers read through GraphQL (`Repository.stargazers`, oldest star first):
/// each record the REST star media type's `{"starred_at", "user"}`, keyed by the user's id.
package struct StargazerPage: Sendable {
    /// The page's stargazers but those left out.
    package let records: [Record]
    /// How many stargazers the page held, those left out included.
    package let read: Int
    /// The connection's `totalCount`.
    package let totalCount: Int
    /// Where the next page starts; nil on the last page.
    package let endCursor: String?

    package init(records: [Record], read: Int, totalCount: Int, endCursor: String?) {
        self.records = records
        self.read = read
        self.totalCount = totalCount
        self.endCursor = endCursor
    }
}
