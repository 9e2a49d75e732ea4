/// GitHub's answer to a GraphQL query that ran out of time, as users recorded it: status 200 (or 502) and
/// `"data": null` beside one error with no `type` and no `path`. The body is the one quoted in
/// gayanvoice/top-github-users issue #107 (2023-01-03); the same message came with a 502 in
/// anuraghazra/github-readme-stats issue #1772, and with " on DATE" after "your query" in dtolnay/star-history
/// pull request #30 (2025-03-25).
package enum GraphQLTimeoutBodies {
    package static let recorded =
        #"{"data":null,"errors":[{"message":"Something went wrong while executing your query. This may be the "#
        + #"result of a timeout, or it could be a GitHub bug. Please include `D3C2:1AFB:7226D1:76338B:63A2690D` "#
        + #"when reporting this issue."}]}"#
    package static let dated =
        #"{"data":null,"errors":[{"message":"Something went wrong while executing your query on "#
        + #"2025-03-25T04:48:34+00:00. This may be the result of a timeout, or it could be a GitHub bug. Please "#
        + #"include `8D8C:2CAA82:1F7EDE5:207AE41:67E23597` when reporting this issue."}]}"#
}
