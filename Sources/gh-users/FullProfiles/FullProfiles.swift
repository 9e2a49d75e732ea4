import AtomicCore
import Data
import Domain

/// `--full` and its pace: for every listing of accounts.
struct ProfileOptions: OptionValues {
    var full = false
    var concurrency = ProfileGroup.defaultConcurrency
    var via = ProfileSource.rest
}

/// `--full`, `--concurrency`, `--via`: a listing of accounts written as their full profiles.
enum ProfileGroup {
    static let defaultConcurrency = 4
    static let maximumConcurrency = 10

    static let full = OptionDeclaration<ProfileOptions>.flag(
        "full",
        help: "Write each account's full profile (GET /users/{username}) instead of the list's summary: one "
            + "request per account, in the list's order, revalidated through the cache.",
        apply: { options, _ in options.full = true },
        resumedWhen: { $0.full }
    )
    static let concurrency = OptionDeclaration<ProfileOptions>.value(
        OptionSpec(
            "concurrency", value: "N",
            help: "With --full, profile requests in flight at once, 1 to 10; with --via graphql, POSTs in flight and "
                + "each batch's REST requests (organizations, bots)."),
        at: \.concurrency,
        parse: { reading throws(UsageError) in
            let maximum = maximumConcurrency
            let number = try reading.number(in: 1...Int64(maximum), rule: "a whole number from 1 to \(maximum)")
            guard reading.parsed.has(full) else { throw reading.usageError("--concurrency applies only with --full") }
            return number
        },
        resume: { String($0) }
    )
    static let via = OptionDeclaration<ProfileOptions>.value(
        ProfileSource.via,
        at: \.via,
        parse: { reading throws(UsageError) in
            guard reading.parsed.has(full) || reading.command.listsThroughGraphQL else {
                throw reading.usageError("--via applies only with --full")
            }
            return try reading.choice(ProfileSource.self)
        },
        resume: { $0.rawValue }
    )

    static let declared = GroupDeclaration(
        title: "PROFILE OPTIONS", options: [full, concurrency, via])
    static let group = declared.group

    /// How help introduces the fields `--full` writes besides the list's: a profile's, and the list's own keys
    /// each profile keeps (`ProfileStage.kept`), which `--fields` takes with `--full`.
    static let keptLabel = "With --full, also"

    /// `--fields` names a list's fields without `--full`, and a profile's with it: a field only a profile has
    /// (a stargazer record's `id` is the user's, under `user`) would print an empty column or `null` in every
    /// record, so it is a usage error that names the list's own fields; so is a path into one (`location.x`).
    /// With `--changes` the change records' fields are that option's to check (a stargazer change has its `id`).
    static func checkFields(_ options: ProfileOptions, _ parsed: ParsedArguments, spec: CommandSpec)
        throws(UsageError)
    {
        guard !ChangesOption.isGiven(parsed) else { return }
        let trimmed = parsed.chosenFields ?? []
        let kept = spec.optionFields.first { $0.label == keptLabel }?.fields ?? []
        let inList = { (field: String) in spec.fields.contains(field) || spec.fields.contains(field.fieldRoot) }
        if !options.full, let field = trimmed.first(where: { kept.contains($0.fieldRoot) && !inList($0) }) {
            // A key of the list that --full writes beside the profile (forkers' `forked_at`) is no profile's.
            let whose = FieldCatalog.profile.contains(field.fieldRoot) ? "is in a profile" : "is one --full adds"
            throw UsageError(
                message: "the field '\(field)' \(whose), not in this list: add --full, or choose among "
                    + "this list's fields: " + spec.fields.joined(separator: ", "),
                command: spec)
        }
        if options.full,
            let field = trimmed.first(where: {
                !FieldCatalog.profile.contains($0.fieldRoot) && !kept.contains($0.fieldRoot)
            })
        {
            // Named with the fields --full writes, as every other unknown field is (helper-286).
            let fields = FieldCatalog.profile + kept.filter { !FieldCatalog.profile.contains($0) }
            var message = "the field '\(field)' is not in a profile, which --full writes"
            if let suggestion = Suggestions.nearest(to: field, among: fields) {
                message += "; did you mean '\(suggestion)'?"
            }
            throw UsageError(
                message: message + "\n"
                    + UsageError.filled("Valid fields with --full: ", [fields.joined(separator: ", ")]),
                command: spec)
        }
    }
}

/// How a listing's items become full profiles: where its options keep the profile group, how the profiles look,
/// and how they are fetched (`way`: accounts, or records that hold one).
struct ProfileStage<Options: Sendable, Item: Sendable>: Sendable {
    let options: WritableKeyPath<Options, ProfileOptions> & Sendable
    /// Accounts (`AccountProfiles`) or records holding one (`RecordProfiles`).
    let way: any ProfileExpanding<Item>

    /// The list's own keys each profile keeps (`role_name` of a collaborator): `--fields` takes them with
    /// `--full`.
    var kept: [ListedKey] { way.kept }

    /// The profiles' columns, the kept keys' after them.
    func columns(_ render: RenderContext) -> [Column<Item>] {
        way.columns(render)
    }

    /// How the items are expanded with `chosen`'s `--via` and `--concurrency`.
    func expansion(_ chosen: ProfileOptions, _ github: GitHubReader) -> ItemExpansion<Item> {
        way.expansion(chosen, github)
    }
}

/// One way of turning a listing's items into profiles: its columns and its expansion.
protocol ProfileExpanding<Item>: Sendable {
    associatedtype Item: Sendable
    var kept: [ListedKey] { get }
    func columns(_ render: RenderContext) -> [Column<Item>]
    func expansion(_ chosen: ProfileOptions, _ github: GitHubReader) -> ItemExpansion<Item>
}

extension ProfileStage where Item == User {
    /// Accounts, each fetched as `GET /users/{login}`, with `keeping` of the listed account added to its profile.
    static func accounts(
        _ options: WritableKeyPath<Options, ProfileOptions> & Sendable, keeping kept: [ListedKey]
    ) -> Self {
        ProfileStage(options: options, way: AccountProfiles(kept: kept))
    }

    /// Accounts, each fetched as `GET /users/{login}`.
    static func accounts(_ options: WritableKeyPath<Options, ProfileOptions> & Sendable) -> Self {
        accounts(options, keeping: [])
    }
}

/// Accounts written as their profiles (`GET /users/{login}`, or GraphQL a hundred at a time), each with `kept` of
/// the listed account added.
struct AccountProfiles: ProfileExpanding {
    let kept: [ListedKey]

    func columns(_ render: RenderContext) -> [Column<User>] {
        (render.format == .table ? AccountColumns.profile() : ShowUsersRenderer.columns) + kept.columns(render)
    }

    func expansion(_ chosen: ProfileOptions, _ github: GitHubReader) -> ItemExpansion<User> {
        let profiles: any ItemExpander<User>
        let batchSize: Int
        switch chosen.via {
        case .rest:
            (profiles, batchSize) = (RESTProfiles(github: github), 1)
        case .graphql:
            // A hundred lookups a request; `--concurrency` batches in flight, as many POSTs at once.
            profiles = GraphQLProfiles(
                lookups: ProfileSource.graphQLProfiles(github, concurrency: chosen.concurrency), github: github)
            batchSize = GraphQLProfilesUseCase.maximumBatchSize
        }
        return ItemExpansion(
            batchSize: batchSize, concurrency: chosen.concurrency,
            expander: kept.isEmpty ? profiles : KeptKeys(profiles: profiles, kept: kept))
    }
}

/// Each account's profile through REST, one request each.
struct RESTProfiles: ItemExpander {
    let github: GitHubReader

    func expand(_ users: [User]) async -> [Result<User?, DomainError>] {
        var results: [Result<User?, DomainError>] = []
        for user in users { results.append(await ProfileLookup.profile(of: user, from: github)) }
        return results
    }
}

/// A batch of accounts' profiles through GraphQL; on a terminal, what the batches spent and saved.
struct GraphQLProfiles: ItemExpander {
    let lookups: GraphQLProfilesUseCase
    let github: GitHubReader

    func expand(_ users: [User]) async -> [Result<User?, DomainError>] {
        await ProfileLookup.profiles(of: users, via: lookups, from: github)
    }

    func closingNotes() -> [String] {
        let statistics = lookups.statistics
        return statistics.requests > 0 ? [ProfileSource.closingLine(statistics)] : []
    }
}

/// Profiles with the listed account's `kept` keys added.
struct KeptKeys: ItemExpander {
    let profiles: any ItemExpander<User>
    let kept: [ListedKey]

    func expand(_ users: [User]) async -> [Result<User?, DomainError>] {
        zip(users, await profiles.expand(users)).map { listed, result in
            result.map { found in
                found.map { profile in
                    var profile = profile
                    profile.raw = RawJSON(bytes: kept.adding(from: listed.raw.bytes, to: profile.raw.bytes))
                    return profile
                }
            }
        }
    }

    func closingNotes() -> [String] { profiles.closingNotes() }
}

/// One listed account's profile, by login, and by id when the login no longer answers (renamed since it was
/// listed, or a login GitHub would not take back in a path). nil: the account is gone.
enum ProfileLookup {
    /// By login, then by id when the login no longer answers or now names another account (the listed one was
    /// renamed, and its old login taken); nil when the account is gone.
    static func profile(of listed: User, from github: GitHubReader) async -> Result<User?, DomainError> {
        if let login = try? Login(validating: listed.login) {
            switch await GetUsersUseCase.fetch(.login(login), from: github) {
            case .success(let user) where user.id == listed.id: return .success(user)
            case .failure(let error) where !error.isNotFound: return .failure(error)
            case .success, .failure: break
            }
        }
        return await byID(listed, from: github)
    }

    /// A batch of listed accounts through GraphQL (REST for what it cannot give), in order. A login that GraphQL
    /// and REST both call missing, or that now names another account, is looked for by id.
    static func profiles(
        of listed: [User], via lookups: GraphQLProfilesUseCase, from github: GitHubReader
    ) async -> [Result<User?, DomainError>] {
        let logins = listed.map { try? Login(validating: $0.login) }
        // An organization or a bot is no GraphQL User: REST gives its profile, asked for beside the POST.
        let valid = zip(listed, logins).compactMap { user, login in login.map { (user.type, $0) } }
        let restOnly = Set(valid.indices.filter { [.organization, .bot].contains(valid[$0].0) })
        let found = await lookups.execute(valid.map(\.1), restOnly: restOnly)
        var answers = found.makeIterator()
        var results: [Result<User?, DomainError>] = []
        for (user, login) in zip(listed, logins) {
            let answer = login == nil ? nil : answers.next()
            switch answer {
            case .success(let profile)? where profile.id == user.id:
                results.append(.success(profile))
            case .failure(let error)? where !error.isNotFound:
                results.append(.failure(error))
            default:
                results.append(await byID(user, from: github))
            }
        }
        return results
    }

    /// `GET /user/{id}`: the account whatever its login now (an answer of another id is refused there, as
    /// malformed); nil when it is gone.
    private static func byID(_ listed: User, from github: GitHubReader) async -> Result<User?, DomainError> {
        switch await GetUsersUseCase.fetch(.id(listed.id), from: github) {
        case .success(let user):
            return .success(user)
        case .failure(let error) where error.isNotFound:
            return .success(nil)
        case .failure(let error):
            return .failure(error)
        }
    }
}

extension DomainError {
    var isNotFound: Bool {
        if case .notFound = self { return true }
        return false
    }
}

extension ProfileOptions: CheckedOptions {
    /// The rule is about `--fields`, an output option.
    static var relatedOptions: [OptionSpec] { [OutputGroup.fields.spec] }

    func check(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        try ProfileGroup.checkFields(self, parsed, spec: spec)
    }
}
