import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func run(_ arguments: [String], _ env: AppEnvironment) async -> Int32 {
    await GhUsersApp(environment: env).run(arguments)
}

/// `rate-limit`: the buckets as a table, as JSON and as TSV.
struct RateLimitCommandTests {
    /// The rate limits are always asked live, never cached: `--offline` says so (before: "GET /rate_limit is not
    /// in the cache", as if an earlier run could have kept it), exit 1, nothing sent.
    @Test func offlineSaysTheRateLimitsAreNeverCached() async {
        let data = StubTransport()
        let (env, out, err) = AppEnvironment.test(http: data)
        #expect(await run(["rate-limit", "--offline"], env) == 1)
        #expect(out.text.isEmpty)
        #expect(err.text == "gh-users: GET /rate_limit is never cached, and --offline keeps off the network\n")
        #expect(data.calls.isEmpty)
    }

    /// GitHub Enterprise Server limits nothing by default, and says so with a 404 (its docs; actions/stale#1227):
    /// not "no rate limits" with exit 3, which says a name does not exist.
    @Test func aServerWithoutRateLimitsSaysSo() async {
        let data = StubTransport()
        data.refuse("GET /rate_limit", status: 404, message: "Rate limiting is not enabled.")
        let (env, out, err) = AppEnvironment.test(http: data)
        #expect(await run(["rate-limit"], env) == 1)
        #expect(out.text.isEmpty)
        #expect(
            err.text.hasPrefix("gh-users: this server limits no requests: it answers GET /rate_limit with "),
            "\(err.text)")
        // Any other 404 is no name missing (exit 3, "no rate limits") but a server that does not serve the
        // endpoint (exit 1; helper-326), most likely another API's URL.
        data.refuse("GET /rate_limit", status: 404, message: "Not Found")
        let (missing, _, said) = AppEnvironment.test(http: data)
        #expect(await run(["rate-limit"], missing) == 1)
        #expect(
            said.text.hasPrefix(
                "gh-users: GitHub answered HTTP 404: GET /rate_limit was not found: this server does not serve it; "
                    + "check the API URL"), "\(said.text)")
    }

    /// On a terminal of 40 columns a long resource's name is cut, the reset left out: no row wraps (before, the
    /// 29 letters of `actions_runner_registration` were never cut and every row ran to 50; helper-340's E2).
    @Test func aNarrowTerminalCutsALongResourceRatherThanWrap() async {
        let data = StubTransport()
        data.answer(
            "GET /rate_limit",
            json: #"{"resources":{"core":{"limit":5000,"used":1,"remaining":4999,"reset":1800002520},"#
                + #""actions_runner_registration":{"limit":10000,"used":0,"remaining":10000,"reset":1800000060}},"#
                + #""rate":{"limit":5000,"used":1,"remaining":4999,"reset":1800002520}}"#)
        let (tty, out, _) = AppEnvironment.test(http: data, stdoutTTY: true, width: 40)
        #expect(await run(["rate-limit", "--color", "never"], tty) == 0)
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines.allSatisfy { DisplayWidth.of($0) <= 40 }, "\(out.text)")
        #expect(lines.contains { $0.hasPrefix("actions_runner_… ") && $0.contains("10000") }, "\(out.text)")
    }

    @Test func rateLimitTableAndJSON() async throws {
        let data = StubTransport()
        // Resets 42 minutes and 1 minute after the harness's now (1_800_000_000).
        for _ in 0..<4 {
            data.answer(
                "GET /rate_limit",
                json: #"{"resources":{"core":{"limit":5000,"used":1,"remaining":4999,"reset":1800002520},"#
                    + #""search":{"limit":30,"used":0,"remaining":30,"reset":1800000060}},"#
                    + #""rate":{"limit":5000,"used":1,"remaining":4999,"reset":1800002520}}"#)
        }
        let (tty, out, _) = AppEnvironment.test(http: data, stdoutTTY: true)
        #expect(await run(["rate-limit", "--color", "never"], tty) == 0)
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("RESOURCE  LIMIT  REMAINING  USED  RESETS"))
        #expect(lines[1].hasPrefix("core      5000   4999       1     "))
        #expect(lines[1].hasSuffix("(in 42m 0s)"))
        // The local time with its zone, as messages say a reset (before, the time alone).
        let reset = Date(timeIntervalSince1970: 1_800_002_520)
        #expect(
            lines[1].contains(
                LocalTime.text(reset, date: !LocalTime.isSameDay(reset, Date(timeIntervalSince1970: 1_800_000_000)))))
        let (piped, json, _) = AppEnvironment.test(http: data)
        #expect(await run(["rate-limit", "--json"], piped) == 0)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
        #expect((parsed["resources"] as? [String: Any])?["core"] != nil)
        let (tsv, tsvOut, _) = AppEnvironment.test(http: data)
        #expect(await run(["rate-limit"], tsv) == 0)
        #expect(tsvOut.text.hasPrefix("core\t5000\t4999\t1\t2027-01-15T08:42:00Z\n"))
        // csv on a terminal is still for a program: the time, not "3:33:19 AM (in 42m 0s)" (before).
        let (csv, csvOut, _) = AppEnvironment.test(http: data, stdoutTTY: true)
        #expect(await run(["rate-limit", "--format", "csv"], csv) == 0)
        #expect(csvOut.text.contains("core,5000,4999,1,2027-01-15T08:42:00Z\r\n"), "\(csvOut.text)")
    }

    /// On a clock 20 minutes behind GitHub's (the answer's `Date`; the run's clock is 08:00:00), a reset 42 minutes
    /// away by GitHub's clock is 22 minutes away by this one's, as the wait for it is; tsv keeps GitHub's reset
    /// (helper-268, helper-270).
    @Test func theTableShowsAResetOnThisClockAndTSVGitHubs() async {
        let data = StubTransport()
        for _ in 0..<2 {
            data.answer(
                "GET /rate_limit", headers: [("Date", "Fri, 15 Jan 2027 08:20:00 GMT")],
                json: #"{"resources":{"core":{"limit":5000,"used":1,"remaining":4999,"reset":1800002520}}}"#)
        }
        let (tty, out, _) = AppEnvironment.test(http: data, stdoutTTY: true)
        #expect(await run(["rate-limit", "--color", "never"], tty) == 0)
        #expect(out.text.contains("(in 22m 0s)"), "\(out.text)")
        let (tsv, tsvOut, _) = AppEnvironment.test(http: data)
        #expect(await run(["rate-limit"], tsv) == 0)
        #expect(tsvOut.text.hasPrefix("core\t5000\t4999\t1\t2027-01-15T08:42:00Z\n"), "\(tsvOut.text)")
    }

    /// A bucket without `used` (an older server's) leaves it blank in csv and null in a bucket's JSON, as every
    /// format says what GitHub sent (before: 1000, worked out as limit minus remaining, where plain `--json`, GitHub's
    /// body, had no such key).
    @Test func aUsedGitHubDidNotSendIsBlankNotWorkedOut() async {
        let data = StubTransport()
        for _ in 0..<2 {
            data.answer(
                "GET /rate_limit",
                json: #"{"resources":{"core":{"limit":5000,"remaining":4000,"reset":1800002520}},"#
                    + #""rate":{"limit":5000,"remaining":4000,"reset":1800002520}}"#)
        }
        let (csv, csvOut, _) = AppEnvironment.test(http: data)
        #expect(await run(["rate-limit", "--format", "csv"], csv) == 0)
        #expect(csvOut.text.contains("core,5000,4000,,2027-01-15T08:42:00Z\r\n"), "\(csvOut.text)")
        let (json, jsonOut, _) = AppEnvironment.test(http: data)
        #expect(await run(["rate-limit", "--format", "ndjson", "--fields", "resource,used"], json) == 0)
        #expect(jsonOut.text == #"{"resource":"core","used":null}"# + "\n")
    }

    /// `rate-limit` is never cached (it costs nothing and must be current): a second run with the same cache folder
    /// asks GitHub again without `If-None-Match` (each stub answers once, so a cached run leaves one unused), and
    /// the folder holds no file afterwards.
    @Test func rateLimitAsksGitHubEveryTimeAndStoresNothing() async throws {
        var harness = CommandHarness.signedIn()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-rate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        harness.cacheDirectory = cache
        for arguments in [["rate-limit"], ["rate-limit", "--json"]] {
            // GitHub's recorded answers carry `Cache-Control: no-cache` and no ETag
            // (Tests/Recorded/octokit.rb/rate-limit-2015.json); the ETag is added here so that the rule, not a
            // missing validator, is what keeps the answer out of the cache.
            harness.expect(
                "GET /rate_limit", headers: [("Cache-Control", "no-cache"), ("ETag", #""rate-limit-etag""#)],
                body: "rate-limit-get")
            let run = await harness.run(arguments)
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.hasPrefix(arguments.count == 1 ? "core\t5000\t4999\t1\t" : "{"), "\(run.out)")
        }
        #expect(harness.http.received.count == 2)
        #expect(harness.http.received.allSatisfy { $0.headers["If-None-Match"] == nil })
        let stored = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: [.isRegularFileKey])?
            .compactMap { ($0 as? URL).flatMap { try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile } }
            .filter { $0 }
        #expect(stored?.isEmpty ?? true, "rate-limit left files in its cache folder")
    }
}

/// Buckets whose numbers no server means: a malformed answer (exit 1) that names the number, never a trap on
/// `limit - remaining` or on the reset turned back into whole seconds.
struct RateLimitOutOfRangeTests {
    @Test(arguments: [
        (#""limit":-9223372036854775808,"remaining":1,"reset":1800002520"#, "core bucket's limit -9223372036854775808"),
        (#""limit":9223372036854775807,"remaining":-1,"reset":1800002520"#, "core bucket's limit 9223372036854775807"),
        (#""limit":5000,"remaining":-1,"reset":1800002520"#, "core bucket's remaining -1"),
        (#""limit":5000,"remaining":1,"used":-3,"reset":1800002520"#, "core bucket's used -3"),
        (#""limit":5,"remaining":1,"used":1,"reset":9223372036854775807"#, "core bucket's reset 9223372036854775807"),
        (#""limit":5000,"remaining":1,"used":1,"reset":-1"#, "core bucket's reset -1"),
        (#""limit":5000,"remaining":1,"used":1,"reset":253402300800"#, "core bucket's reset 253402300800"),
    ])
    func aBucketOutOfRangeIsMalformed(bucket: String, named: String) async {
        let data = StubTransport()
        data.answer("GET /rate_limit", json: #"{"resources":{"core":{"# + bucket + "}}}")
        let (env, out, err) = AppEnvironment.test(http: data)
        #expect(await run(["rate-limit", "--format", "ndjson", "--fields", "resource,reset"], env) == 1)
        #expect(out.text.isEmpty)
        #expect(err.text.hasPrefix("gh-users: malformed response from GET /rate_limit: the \(named) is not a"))
    }

    /// The bounds themselves are GitHub's to send: the last second of the year 9999 and the largest count.
    @Test func theBoundsAreRead() async {
        let data = StubTransport()
        data.answer(
            "GET /rate_limit",
            json: #"{"resources":{"core":{"limit":2147483647,"used":2147483647,"remaining":0,"reset":253402300799}}}"#)
        let (env, out, err) = AppEnvironment.test(http: data)
        #expect(await run(["rate-limit", "--format", "ndjson", "--fields", "resource,used,reset"], env) == 0)
        #expect(err.text.isEmpty)
        #expect(out.text == #"{"resource":"core","used":2147483647,"reset":253402300799}"# + "\n")
    }
}
