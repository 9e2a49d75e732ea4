import AtomicCore
import AtomicLogger
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func route(_ arguments: String) -> Route {
    CommandRouter().route(arguments.split(separator: " ").map(String.init))
}

private func environment(_ github: StubTransport, token: Bool, stderrTTY: Bool = false, stdin: String = "")
    -> (AppEnvironment, out: CapturedOutput, err: CapturedOutput)
{
    var (env, _, _) = AppEnvironment.test(http: github, environment: token ? ["GH_TOKEN": "t0k"] : [:])
    let (io, out, err) = IOStreams.test(stderrTTY: stderrTTY, stdin: stdin)
    env.io = io
    return (env, out, err)
}

private func run(_ arguments: String, _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments.split(separator: " ").map(String.init))
}

/// GitHub's GraphQL answer finding every account `(id, login)` asked for.
private func found(_ users: [(Int64, String)], cost: Int) -> String {
    graphQLProfiles(users.map { graphQLOwner($0.0, $0.1, name: $0.1, followers: 0) }, cost: cost, remaining: 4_000)
}

struct ProfileSourceRoutingTests {
    @Test func viaGraphQLIsParsedAndRESTIsTheDefault() throws {
        guard case .run(let invocation) = route("show octocat --via graphql") else {
            Issue.record("not a run")
            return
        }
        var options = ShowUsersOptions(logins: [try Login(validating: "octocat")])
        options.source = .graphql
        #expect(invocation.matches(options))
        guard case .run(let plain) = route("show octocat") else {
            Issue.record("not a run")
            return
        }
        #expect(plain.matches(ShowUsersOptions(logins: [try Login(validating: "octocat")])))
        guard case .run(let fromStdin) = route("show - --via rest") else {
            Issue.record("not a run")
            return
        }
        var stdinOptions = ShowUsersOptions(references: [])
        stdinOptions.fromStandardInput = true
        #expect(fromStdin.matches(stdinOptions))
    }

    @Test(arguments: [
        ("show octocat --via grpahql", "invalid value 'grpahql' for '--via': choose one of rest, graphql"),
        ("show --id 1 --via graphql", "--via graphql looks accounts up by login; --id needs --via rest"),
        ("show octocat --via", "option '--via' needs a value"),
    ])
    func badChoicesAreUsageErrors(arguments: String, message: String) {
        guard case .usageError(let error) = route(arguments) else {
            Issue.record("no usage error for \(arguments)")
            return
        }
        #expect(error.message.hasPrefix(message), "got: \(error.message)")
    }
}

struct ShowViaGraphQLTests {
    @Test func withoutATokenItExits4WithAHintAndSendsNothing() async {
        let github = StubTransport()
        let (env, out, err) = environment(github, token: false)
        #expect(await run("show octocat --via graphql", env) == 4)
        #expect(out.text.isEmpty)
        #expect(err.text.hasPrefix("gh-users: show --via graphql needs a token"))
        #expect(err.text.contains("leave out --via graphql"))
        #expect(github.calls.isEmpty)
    }

    @Test func profilesComeFromOneBatchInTheOrderAsked() async {
        let github = StubTransport()
        github.answer("POST /graphql", json: found([(2, "b"), (1, "a")], cost: 1))
        let (env, out, err) = environment(github, token: true)
        #expect(await run("show b a --via graphql --format tsv --fields login", env) == 0)
        #expect(out.text == "b\na\n")
        #expect(err.text.isEmpty)
        #expect(github.calls == ["POST /graphql"])
        #expect(github.graphQLLoginsAsked == [["b", "a"]])
    }

    /// One batch at a time (`--concurrency 1`): the stub answers in the order asked, and at the default 4 the
    /// batch of 50 may go out first, beside the batch of 100, and take its answer.
    @Test func loginsFromStdinGoInBatchesOfAHundred() async {
        let github = StubTransport()
        let users = (1...150).map { (Int64($0), "u\($0)") }
        github.answer("POST /graphql", json: found(Array(users[..<100]), cost: 4))
        github.answer("POST /graphql", json: found(Array(users[100...]), cost: 2))
        let stdin = users.map(\.1).joined(separator: "\n") + "\n"
        let (env, out, _) = environment(github, token: true, stdin: stdin)
        #expect(await run("show - --via graphql --format tsv --fields id --concurrency 1", env) == 0)
        #expect(out.text == (1...150).map { "\($0)\n" }.joined())
        #expect(github.graphQLLoginsAsked.map(\.count) == [100, 50])
    }

    /// `followers … | show -` of an account nobody follows: an empty array and exit 0, with a note on stderr,
    /// either way of looking up. Before, it was exit 64.
    @Test(arguments: ["rest", "graphql"])
    func noLoginsOnStdinIsAnEmptyList(via: String) async {
        let github = StubTransport()
        let (env, out, err) = environment(github, token: true, stdin: "# none\n")
        #expect(await run("show - --via \(via) --json", env) == 0)
        #expect(out.text == "[]\n")
        #expect(err.text == "gh-users: no logins on stdin (one a line; # starts a comment): nothing to do\n")
        #expect(github.calls.isEmpty)
    }

    @Test func aTerminalGetsAClosingLineOfPointsSpentAndRequestsSaved() async {
        let github = StubTransport()
        github.answer(
            "POST /graphql",
            json: graphQLProfiles([
                graphQLOwner(1, "a", name: "a", followers: 0), nil, graphQLOwner(3, "c", name: "c", followers: 0),
            ]))
        github.answer("GET /users/b", json: account(2, "b"))
        let (env, _, err) = environment(github, token: true, stderrTTY: true)
        #expect(await run("show a b c --via graphql --json", env) == 0)
        #expect(
            err.text
                == "1 GraphQL request spent 1 point of the graphql limit and saved 1 REST request (1 profile came "
                + "from REST: organizations, bots and accounts GraphQL could not give).\n")
        // Piped stderr gets no closing line.
        let again = StubTransport()
        again.answer("POST /graphql", json: found([(1, "a")], cost: 1))
        let (piped, _, quiet) = environment(again, token: true)
        #expect(await run("show a --via graphql", piped) == 0)
        #expect(quiet.text.isEmpty)
    }

    /// A server that reports no graphql limit (rate limiting off) spent no points of one: the line says what was
    /// saved alone, where it said "spent 0 points of the graphql limit" (helper-336).
    @Test func aServerWithoutAGraphQLLimitIsSaidToSpendNone() {
        let unlimited = GraphQLProfilesStatistics(requests: 1, points: 0, profiles: 3)
        #expect(ProfileSource.closingLine(unlimited) == "1 GraphQL request saved 2 REST requests.\n")
        let charged = GraphQLProfilesStatistics(requests: 2, points: 2, profiles: 150)
        #expect(
            ProfileSource.closingLine(charged)
                == "2 GraphQL requests spent 2 points of the graphql limit and saved 148 REST requests.\n")
    }

    @Test func aSpentGraphQLLimitExits5() async {
        let github = StubTransport()
        github.register(
            RequestMatcher("POST /graphql"),
            headers: [("x-ratelimit-reset", "1800000600"), ("x-ratelimit-resource", "graphql")],
            body: Bodies.named("graphql-rate-limit"))
        let (env, out, err) = environment(github, token: true)
        #expect(await run("show a b --via graphql", env) == 5)
        #expect(out.text.isEmpty)
        #expect(err.text.contains("rate limit"))
    }

    @Test func helpFormatsListsTheApproximateKeys() async {
        let (env, out, _) = environment(StubTransport(), token: false)
        #expect(await run("help formats", env) == 0)
        let text = out.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (key, why) in GraphQLUserKeys.approximate {
            #expect(text.contains(key + " (" + why + ")"), "\(key)")
        }
        #expect(
            GraphQLUserKeys.approximate.map(\.key) == [
                "avatar_url", "blog", "email", "hireable", "public_repos", "public_gists", "updated_at",
            ])
    }
}
