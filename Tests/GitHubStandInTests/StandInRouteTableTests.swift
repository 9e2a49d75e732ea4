import Domain
import Testing

@testable import GitHubStandIn

/// Echoes what a handler gets, so a test can see the server hand it everything.
private struct EchoHandler: StandInHandler {
    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        let name = request.parameters["name"] ?? "-"
        let thing = request.header("x-thing") ?? "-"
        let body = String(decoding: request.body, as: UTF8.self)
        return StandInHTTPResponse(status: 200, body: Array("\(request.method) \(name) \(thing) \(body)".utf8))
    }
}

/// A stand-in of three accounts that serves `routes` alone.
func standIn(serving routes: [StandInRoute]) throws -> StandInServer {
    let server = try standIn(StandInConfiguration(userCount: 3))
    server.routes = StandInRouteTable(routes: routes)
    return server
}

@Suite struct StandInRouteTableTests {
    /// Guards the real table against a row that an earlier row shadows, or a pattern nobody can reach. The runner's
    /// help is built from the table (`servedRoutes`), so it must name every row, without parameter types.
    @Test func everyPatternOfTheGitHubTableReachesItsOwnRowAndIsListedReadably() {
        let gitHub = StandInRouteTable.gitHub()
        var seen = Set<String>()
        for route in gitHub.routes {
            for pattern in route.patterns {
                #expect(seen.insert("\(route.method.rawValue) \(pattern)").inserted, "duplicate \(pattern)")
                let path = pattern.segments.map { $0.hasSuffix(":int}") ? "1" : $0.hasPrefix("{") ? "octocat" : $0 }
                    .joined(separator: "/")
                let match = gitHub.match(method: route.method.rawValue, path: path)
                #expect(match?.route.patterns.map(\.description) == route.patterns.map(\.description), "\(path)")
                #expect(match?.route.method == route.method, "\(path)")
            }
        }
        #expect(seen.count >= 11)
        let lines = StandInServer.servedRoutes
        #expect(lines.count == gitHub.routes.count)
        #expect(lines.first == "GET /users")
        #expect(lines.contains("GET /users/{username}/followers, /user/{account_id}/followers"))
        #expect(lines.contains("GET /rate_limit"))
        #expect(!lines.joined().contains(":int"))
    }

    /// The table is built from the endpoint rows: each is served with its method and its rate limit, under the
    /// account's id too when it is account-scoped, and names its scope as GitHub's header does (an organization's
    /// lists as octokit.rb's and github3.py's cassettes recorded it: Bodies/NOTICE.md).
    @Test(arguments: Endpoint.all)
    func everyEndpointRowIsServedWithItsMethodRateLimitAndScopes(_ row: Endpoint) throws {
        let gitHub = StandInRouteTable.gitHub()
        var paths = [row.path.replacing("{account_id}", with: "1").replacing("{target_user}", with: "hubot")]
        if row.isAccountScoped {
            paths.append(row.accountPath("1").replacing("{target_user}", with: "hubot"))
        }
        let organization = "admin:org, read:org, repo, user, write:org"
        let accepted: [Endpoint: String] = [
            .user: "user", .userByID: "user", .authenticatedUser: "user", .follow: "user, user:follow",
            .unfollow: "user, user:follow", .blocks: "user", .block: "user", .unblock: "user",
            .emails: "user, user:email", .updateAuthenticatedUser: "user", .invitations: "admin:org, repo",
            .outsideCollaborators: "admin:org, read:org, repo, write:org", .teamMembers: organization,
            .members: organization, .organization: organization,
        ]
        for path in paths.map({ $0.replacing("{username}", with: "octocat") }) {
            let route = try #require(gitHub.match(method: row.method.rawValue, path: path)?.route, "\(row) at \(path)")
            #expect(route.method == row.method, "\(path)")
            #expect(route.rateResource == StandInRateResource(row.rateLimit), "\(path)")
            #expect(route.acceptedScopes == accepted[row] ?? "", "\(path)")
        }
    }

    @Test func aNewRowGetsEveryStageWithoutTouchingTheServer() throws {
        let server = try standIn(serving: [StandInRoute(.post, "/echo/{name}", handler: EchoHandler())])
        func send(_ method: String, headers: [(String, String)] = []) throws -> RawHTTPResponse {
            let headers = [("X-Thing", "yes")] + headers
            return try fetch(server, "/echo/hi%21?x=1", method: method, headers: headers, body: "payload")
        }
        let echoed = try send("POST")
        #expect(echoed.status == 200 && echoed.text == "POST hi! yes payload")
        #expect(echoed.header("x-ratelimit-remaining") == "59")
        // Only reads are revalidated; a write is answered and charged whatever If-None-Match says.
        #expect(echoed.header("ETag") == nil)
        let unconditional = try send("POST", headers: [("If-None-Match", "*")])
        #expect(unconditional.status == 200 && unconditional.header("x-ratelimit-remaining") == "58")
        #expect(try send("GET").status == 404)
        #expect(server.requests.map(\.path) == ["/echo/hi!", "/echo/hi!", "/echo/hi!"])
    }

    /// Scripts/try keeps its cache from one stand-in process to the next, so a tag must not depend on the process
    /// (as `Hasher`'s seed does): the same body is the same tag in every run.
    @Test func anETagIsTheSameInEveryProcess() {
        #expect(StandInETag.weakTag(for: Array("[]".utf8)) == "W/\"33c90ba58d4d739a\"")
    }

    @Test func perPageDefaultsToThirtyAndIsCappedAtOneHundred() throws {
        let server = try standIn(StandInConfiguration(userCount: 500))
        let defaulted = try fetch(server, "/users")
        #expect(try defaulted.jsonArray().count == 30)
        let thirtieth = server.population.users[29].id
        // Without per_page in the request, GitHub's next link has none either.
        #expect(linkRelations(defaulted.header("Link"))["next"] == "\(server.baseURL)/users?since=\(thirtieth)")
        let capped = try fetch(server, "/users?per_page=500")
        #expect(try capped.jsonArray().count == 100)
        #expect(linkRelations(capped.header("Link"))["next"]?.contains("per_page=100&") == true)
        for perPage in ["abc", "0"] { #expect(try fetch(server, "/users?per_page=" + perPage).jsonArray().count == 30) }
        #expect(try logins(fetch(server, "/users?since=abc&per_page=2")) == ["octocat", "Yamada-Taro"])
        #expect(try fetch(server, "/users?since=6&per_page=1").jsonArray().first?["id"] as? Int == 8)
    }

    /// A profile is found by its login whatever its case, percent-encoded or not, and by its id: the same answer each
    /// way (the account's ordinal given), with its `updated_at` as `Last-Modified`.
    @Test(arguments: [
        ("/users/OctoCat", 1), ("/users/%6Fctocat", 1), ("/users/dependabot[bot]", 3),
        ("/users/dependabot%5Bbot%5D", 3), ("/users/DEPENDABOT%5bBOT%5d", 3), ("/user/1", 1), ("/user/3", 3),
        ("/user/9", 7),
    ])
    func aProfileIsFoundByItsLoginInAnyCaseOrEncodingAndByItsID(target: String, ordinal: Int) throws {
        let server = try standIn()
        let user = server.population.users[ordinal - 1]
        let response = try fetch(server, target, headers: tokenHeader)
        let byLogin = try fetch(server, "/users/\(user.loginPathComponent)", headers: tokenHeader)
        #expect(try response.status == 200 && response.jsonObject()["login"] as? String == user.login)
        #expect(response.body == byLogin.body && response.header("ETag") == byLogin.header("ETag"))
        #expect(response.header("Last-Modified") == UTCTimestamp.httpDate(user.profile.updatedAt))
    }

    /// GitHub's refusals, each with its body: neighbours of served paths (the caller's own keys, private events,
    /// received events; `/user/{account_id}` is no catch-all under `/user/`), ids no account has, a search without
    /// a query, a capped row's pages past its cap, `GET /user` without a token.
    static let refusals: [Step] =
        [
            "/", "/user/keys", "/users/octocat/received_events", "/users/octocat/repos/extra", "/user/octocat",
            "/user/1/events", "/search/repositories", "/rate_limit/extra",
        ].map { Step($0, as: nil, 404, text: routeNotFound) }
        + ["/user/6", "/user/0", "/user/-1", "/user/99999"].map { Step($0, as: "octocat", 404, text: userNotFound) }
        + ["/search/users", "/search/users?q=", "/search/users?q=+++", "/search/users?per_page=5"].map {
            Step($0, as: "octocat", 422, text: searchMissingQuery)
        }
        + ["?per_page=100&page=4", "?per_page=7&page=44", "?page=99999999999999999"].map {
            Step("/users/octocat/events/public" + $0, as: "octocat", 422, text: paginationLimited)
        } + [Step("/user", as: nil, 401, text: requiresAuthentication)]

    /// A refusal has neither an ETag nor a Link, is charged to the bucket its route's is, and is no 304 to an
    /// `If-None-Match` that matches anything.
    @Test(arguments: refusals) func aRefusalIsGitHubsBodyWithNoETagOrLink(_ refusal: Step) throws {
        let server = try standIn()
        let response = try refusal.run(on: server)
        #expect(response.header("ETag") == nil && response.header("Link") == nil)
        let search = refusal.target.hasPrefix("/search/users")
        #expect(response.header("x-ratelimit-resource") == (search ? "search" : "core"))
        let revalidated = try fetch(server, refusal.target, headers: [("If-None-Match", "*")], as: refusal.login)
        #expect(revalidated.status == refusal.status && revalidated.body == response.body)
    }
}
