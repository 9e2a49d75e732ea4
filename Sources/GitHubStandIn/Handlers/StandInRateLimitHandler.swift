import JSONBytes

/// `GET /rate_limit`: the caller's standing in every bucket; its row spends nothing.
///
/// Shaped like GitHub's documented example `rate-limit.json` (`rate-limit-overview`, github/rest-api-description,
/// MIT): core, search and graphql are the caller's live buckets, the other resources report full static allowances
/// (hourly ones reset with core, per-minute ones with search).
struct StandInRateLimitHandler: StandInHandler {
    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        let caller = request.caller
        let ledger = request.context.ledger
        let core = ledger.peek(.core, for: caller, now: request.now)
        let search = ledger.peek(.search, for: caller, now: request.now)
        // GraphQL refuses anonymous callers outright, which GitHub reports as a limit of 0.
        let graphQL =
            caller.token == nil
            ? RateLimitSnapshot(limit: 0, remaining: 0, reset: core.reset)
            : ledger.peek(.graphql, for: caller, now: request.now)
        let others: [(name: String, limit: Int, perMinute: Bool)] = [
            ("integration_manifest", 5_000, false),
            ("source_import", 100, true),
            ("actions_runner_registration", 10_000, false),
            ("scim", 15_000, false),
            ("dependency_snapshots", 100, true),
            ("code_search", 10, true),
            ("code_scanning_autofix", 10, true),
        ]
        let resources =
            [("core", entry(core)), ("search", entry(search)), ("graphql", entry(graphQL))]
            + others.map { other in
                let reset = other.perMinute ? search.reset : core.reset
                return (other.name, entry(RateLimitSnapshot(limit: other.limit, remaining: other.limit, reset: reset)))
            }
        let body = JSONValue.object([
            .init("resources", .object(resources.map { JSONValue.Member($0.0, $0.1) })), .init("rate", entry(core)),
        ])
        return StandInHTTPResponse(status: 200, body: body.bytes)
    }

    /// Key order of that example: limit, used, remaining, reset.
    private func entry(_ snapshot: RateLimitSnapshot) -> JSONValue {
        .object(
            [
                ("limit", snapshot.limit), ("used", snapshot.used), ("remaining", snapshot.remaining),
                ("reset", snapshot.reset),
            ]
            .map { JSONValue.Member($0.0, .integer(Int64($0.1))) })
    }
}
