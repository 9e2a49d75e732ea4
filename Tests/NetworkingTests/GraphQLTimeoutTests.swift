import Foundation
import TestSupport
import Testing

@testable import Networking

/// What `GraphQLTimeout` takes for GitHub's answer to a query that ran out of time (mutation round 9's M9-23 and
/// M9-25 went unseen: every body tested held both of GitHub's phrases, and was about 250 bytes).
struct GraphQLTimeoutTests {
    /// GitHub's words without the timeout's sentence, as octokit/graphql-action issue #110 quotes them
    /// (2021-12-29): still the timeout, asked again smaller, not a failure of the run.
    @Test func eitherOfGitHubsSentencesIsTheTimeout() {
        let untimed =
            "Something went wrong while executing your query. Please include `0781:5AD4:240C07:892C2B:61CC49CB` "
            + "when reporting this issue."
        #expect(GraphQLTimeout.isTimeout(message: untimed, type: nil, hasPath: false))
        #expect(GraphQLTimeout.isTimeout(message: "This may be the result of a timeout.", type: nil, hasPath: false))
        #expect(!GraphQLTimeout.isTimeout(message: "Could not resolve to a User.", type: nil, hasPath: false))
    }

    /// A body up to 4 KiB is read for it, whatever spaces pad it; a longer one is taken for a page of data.
    @Test func aPaddedAnswerUpToFourKibibytesIsTheTimeout() {
        let body = GraphQLTimeoutBodies.recorded
        let padded = { (size: Int) in
            Data((body.dropLast() + String(repeating: " ", count: size - body.utf8.count) + "}").utf8)
        }
        #expect(padded(2_048).count == 2_048 && GraphQLTimeout.isTimeoutAnswer(padded(2_048)))
        #expect(GraphQLTimeout.isTimeoutAnswer(padded(4_096)))
        #expect(!GraphQLTimeout.isTimeoutAnswer(padded(4_097)))
    }
}
