import Foundation
import JSONBytes

/// `POST /graphql`, for the documents gh-users sends: a batch of `repositoryOwner(login:)` lookups
/// (`Sources/Data/GraphQLProfileQuery.swift`), each `alias: repositoryOwner(login: "…")`, with the profile fragment
/// and `rateLimit { cost remaining resetAt }`, or one lookup's `contributionsCollection(from:to:)` calendar
/// (`StandInContributions`); the world's documents are `StandInAccessGraphQL`'s. Profiles are the ones the REST
/// routes serve, so the two always agree. Modelled on GitHub's documented behaviour:
/// - no token: 401; a body that is no `{"query": …}`: 400; any other document: an error with no `path`;
/// - more lookups than `graphQLNodeLimit`: a `MAX_NODE_LIMIT_EXCEEDED` error with no `path`, and nothing spent;
/// - an account that does not exist, or a bot (a GitHub App's account is no `RepositoryOwner`): the alias is
///   null, with no error, as GitHub answers `repositoryOwner(login:)` (`{"data":{"repositoryOwner":null}}`,
///   pinned by several clients' tests); only `user(login:)` adds a `NOT_FOUND` error, and it is not served here;
/// - a calendar window GitHub finds too much work (`StandInContributions.exceedsResourceLimits`): the owner is
///   null, with a `RESOURCE_LIMITS_EXCEEDED` error whose `path` ends at `contributionCalendar`, as GitHub answers
///   since July 2026 (github-profile-3d-contrib issue #163); gh-users asks no span over a year, so none is refused;
/// - cost: 1 point per 100 connections asked for (each `{ totalCount }`, counted per lookup), at least 1 per
///   query, spent from the caller's hourly `graphql` bucket;
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
        let variables = object["variables"] as? [String: Any] ?? [:]
        if StandInAccessGraphQL.isAsked(in: query) {
            return StandInAccessGraphQL.respond(query, variables: variables, to: request)
        }
        let lookups = Self.lookups(in: query)
        guard !lookups.isEmpty else {
            return Self.errorsOnly(type: nil, "The stand-in answers only the queries gh-users sends")
        }
        let span = Self.calendarSpan(in: query, now: request.now)
        let connections = lookups.count * query.ranges(of: "totalCount").count
        var writer = JSONByteWriter(reservingCapacity: 1_024 * lookups.count)
        let cost = max(1, (connections + 50) / 100)
        if let refusal = Self.charge(cost, nodes: lookups.count, query, request, into: &writer) { return refusal }
        var tooMuchWork: [String] = []
        for (position, lookup) in lookups.enumerated() {
            writer.raw(position == 0 ? "" : ",")
            writer.string(lookup.alias)
            writer.raw(":")
            guard let user = request.population.user(login: lookup.login), user.type != "Bot" else {
                writer.null()
                continue
            }
            if let span {
                guard !StandInContributions.exceedsResourceLimits(user: user, from: span.from, to: span.to) else {
                    tooMuchWork.append(lookup.alias)
                    writer.null()
                    continue
                }
                let calendar = StandInContributions(user: user, from: span.from, to: span.to, now: request.now)
                calendar.write(type: user.type, into: &writer)
            } else {
                writer.bytes += Self.profile(of: user, request.followGraph.profile(of: user)).bytes
            }
        }
        let path = ["contributionsCollection", "contributionCalendar"]
        return Self.finish(
            &writer,
            errors: tooMuchWork.map {
                ("RESOURCE_LIMITS_EXCEEDED", [$0] + path, StandInContributions.resourceLimitsExceeded)
            })
    }

    /// Closes `data` and the answer, with GitHub's errors (each at its `path`) between them where there are any.
    static func finish(_ writer: inout JSONByteWriter, errors: [(type: String, path: [String], message: String)])
        -> StandInHTTPResponse
    {
        writer.raw("}")
        let errors = errors.map { type, path, message in
            JSONValue.object([
                .init("type", .string(type)), .init("path", .array(path.map(JSONValue.string))),
                .init("locations", .array([.object([.init("line", .integer(1)), .init("column", .integer(1))])])),
                .init("message", .string(message)),
            ])
        }
        if !errors.isEmpty {
            writer.raw(",\"errors\":")
            writer.bytes += JSONValue.array(errors).bytes
        }
        writer.raw("}")
        return StandInHTTPResponse(status: 200, body: writer.bytes)
    }

    /// Spends `cost` from the caller's `graphql` bucket and opens the answer (`{"data":{`, and `rateLimit` where the
    /// document asks it); GitHub's refusal instead when the document asks more than `graphQLNodeLimit` lookups
    /// (spending nothing), or too few points are left.
    static func charge(
        _ cost: Int, nodes: Int, _ query: String, _ request: StandInRouteRequest, into writer: inout JSONByteWriter
    ) -> StandInHTTPResponse? {
        let limit = request.context.configuration.graphQLNodeLimit
        guard nodes <= limit else {
            let message = "This query requests up to \(nodes) nodes which exceeds the maximum limit of \(limit)."
            return Self.errorsOnly(type: "MAX_NODE_LIMIT_EXCEEDED", message)
        }
        let charge = request.context.ledger.charge(.graphql, for: request.caller, points: cost, now: request.now)
        guard charge.allowed else {
            // Some number that stands for the token's account, as GitHub's messages name a user ID.
            let userID = (request.caller.token ?? "").utf8.reduce(7) { ($0 &* 31 &+ Int($1)) & 0xFF_FFFF }
            return Self.rateLimitExceeded(request.context.configuration.graphQLRateLimitForm, userID: userID)
        }
        writer.raw("{\"data\":{")
        if query.contains("rateLimit") {
            writer.raw("\"rateLimit\":{\"cost\":")
            writer.integer(cost)
            writer.raw(",\"remaining\":")
            writer.integer(charge.snapshot.remaining)
            writer.raw(",\"resetAt\":")
            writer.string(UTCTimestamp.iso8601(charge.snapshot.reset))
            writer.raw("},")
        }
        return nil
    }

    /// Each `alias: repositoryOwner(login: "…")` of the document, in order; an unaliased one answers under
    /// `repositoryOwner`. A login has no quote or backslash, so its string literal needs no unescaping.
    static func lookups(in query: String) -> [(alias: String, login: String)] {
        query.ranges(of: "repositoryOwner(login:").compactMap { range in
            let before = query[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            let alias =
                before.hasSuffix(":")
                ? StandInAccessGraphQL.alias(before: before.index(before: before.endIndex), in: before)
                : "repositoryOwner"
            return StandInAccessGraphQL.literal(after: "login:", in: query[range.lowerBound...]).map { (alias, $0) }
        }
    }

    /// The `from:` and `to:` of `contributionsCollection(from: "…", to: "…")` in Unix seconds; nil when the
    /// document asks no calendar.
    static func calendarSpan(in query: String, now: Int) -> (from: Int, to: Int)? {
        guard let call = query.range(of: "contributionsCollection(") else { return nil }
        func seconds(_ name: String) -> Int? {
            StandInAccessGraphQL.literal(after: name + ":", in: query[call.upperBound...]).flatMap {
                UTCTimestamp.epochSeconds(iso8601: $0)
            }
        }
        let to = seconds("to") ?? now
        return (seconds("from") ?? to - 31_536_000, to)
    }

    /// The profile fragment's fields, in the order GitHub's field collection gives them; an `Organization` has
    /// only its type, login and id, as the fragment asks.
    static func profile(of user: StandInUser, _ profile: StandInUserProfile) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("__typename", .string(user.type)), .init("login", .string(user.login)),
            .init("databaseId", .integer(Int64(user.id))),
        ]
        guard user.type == "User" else { return .object(members) }
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        // GraphQL says null where REST says "" for no blog, and "" where REST says null for no email.
        members += [
            .init("id", .string(user.nodeID)), .init("name", text(profile.name)),
            .init("company", text(profile.company)), .init("location", text(profile.location)),
            .init("bio", text(profile.bio)), .init("twitterUsername", text(profile.twitterUsername)),
            .init("websiteUrl", text(profile.blog.isEmpty ? nil : profile.blog)),
            .init("email", .string(profile.email ?? "")), .init("isHireable", .bool(profile.hireable ?? false)),
            .init("isSiteAdmin", .bool(user.siteAdmin)),
            .init("createdAt", .string(UTCTimestamp.iso8601(profile.createdAt))),
            .init("updatedAt", .string(UTCTimestamp.iso8601(profile.updatedAt))), .init("url", .string(user.htmlURL)),
            .init("avatarUrl", .string("https://avatars.githubusercontent.com/u/\(user.id)?v=4")),
        ]
        // `repositories(privacy: PUBLIC, ownerAffiliations: OWNER)`: the owned public ones, as REST counts them.
        let counts = [
            ("followers", profile.followers), ("following", profile.following), ("repositories", profile.publicRepos),
            ("gists", profile.publicGists),
        ]
        for (key, count) in counts {
            members.append(.init(key, .object([.init("totalCount", .integer(Int64(count)))])))
        }
        return .object(members)
    }

    /// A spent `graphql` bucket, in `form`. The 403 form's `x-ratelimit-remaining: 0` is the pipeline's to set.
    static func rateLimitExceeded(_ form: StandInGraphQLRateLimitForm, userID: Int) -> StandInHTTPResponse {
        let message = "API rate limit already exceeded for user ID \(userID)."
        switch form {
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

extension StandInUser {
    /// A `User` node: `databaseId`, `fields` in the document's order, `isSiteAdmin`.
    func graphQLNode(_ fields: [String]) -> JSONValue {
        let values = ["id": nodeID, "login": login, "url": htmlURL, "avatarUrl": avatarURL]
        let named = fields.map { JSONValue.Member($0, .string(values[$0] ?? "")) }
        return .object([.init("databaseId", .integer(Int64(id)))] + named + [.init("isSiteAdmin", .bool(siteAdmin))])
    }
}
