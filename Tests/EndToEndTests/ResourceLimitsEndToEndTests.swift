import Foundation
import GitHubStandIn
import Testing

/// `ulimit` below what a run needs ends it with one line and exit 1 before anything starts. Before, libdispatch
/// waited forever for a thread it could not start (`ulimit -v 250000`: no output, and SIGTERM never ended it) and
/// a pipe or a socket that could not be opened trapped (`ulimit -n 8`: SIGILL, exit 132, nothing said); both
/// were a review's finds. A soft limit of open files below the need is raised toward the hard one, and the run
/// goes on.
struct ResourceLimitsEndToEndTests {
    @Test(arguments: [
        (
            "ulimit -n 8",
            "gh-users: it needs at least 64 open files, and its limit is 8 (ulimit -n); nothing was done\n"
        ),
        (
            "ulimit -v 250000",
            "gh-users: it needs at least 384 MiB of address space, and its limit is 244 MiB (ulimit -v 250000); "
                + "nothing was done\n"
        ),
    ])
    func aLimitBelowTheNeedIsSaidAndNothingIsDone(limit: String, message: String) async throws {
        try await withStandIn(users: 20) { server in
            let result = try await BinaryRunner.shell(
                limit + #"; "$GH_USERS" show octocat --api-url "$API" --no-cache"#,
                environment: ["API": server.baseURL, "GH_TOKEN": StandInTokens.token(for: "octocat")])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == message)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func aLowSoftLimitOfOpenFilesIsRaisedAndTheRunGoesOn() async throws {
        try await withStandIn(users: 20) { server in
            let result = try await BinaryRunner.shell(
                #"ulimit -S -n 8; "$GH_USERS" show octocat --api-url "$API" --no-cache --format tsv"#,
                environment: ["API": server.baseURL, "GH_TOKEN": StandInTokens.token(for: "octocat")])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("octocat\t1\t"), "\(result.stdout)")
        }
    }
}
