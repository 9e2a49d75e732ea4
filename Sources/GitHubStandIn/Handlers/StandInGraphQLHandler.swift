import Foundation

/// `POST /graphql`: GitHub's GraphQL API, for the part of the schema a profile lookup reads: `rateLimit`, and
/// `repositoryOwner(login:)` as a `User` or an `Organization` with the fields the stand-in's REST profile holds,
/// so the two always agree, and a User's `contributionsCollection(from:to:)` calendar (`StandInContributions`).
/// Modelled on GitHub's documented behaviour:
/// - no token: 401;
/// - a query outside this schema, or one the parser cannot read: `errors` with no `path` and no `data`;
/// - more lookups than `graphQLNodeLimit`: a `MAX_NODE_LIMIT_EXCEEDED` error with no `path`, and nothing spent;
/// - an account that does not exist, or a bot (a GitHub App's account is no `RepositoryOwner`): the alias is
///   null, with no error, as GitHub answers `repositoryOwner(login:)` (`{"data":{"repositoryOwner":null}}`,
///   pinned by several clients' tests); only `user(login:)` adds a `NOT_FOUND` error, and it is not served here;
/// - a `contributionsCollection` window GitHub finds too much work (`StandInContributions.exceedsResourceLimits`):
///   the owner is null, with a `RESOURCE_LIMITS_EXCEEDED` error whose `path` ends at `contributionCalendar`, as
///   GitHub answers since July 2026 (github-profile-3d-contrib issue #163);
/// - cost: 1 point per 100 connections asked for (`followers { totalCount }` and the like, counted per
///   lookup), at least 1 per query, spent from the caller's hourly `graphql` bucket;
/// - a bucket without enough points left: in the configured `StandInGraphQLRateLimitForm`, each one GitHub sends
///   (status 200 with a `RATE_LIMIT` error by default).
struct StandInGraphQLHandler: StandInHandler {
    static let documentation = "https://docs.github.com/graphql"

    func respond(to request: StandInRouteRequest) -> StandInHTTPResponse {
        guard let token = request.caller.token else {
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
        let document: StandInGraphQLDocument
        do {
            document = try StandInGraphQLDocument(parsing: query)
        } catch {
            return Self.errorsOnly([(type: nil, message: "Parse error: " + error.message)])
        }
        let schema = StandInGraphQLSchema(document: document)
        if let problem = schema.validationProblem() {
            return Self.errorsOnly([(type: nil, message: problem)])
        }
        let lookups = schema.lookupCount
        let limit = request.context.configuration.graphQLNodeLimit
        guard lookups <= limit else {
            return Self.errorsOnly([
                (
                    type: "MAX_NODE_LIMIT_EXCEEDED",
                    message: "This query requests up to \(lookups) nodes which exceeds the maximum limit of \(limit)."
                )
            ])
        }
        let cost = max(1, (schema.connectionCount + 50) / 100)
        let ledger = request.context.ledger
        let charge = ledger.chargeGraphQL(
            bucket: request.caller.bucket, limit: request.context.configuration.graphQLRateLimit, points: cost,
            now: request.now)
        guard charge.allowed else {
            return Self.rateLimitExceeded(
                request.context.configuration.graphQLRateLimitForm, userID: Self.userID(token))
        }
        var execution = StandInGraphQLExecution(document: document, request: request, cost: cost, charge: charge)
        return StandInHTTPResponse(status: 200, body: execution.run())
    }

    /// Some number that stands for the token's account in GitHub's messages.
    private static func userID(_ token: String) -> Int {
        token.utf8.reduce(7) { ($0 &* 31 &+ Int($1)) & 0xFF_FFFF }
    }

    /// A spent `graphql` bucket, in `form`. The 403 form's `x-ratelimit-remaining: 0` is the pipeline's to set.
    static func rateLimitExceeded(_ form: StandInGraphQLRateLimitForm, userID: Int) -> StandInHTTPResponse {
        let message = "API rate limit already exceeded for user ID \(userID)."
        switch form {
        case .rateLimit:
            return errorsOnly([(type: "RATE_LIMIT", code: "graphql_rate_limit", message: message)])
        case .rateLimited:
            return errorsOnly([(type: "RATE_LIMITED", message: message)])
        case .forbidden:
            return StandInErrorBody.response(
                403, message: message,
                documentationURL:
                    "https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api")
        }
    }

    static func errorsOnly(_ errors: [(type: String?, message: String)]) -> StandInHTTPResponse {
        errorsOnly(errors.map { (type: $0.type, code: nil, message: $0.message) })
    }

    /// `{"errors":[…]}` with status 200, as GitHub sends errors about the whole query; none has a `path`.
    static func errorsOnly(_ errors: [(type: String?, code: String?, message: String)]) -> StandInHTTPResponse {
        var writer = JSONByteWriter(reservingCapacity: 200)
        writer.raw("{\"errors\":[")
        for (position, error) in errors.enumerated() {
            writer.raw(position == 0 ? "{" : ",{")
            if let type = error.type {
                writer.raw("\"type\":")
                writer.string(type)
                writer.raw(",")
            }
            if let code = error.code {
                writer.raw("\"code\":")
                writer.string(code)
                writer.raw(",")
            }
            writer.raw("\"message\":")
            writer.string(error.message)
            writer.raw("}")
        }
        writer.raw("]}")
        return StandInHTTPResponse(status: 200, body: writer.bytes)
    }
}

/// The stand-in's slice of GitHub's schema, and the checks GitHub makes before it runs a query.
struct StandInGraphQLSchema {
    typealias Selection = StandInGraphQLDocument.Selection

    /// Fields by type; a field whose type is an object names it, a scalar names nothing.
    static let types: [String: [String: String?]] = [
        "Query": ["rateLimit": "RateLimit", "repositoryOwner": "RepositoryOwner", "__typename": nil],
        "RateLimit": [
            "cost": nil, "remaining": nil, "resetAt": nil, "limit": nil, "used": nil, "nodeCount": nil,
            "__typename": nil,
        ],
        "RepositoryOwner": ownerFields,
        "User": ownerFields.merging(
            [
                "databaseId": nil, "name": nil, "company": nil, "location": nil, "bio": nil, "twitterUsername": nil,
                "websiteUrl": nil, "email": nil, "isHireable": nil, "isSiteAdmin": nil, "createdAt": nil,
                "updatedAt": nil, "followers": "Connection", "following": "Connection", "repositories": "Connection",
                "gists": "Connection", "contributionsCollection": "ContributionsCollection",
            ], uniquingKeysWith: { first, _ in first }),
        "Organization": ownerFields.merging(
            [
                "databaseId": nil, "name": nil, "location": nil, "email": nil, "websiteUrl": nil, "createdAt": nil,
                "updatedAt": nil, "repositories": "Connection",
            ], uniquingKeysWith: { first, _ in first }),
        "Connection": ["totalCount": nil],
        "ContributionsCollection": ["contributionCalendar": "ContributionCalendar", "__typename": nil],
        "ContributionCalendar": ["totalContributions": nil, "weeks": "ContributionCalendarWeek", "__typename": nil],
        "ContributionCalendarWeek": [
            "contributionDays": "ContributionCalendarDay", "firstDay": nil, "__typename": nil,
        ],
        "ContributionCalendarDay": [
            "date": nil, "contributionCount": nil, "contributionLevel": nil, "weekday": nil, "__typename": nil,
        ],
    ]

    private static let ownerFields: [String: String?] = [
        "__typename": nil, "login": nil, "id": nil, "url": nil, "avatarUrl": nil,
    ]

    /// The types a fragment on `condition` may apply to.
    static func applies(_ condition: String?, to type: String) -> Bool {
        guard let condition else { return true }
        return condition == type || (condition == "RepositoryOwner" && (type == "User" || type == "Organization"))
    }

    let document: StandInGraphQLDocument

    /// `repositoryOwner` lookups in the operation.
    var lookupCount: Int {
        collect(document.operation, type: "Query").reduce(0) { $0 + ($1.fields[0].name == "repositoryOwner" ? 1 : 0) }
    }

    /// Connections asked for under each lookup, with every fragment expanded, as GitHub counts them.
    var connectionCount: Int {
        var count = 0
        for entry in collect(document.operation, type: "Query") where entry.fields[0].name == "repositoryOwner" {
            for type in ["User", "Organization"] {
                count += collect(entry.fields.flatMap(\.selections), type: type).count { entry in
                    Self.types[type]?[entry.fields[0].name] == .some("Connection")
                }
            }
        }
        return count
    }

    /// GitHub's words for the first thing wrong with the query, or nil.
    func validationProblem() -> String? {
        check(document.operation, type: "Query", depth: 0)
    }

    private func check(_ selections: [Selection], type: String, depth: Int) -> String? {
        guard depth < 16 else { return "Query has a fragment cycle or is nested too deeply" }
        for selection in selections {
            switch selection {
            case .field(let field):
                guard let fields = Self.types[type], let fieldType = fields[field.name] else {
                    return "Field '\(field.name)' doesn't exist on type '\(type)'"
                }
                if let problem = checkArguments(field, on: type) { return problem }
                if let objectType = fieldType {
                    guard !field.selections.isEmpty else {
                        return "Field must have selections (field '\(field.name)' returns \(objectType) but has no "
                            + "selections."
                    }
                    if let problem = check(field.selections, type: objectType, depth: depth + 1) { return problem }
                } else if !field.selections.isEmpty {
                    return "Selections can't be made on scalars (field '\(field.name)' returns a scalar)"
                }
            case .inlineFragment(let condition, let inner):
                let target = condition ?? type
                guard Self.types[target] != nil else {
                    return "No such type \(target), so it can't be a fragment condition"
                }
                if let problem = check(inner, type: Self.narrowed(type, by: target), depth: depth + 1) {
                    return problem
                }
            case .fragmentSpread(let name):
                guard let fragment = document.fragments[name] else {
                    return "Fragment \(name) was used, but not defined"
                }
                guard Self.types[fragment.typeCondition] != nil else {
                    return "No such type \(fragment.typeCondition), so it can't be a fragment condition"
                }
                if let problem = check(
                    fragment.selections, type: Self.narrowed(type, by: fragment.typeCondition), depth: depth + 1)
                {
                    return problem
                }
            }
        }
        return nil
    }

    /// Inside `... on User` within a RepositoryOwner, User's own fields are allowed.
    private static func narrowed(_ type: String, by condition: String) -> String {
        type == "RepositoryOwner" || type == condition ? condition : type
    }

    private func checkArguments(_ field: StandInGraphQLDocument.Field, on type: String) -> String? {
        let allowed: Set<String>
        switch (type, field.name) {
        case ("Query", "repositoryOwner"):
            guard case .string = field.arguments["login"] else {
                return "Field 'repositoryOwner' is missing required arguments: login"
            }
            allowed = ["login"]
        case (_, "repositories"): allowed = ["privacy", "ownerAffiliations", "isFork", "first", "last"]
        case (_, "gists"): allowed = ["privacy", "first", "last"]
        case (_, "followers"), (_, "following"): allowed = ["first", "last"]
        case (_, "avatarUrl"): allowed = ["size"]
        case (_, "contributionsCollection"):
            if let problem = StandInContributions.argumentProblem(field.arguments) { return problem }
            allowed = ["from", "to"]
        default: allowed = []
        }
        if let unknown = field.arguments.keys.sorted().first(where: { !allowed.contains($0) }) {
            return "Field '\(field.name)' doesn't accept argument '\(unknown)'"
        }
        return nil
    }

    /// GraphQL's field collection: the selections that apply to `type`, fragments expanded, grouped by
    /// response key in first-seen order, so `login` asked twice is answered once.
    func collect(_ selections: [Selection], type: String, depth: Int = 0)
        -> [(key: String, fields: [StandInGraphQLDocument.Field])]
    {
        var order: [String] = []
        var grouped: [String: [StandInGraphQLDocument.Field]] = [:]
        func visit(_ selections: [Selection], depth: Int) {
            guard depth < 16 else { return }
            for selection in selections {
                switch selection {
                case .field(let field):
                    if grouped[field.responseKey] == nil { order.append(field.responseKey) }
                    grouped[field.responseKey, default: []].append(field)
                case .inlineFragment(let condition, let inner):
                    if Self.applies(condition, to: type) { visit(inner, depth: depth + 1) }
                case .fragmentSpread(let name):
                    if let fragment = document.fragments[name], Self.applies(fragment.typeCondition, to: type) {
                        visit(fragment.selections, depth: depth + 1)
                    }
                }
            }
        }
        visit(selections, depth: depth)
        return order.map { (key: $0, fields: grouped[$0] ?? []) }
    }
}

/// Runs a validated query against the population and writes GitHub's answer: `data` in the order asked, then
/// `errors` for the calendars refused as too much work.
struct StandInGraphQLExecution {
    let document: StandInGraphQLDocument
    let request: StandInRouteRequest
    let cost: Int
    let charge: RateLimitCharge
    private var schema: StandInGraphQLSchema { StandInGraphQLSchema(document: document) }
    /// Lookups GitHub nulled for the work they asked for: their alias and the response key of the collection.
    private var tooMuchWork: [(alias: String, collection: String)] = []

    init(document: StandInGraphQLDocument, request: StandInRouteRequest, cost: Int, charge: RateLimitCharge) {
        self.document = document
        self.request = request
        self.cost = cost
        self.charge = charge
    }

    mutating func run() -> [UInt8] {
        var writer = JSONByteWriter(reservingCapacity: 4_096)
        writer.raw("{\"data\":{")
        for (position, entry) in schema.collect(document.operation, type: "Query").enumerated() {
            if position > 0 { writer.raw(",") }
            writer.string(entry.key)
            writer.raw(":")
            let field = entry.fields[0]
            let inner = entry.fields.flatMap(\.selections)
            switch field.name {
            case "rateLimit": writeRateLimit(inner, into: &writer)
            case "repositoryOwner": writeOwner(field, inner, alias: entry.key, into: &writer)
            default: writer.string("Query")
            }
        }
        writer.raw("}")
        if !tooMuchWork.isEmpty {
            writer.raw(",\"errors\":[")
            for (position, refused) in tooMuchWork.enumerated() {
                writer.raw(position == 0 ? "{" : ",{")
                writer.raw("\"type\":\"RESOURCE_LIMITS_EXCEEDED\",\"path\":[")
                writer.string(refused.alias)
                writer.raw(",")
                writer.string(refused.collection)
                writer.raw(",\"contributionCalendar\"],\"locations\":[{\"line\":1,\"column\":1}],\"message\":")
                writer.string(StandInContributions.resourceLimitsExceeded)
                writer.raw("}")
            }
            writer.raw("]")
        }
        writer.raw("}")
        return writer.bytes
    }

    private func writeRateLimit(_ selections: [StandInGraphQLDocument.Selection], into writer: inout JSONByteWriter) {
        let snapshot = charge.snapshot
        writer.raw("{")
        for (position, entry) in schema.collect(selections, type: "RateLimit").enumerated() {
            if position > 0 { writer.raw(",") }
            writer.string(entry.key)
            writer.raw(":")
            switch entry.fields[0].name {
            case "cost": writer.integer(cost)
            case "remaining": writer.integer(snapshot.remaining)
            case "limit": writer.integer(snapshot.limit)
            case "used": writer.integer(snapshot.used)
            case "nodeCount": writer.integer(schema.lookupCount + schema.connectionCount)
            case "resetAt": writer.string(UTCTimestamp.iso8601(snapshot.reset))
            default: writer.string("RateLimit")
            }
        }
        writer.raw("}")
    }

    private mutating func writeOwner(
        _ field: StandInGraphQLDocument.Field, _ selections: [StandInGraphQLDocument.Selection], alias: String,
        into writer: inout JSONByteWriter
    ) {
        guard case .string(let login) = field.arguments["login"], let user = request.population.user(login: login),
            user.type == "User" || user.type == "Organization"
        else {
            writer.null()
            return
        }
        let entries = schema.collect(selections, type: user.type)
        if let collection = entries.first(where: { $0.fields[0].name == "contributionsCollection" }) {
            let span = StandInContributions.span(collection.fields[0].arguments, now: request.now)
            if StandInContributions.exceedsResourceLimits(user: user, from: span.from, to: span.to) {
                tooMuchWork.append((alias, collection.key))
                writer.null()
                return
            }
        }
        let profile = user.profile
        let counts = request.followGraph.profileCounts(of: user)
        writer.raw("{")
        for (position, entry) in entries.enumerated() {
            if position > 0 { writer.raw(",") }
            writer.string(entry.key)
            writer.raw(":")
            let name = entry.fields[0].name
            switch name {
            case "__typename": writer.string(user.type)
            case "login": writer.string(user.login)
            case "id": writer.string(user.nodeID)
            case "databaseId": writer.integer(user.id)
            case "url": writer.string(user.htmlURL)
            case "avatarUrl": writer.string("https://avatars.githubusercontent.com/u/\(user.id)?v=4")
            case "name": writer.optionalString(profile.name)
            case "company": writer.optionalString(profile.company)
            case "location": writer.optionalString(profile.location)
            case "bio": writer.optionalString(profile.bio)
            case "twitterUsername": writer.optionalString(profile.twitterUsername)
            // GraphQL says null where REST says "" for no blog, and "" where REST says null for no email.
            case "websiteUrl": writer.optionalString(profile.blog.isEmpty ? nil : profile.blog)
            case "email": writer.string(profile.email ?? "")
            case "isHireable": writer.boolean(profile.hireable ?? false)
            case "isSiteAdmin": writer.boolean(user.siteAdmin)
            case "createdAt": writer.string(UTCTimestamp.iso8601(profile.createdAt))
            case "updatedAt": writer.string(UTCTimestamp.iso8601(profile.updatedAt))
            case "followers": writeCount(counts.followers, entry.fields, into: &writer)
            case "following": writeCount(counts.following, entry.fields, into: &writer)
            case "gists": writeCount(profile.publicGists, entry.fields, into: &writer)
            case "contributionsCollection": writeContributions(user, entry.fields, into: &writer)
            case "repositories":
                // Without ownerAffiliations GitHub counts the repositories the account collaborates on too.
                let ownedOnly = entry.fields[0].arguments["ownerAffiliations"].map {
                    $0 == .list([.enumName("OWNER")]) || $0 == .enumName("OWNER")
                }
                let collaborations = ownedOnly == true ? 0 : user.ordinal % 5
                writeCount(profile.publicRepos + collaborations, entry.fields, into: &writer)
            default: writer.null()
            }
        }
        writer.raw("}")
    }

    /// `contributionsCollection { contributionCalendar { … } }`, each level in the order and names asked.
    private func writeContributions(
        _ user: StandInUser, _ fields: [StandInGraphQLDocument.Field], into writer: inout JSONByteWriter
    ) {
        let span = StandInContributions.span(fields[0].arguments, now: request.now)
        let calendar = StandInContributions(user: user, from: span.from, to: span.to, now: request.now)
        writeObject(fields.flatMap(\.selections), type: "ContributionsCollection", into: &writer) { _, inner, writer in
            writeObject(inner, type: "ContributionCalendar", into: &writer) { name, inner, writer in
                guard name == "weeks" else { return writer.integer(calendar.total) }
                writer.raw("[")
                for (position, week) in calendar.weeks.enumerated() {
                    if position > 0 { writer.raw(",") }
                    writeObject(inner, type: "ContributionCalendarWeek", into: &writer) { name, inner, writer in
                        guard name == "contributionDays" else {
                            return writer.string(UTCTimestamp.iso8601(week[0].midnight).prefix(10).description)
                        }
                        writer.raw("[")
                        for (position, day) in week.enumerated() {
                            if position > 0 { writer.raw(",") }
                            writeObject(inner, type: "ContributionCalendarDay", into: &writer) { name, _, writer in
                                switch name {
                                case "date": writer.string(UTCTimestamp.iso8601(day.midnight).prefix(10).description)
                                case "contributionCount": writer.integer(day.count)
                                case "contributionLevel": writer.string(day.level)
                                default: writer.integer(UTCTimestamp.fields(of: day.midnight).weekday)
                                }
                            }
                        }
                        writer.raw("]")
                    }
                }
                writer.raw("]")
            }
        }
    }

    /// An object of `type` with the members asked, in order: `__typename` here, every other member by `member`
    /// (given the field's name and its own selections).
    private func writeObject(
        _ selections: [StandInGraphQLDocument.Selection], type: String, into writer: inout JSONByteWriter,
        member: (String, [StandInGraphQLDocument.Selection], inout JSONByteWriter) -> Void
    ) {
        writer.raw("{")
        for (position, entry) in schema.collect(selections, type: type).enumerated() {
            if position > 0 { writer.raw(",") }
            writer.string(entry.key)
            writer.raw(":")
            if entry.fields[0].name == "__typename" {
                writer.string(type)
            } else {
                member(entry.fields[0].name, entry.fields.flatMap(\.selections), &writer)
            }
        }
        writer.raw("}")
    }

    private func writeCount(_ count: Int, _ fields: [StandInGraphQLDocument.Field], into writer: inout JSONByteWriter) {
        writer.raw("{")
        for (position, entry) in schema.collect(fields.flatMap(\.selections), type: "Connection").enumerated() {
            if position > 0 { writer.raw(",") }
            writer.string(entry.key)
            writer.raw(":")
            writer.integer(count)
        }
        writer.raw("}")
    }
}
