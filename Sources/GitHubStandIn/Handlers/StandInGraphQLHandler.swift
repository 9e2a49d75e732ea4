import Foundation
import JSONBytes

/// `POST /graphql`: the document read (`StandInGraphQLDocument`) and executed (`StandInGraphQLEvaluator`) against
/// `StandInGraphQLSchema`, writing exactly the fields asked, in the order asked. Modelled on GitHub's documented
/// behaviour:
/// - no token: 401; a body that is no `{"query": …}`: 400; a document that does not parse, or asks a field the
///   stand-in does not serve, or a cursor it did not give: an error with no `path`, and nothing spent;
/// - more lookups (fields of the query but `rateLimit`) than `graphQLNodeLimit`: a `MAX_NODE_LIMIT_EXCEEDED`
///   error with no `path`, and nothing spent (GitHub counts nodes; the stand-in counts lookups, so a test reaches
///   the limit with a few);
/// - a field that fails (`NOT_FOUND`, `FORBIDDEN`, `RESOURCE_LIMITS_EXCEEDED`) is null, its non-null parents
///   nulled up to the nearest nullable one, with an error at its `path`; a calendar window GitHub finds too much
///   work (`StandInContributions.init`) nulls the owner, with the error's `path` ending at
///   `contributionCalendar`, as GitHub answers since July 2026 (github-profile-3d-contrib issue #163); gh-users
///   asks no span over a year, so none is refused;
/// - cost: `StandInGraphQLEvaluator.cost`, spent from the caller's hourly `graphql` bucket;
/// - a bucket without enough points left: in the configured `StandInGraphQLRateLimitForm`, each one GitHub sends
///   (status 200 with a `RATE_LIMIT` error by default).
struct StandInGraphQLHandler: StandInHandler {
    static let documentation = "https://docs.github.com/graphql"

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard request.caller.token != nil else {
            return StandInErrorBody.response(
                401, message: "This endpoint requires you to be authenticated.",
                documentationURL: Self.documentation + "/guides/forming-calls-with-graphql#authenticating-with-graphql")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
            let query = object["query"] as? String
        else {
            return StandInErrorBody.response(
                400, message: "Problems parsing JSON", documentationURL: Self.documentation)
        }
        guard let document = try? StandInGraphQLDocument(query, variables: object["variables"] as? [String: Any] ?? [:])
        else { return Self.errorsOnly(type: nil, "The stand-in could not read the query") }
        var evaluator = StandInGraphQLEvaluator(fragments: document.fragments)
        let fields = evaluator.collect(document.selections, on: "Query")
        let lookups = fields.filter { $0.name != "rateLimit" }.count
        let limit = request.context.configuration.graphQLNodeLimit
        guard lookups <= limit else {
            let message = "This query requests up to \(lookups) nodes which exceeds the maximum limit of \(limit)."
            return Self.errorsOnly(type: "MAX_NODE_LIMIT_EXCEEDED", message)
        }
        // A profile's `email` needs a classic token's `user:email` or `read:user` (or `user`): without it GitHub
        // refuses the whole query, no `data` (atom/github issue #660, mntnr/name-your-contributors issue #67).
        let granted = request.caller.scopes ?? []
        if Self.asks("email", document), !granted.contains(where: ["user", "user:email", "read:user"].contains) {
            return Self.errorsOnly(
                type: "INSUFFICIENT_SCOPES",
                "Your token has not been granted the required scopes to execute this query. The 'email' field "
                    + "requires one of the following scopes: ['user:email', 'read:user'], but your token has only been "
                    + "granted the: [\(granted.map { "'\($0)'" }.joined(separator: ", "))] scopes. Please modify your "
                    + "token's scopes at: https://github.com/settings/tokens.")
        }
        // Every lookup is made before anything is spent, so a query GitHub would refuse whole costs nothing.
        let schema = StandInGraphQLSchema(request: request, world: request.context.world.current)
        var data: [String: JSONValue] = [:]
        do {
            for field in fields where field.name != "rateLimit" {
                data[field.key] = try evaluator.value(of: field, in: schema.query, at: [.string(field.key)])
            }
        } catch {
            return Self.errorsOnly(type: nil, (error as? StandInGraphQLQueryError)?.message ?? "\(error)")
        }
        let cost = evaluator.cost(of: document.selections)
        let charge = request.context.ledger.charge(.graphql, for: request.caller, points: cost, now: request.now)
        guard charge.allowed else { return Self.rateLimitExceeded(for: request) }
        let snapshot = charge.snapshot
        let rateLimit = StandInGraphQLObject(
            "RateLimit",
            [
                "cost": .number(cost), "limit": .number(snapshot.limit), "remaining": .number(snapshot.remaining),
                "used": .number(snapshot.used), "resetAt": .text(UTCTimestamp.iso8601(snapshot.reset)),
            ])
        let root = StandInGraphQLObject("Query") { $0.name == "rateLimit" ? .object(rateLimit) : nil }
        let members = fields.map { field in
            let value = try? data[field.key] ?? evaluator.value(of: field, in: root, at: [.string(field.key)])
            return JSONValue.Member(field.key, value ?? .null)
        }
        let errors = evaluator.errors.map { type, path, message in
            JSONValue.object([
                .init("type", .string(type)), .init("path", .array(path)),
                .init("locations", .array([.object([.init("line", .integer(1)), .init("column", .integer(1))])])),
                .init("message", .string(message)),
            ])
        }
        let answer =
            [JSONValue.Member("data", .object(members))] + (errors.isEmpty ? [] : [.init("errors", .array(errors))])
        return StandInHTTPResponse(status: 200, body: JSONValue.object(answer).bytes)
    }

    /// A spent `graphql` bucket, in the configured form, naming the caller. The 403 form's
    /// `x-ratelimit-remaining: 0` is the pipeline's to set.
    static func rateLimitExceeded(for request: StandInRouteRequest) -> StandInHTTPResponse {
        let message = "API rate limit already exceeded for user ID \(request.callerID)."
        switch request.context.configuration.graphQLRateLimitForm {
        case .rateLimit:
            return errorsOnly(type: "RATE_LIMIT", code: "graphql_rate_limit", message)
        case .rateLimited:
            return errorsOnly(type: "RATE_LIMITED", message)
        case .forbidden:
            return StandInErrorBody.response(
                403, message: message,
                documentationURL:
                    "https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api")
        }
    }

    /// Whether `document` asks a field called `name`, at any depth or in any fragment.
    static func asks(_ name: String, _ document: StandInGraphQLDocument) -> Bool {
        func walk(_ selections: [StandInGraphQLDocument.Selection]) -> Bool {
            selections.contains { selection in
                switch selection {
                case .field(let field): field.name == name || walk(field.selections)
                case .fragment(_, let inner): walk(inner)
                case .spread: false
                }
            }
        }
        return walk(document.selections) || walk(Array(document.fragments.values))
    }

    /// `{"errors":[…]}` with status 200 and one error, as GitHub sends an error about the whole query: no `path`.
    static func errorsOnly(type: String?, code: String? = nil, _ message: String) -> StandInHTTPResponse {
        let members: [JSONValue.Member?] = [
            type.map { .init("type", .string($0)) }, code.map { .init("code", .string($0)) },
            .init("message", .string(message)),
        ]
        let errors = JSONValue.array([.object(members.compactMap { $0 })])
        return StandInHTTPResponse(status: 200, body: JSONValue.object([.init("errors", errors)]).bytes)
    }
}
