import JSONBytes

extension StandInRouteRequest {
    /// `GET /rate_limit`: GitHub's documented example (`Bodies/rate-limit-get.json`) with the caller's live core,
    /// search and graphql buckets; the others full, resetting with search where the example's do, else with core.
    func rateLimitStatus() -> StandInHTTPResponse {
        let ledger = context.ledger
        let core = ledger.peek(.core, for: caller, now: now)
        let search = ledger.peek(.search, for: caller, now: now)
        // GraphQL refuses anonymous callers outright, which GitHub reports as a limit of 0.
        let anonymous = RateLimitSnapshot(limit: 0, remaining: 0, reset: core.reset)
        let graphQL = caller.token == nil ? anonymous : ledger.peek(.graphql, for: caller, now: now)
        let example = StandInRecordedHandler.body(named: "rate-limit-get") ?? []
        var live: [String: any Sendable] = ["core": entry(core), "search": entry(search), "graphql": entry(graphQL)]
        let searchReset = JSONText.text(at: ["resources", "search", "reset"], in: example)
        for name in JSONText.keys(at: ["resources"], in: example) where live[name] == nil {
            let limit = Int(JSONText.text(at: ["resources", name, "limit"], in: example)) ?? 0
            let perMinute = JSONText.text(at: ["resources", name, "reset"], in: example) == searchReset
            let reset = perMinute ? search.reset : core.reset
            live[name] = entry(RateLimitSnapshot(limit: limit, remaining: limit, reset: reset))
        }
        let resources = replacing(live, in: JSONText.value(at: ["resources"], in: example) ?? [])
        var body: [UInt8] = []
        JSONText.compact(replacing(["resources": resources, "rate": entry(core)], in: example), into: &body)
        return StandInHTTPResponse(status: 200, body: body)
    }

    /// Key order of the example: limit, used, remaining, reset.
    private func entry(_ snapshot: RateLimitSnapshot) -> [UInt8] {
        let (limit, used, remaining, reset) = (snapshot.limit, snapshot.used, snapshot.remaining, snapshot.reset)
        return Array(#"{"limit":\#(limit),"used":\#(used),"remaining":\#(remaining),"reset":\#(reset)}"#.utf8)
    }
}
