import Foundation
import GitHubStandIn
import Testing

/// The pipeline's stages run in the order faults → rate limit → route → conditional; each test pins one
/// neighbouring pair by making both stages want to answer.
@Suite struct StandInPipelineOrderTests {
    @Test func anInjectedFaultWinsOverAnEmptyBucketAndSpendsNothing() throws {
        try withStandInServer(StandInConfiguration(userCount: 20, rateLimit: 1)) { server throws in
            let token = [("Authorization", "token spent")]
            #expect(try fetch(server, "/users", headers: token).status == 200)
            server.injectFaults([.status(500, body: "{}")], forPath: "/users")
            let faulted = try fetch(server, "/users", headers: token)
            #expect(faulted.status == 500)
            #expect(faulted.header("x-ratelimit-remaining") == "0")
            #expect(try fetch(server, "/users", headers: token).status == 403)
        }
    }

    @Test func anEmptyBucketWinsOverRouting() throws {
        try withStandInServer(StandInConfiguration(userCount: 20, rateLimit: 1)) { server throws in
            let token = [("Authorization", "token spent")]
            #expect(try fetch(server, "/users", headers: token).status == 200)
            for target in ["/users/octocat", "/users/nobody", "/nowhere", "/search/repositories"] {
                let limited = try fetch(server, target, headers: token)
                #expect(limited.status == 403, "\(target)")
                #expect(limited.text.contains("API rate limit exceeded for user ID 1."), "\(target)")
            }
            let wrongMethod = try fetch(server, "/users", method: "DELETE", headers: token)
            #expect(wrongMethod.status == 403)
        }
    }

    @Test func anEmptyBucketWinsOverRevalidation() throws {
        try withStandInServer(StandInConfiguration(userCount: 20, rateLimit: 2)) { server throws in
            let token = [("Authorization", "token two")]
            let first = try fetch(server, "/users/octocat", headers: token)
            let etag = try #require(first.header("ETag"))
            let revalidate = token + [("If-None-Match", etag)]
            let free = try fetch(server, "/users/octocat", headers: revalidate)
            #expect(free.status == 304 && free.header("x-ratelimit-remaining") == "1")
            #expect(try fetch(server, "/users", headers: token).header("x-ratelimit-remaining") == "0")
            let limited = try fetch(server, "/users/octocat", headers: revalidate)
            #expect(limited.status == 403 && limited.header("ETag") == nil)
        }
    }

    @Test func revalidationOnlyAppliesToWhatTheRouteAnswered() throws {
        try withStandInServer { server throws in
            let anything = [("If-None-Match", "*")]
            let missingRoute = try fetch(server, "/nowhere", headers: anything)
            #expect(missingRoute.status == 404 && missingRoute.text == routeNotFound)
            #expect(missingRoute.header("ETag") == nil)
            let missingUser = try fetch(server, "/users/nobody", headers: anything)
            #expect(missingUser.status == 404 && missingUser.header("ETag") == nil)
            let invalidSearch = try fetch(server, "/search/users", headers: anything)
            #expect(invalidSearch.status == 422)
            let list = try fetch(server, "/users?per_page=2", headers: anything)
            #expect(list.status == 304 && list.body.isEmpty)
            #expect(list.header("Link")?.contains("rel=\"next\"") == true)
        }
    }

    /// A read whose ETag `If-None-Match` names (weakly, strongly or in a list) is a 304 with no body that keeps
    /// what a cache would otherwise lose with it (`Link`, `Last-Modified`, the scopes) and costs nothing in its
    /// bucket; a stale tag is answered and charged.
    @Test(arguments: [
        ("/users?per_page=5", "core"), ("/users/octocat", "core"), ("/user/1", "core"), ("/user", "core"),
        ("/search/users?q=otter", "search"), ("/user/1/keys?per_page=1", "core"),
    ])
    func aRevalidationIsA304ThatCostsNothing(target: String, bucket: String) throws {
        try withStandInServer { server throws in
            let token = bearer("gho_octocat")
            let first = try fetch(server, target, headers: token)
            let etag = try #require(first.header("ETag"))
            #expect(etag.hasPrefix("W/\"") && etag.hasSuffix("\""))
            for candidate in [etag, String(etag.dropFirst(2)), "\"other\", \(etag)"] {
                let revalidated = try fetch(server, target, headers: token + [("If-None-Match", candidate)])
                #expect(revalidated.status == 304 && revalidated.body.isEmpty && revalidated.header("ETag") == etag)
                for name in [
                    "Link", "Last-Modified", "X-OAuth-Scopes", "x-ratelimit-remaining", "x-ratelimit-resource",
                ] {
                    #expect(revalidated.header(name) == first.header(name), "\(name) of \(candidate)")
                }
            }
            #expect(first.header("x-ratelimit-resource") == bucket)
            let stale = try fetch(server, target, headers: token + [("If-None-Match", "W/\"stale\"")])
            #expect(
                stale.status == 200 && stale.header("x-ratelimit-remaining") != first.header("x-ratelimit-remaining"))
        }
    }
}

/// How the route table shows on the wire.
@Suite struct StandInRouteTableHTTPTests {
    @Test func headIsAnsweredOnEveryRouteWithoutABody() throws {
        try withStandInServer { server throws in
            for target in [
                "/users", "/users/octocat", "/user/1", "/users/octocat/repos", "/user/2/followers",
                "/users/octocat/following", "/search/users?q=a", "/rate_limit",
            ] {
                let connection = try RawHTTPConnection(port: server.port)
                let get = try connection.request("GET", target, headers: tokenHeader)
                let head = try connection.request("HEAD", target, headers: tokenHeader)
                #expect(head.status == 200 && head.body.isEmpty, "\(target)")
                #expect(head.header("Content-Length") == String(get.body.count), "\(target)")
                #expect(head.header("ETag") == get.header("ETag"), "\(target)")
                // Had HEAD leaked a body, this answer would be read out of it.
                #expect(try connection.request("GET", "/users/nobody").status == 404, "\(target)")
            }
        }
    }
}
