import AtomicCore
import Data
import Domain
import Foundation
import JSONBytes

/// `gh-users access ORG`: the organization's access map, one record per repository and person with access,
/// with the permission, where it comes from, how the person stands to the organization and their two-factor
/// state, read through GraphQL (`AccessReading`) and written as it arrives, sorted by repository then login.
struct AccessCommand: GitHubCommand {
    var organization: Login
    /// `--repo NAME`, repeatable: those repositories alone.
    var repositories: [String] = []
    var person: String?
    var permission: RepositoryPermissionLevel?
    var affiliation: AccessRecord.Affiliation?
    var concurrency = 4
    /// `--changes FILE`: what changed since the map the file holds.
    var changes: String?
    /// `--state FILE`: where an interrupted map goes on from.
    var statePath: String?

    static let maximumConcurrency = 10

    static let repo = OptionDeclaration<AccessCommand>(
        spec: OptionSpec(
            "repo", value: "NAME", help: "Only this repository of ORG; repeat for more.", repeatable: true),
        read: { options, reading throws(UsageError) in
            for name in reading.parsed.values(reading.option) {
                guard !name.isEmpty, !name.contains("/"), (try? RepositoryName(validating: "o/" + name)) != nil else {
                    throw reading.usageError("--repo takes a repository's name within ORG, such as Hello-World")
                }
                // GitHub's names are case-insensitive: Docs is docs, named once (before: "repo=docs,docs" recorded,
                // and the same map refused as another's; a review's find).
                if !options.repositories.contains(where: { $0.lowercased() == name.lowercased() }) {
                    options.repositories.append(name)
                }
            }
        },
        resume: { $0.repositories.flatMap { ["--repo", $0] } })
    static let person = OptionDeclaration<AccessCommand>.optional(
        OptionSpec("person", value: "LOGIN", help: "Only this person's access: each repository, and why."),
        at: \.person,
        parse: { reading throws(UsageError) in
            // Beside a repeatable --repo, a second --person reads as "and this one too": refused, not the last kept.
            let logins = Set(reading.parsed.values(reading.option).map { $0.lowercased() })
            guard logins.count < 2 else {
                throw reading.usageError("--person takes one login: run once for each person, or without it for all")
            }
            return try LoginArgument.parse(reading.text, spec: reading.command, option: "person").value
        },
        write: { $0 })
    /// GraphQL's words for a level, as the records say it; REST's pull and push, as `collaborators` takes them,
    /// are read and write.
    static let permission = OptionDeclaration<AccessCommand>.optional(
        OptionSpec(
            "permission", value: "LEVEL", help: "This level or higher (pull is read, push is write).",
            choices: RepositoryPermissionLevel.allCases.map(\.rawValue) + ["pull", "push"]),
        at: \.permission,
        parse: { reading throws(UsageError) in
            let words = ["pull": "read", "push": "write"]
            // One level keeps it and those above: a second is no "and this one too", as beside --repo it reads.
            try reading.oneValue(same: words, advice: "one level keeps it and the levels above")
            guard let level = RepositoryPermissionLevel(rawValue: words[reading.text] ?? reading.text) else {
                throw .invalidChoice(reading.option, reading.text, spec: reading.command)
            }
            return level
        },
        write: \.rawValue)
    static let affiliation = OptionDeclaration<AccessCommand>.optional(
        OptionSpec(
            "affiliation", value: "WHO", help: "Only this affiliation; a null one matches none.",
            choices: ["outside", "member", "owner"]),
        at: \.affiliation,
        parse: { reading throws(UsageError) in
            try reading.oneValue(advice: "run once for each, or without it for all")
            return try reading.choice(AccessRecord.Affiliation.self)
        },
        write: \.rawValue)
    static let concurrencyOption = OptionDeclaration<AccessCommand>(
        spec: OptionSpec("concurrency", value: "N", help: "GraphQL requests at once, 1 to 10.", default: "4"),
        read: { options, reading throws(UsageError) in
            options.concurrency = try reading.number(
                in: 1...Int64(maximumConcurrency), rule: "a whole number from 1 to \(maximumConcurrency)")
        },
        resume: { $0.concurrency == 4 ? [] : ["--concurrency", String($0.concurrency)] })
    static let changesOption = ChangesOption.declaration(
        at: \AccessCommand.changes, fields: AccessChange.fields,
        help: "What changed since FILE's map; FILE is then replaced.")
    static let stateOption = OptionDeclaration<AccessCommand>.optional(
        OptionSpec(
            "state", value: "FILE",
            help: "Go on where the map in FILE stopped; record it there.",
            path: .file),
        at: \.statePath,
        parse: { reading throws(UsageError) in
            _ = try reading.filePath()
            let parsed = reading.parsed
            let format = parsed.has(OutputGroup.json) ? OutputFormat.json.rawValue : parsed.value(OutputGroup.format)
            if let format, format == OutputFormat.json.rawValue || format == OutputFormat.table.rawValue {
                throw reading.usageError(
                    "--state needs a format that can be appended to (tsv, csv or ndjson), not \(format)")
            }
            return reading.text
        },
        write: { $0 })
    static let options = GroupDeclaration(
        title: "OPTIONS",
        options: [repo, person, permission, affiliation, concurrencyOption, changesOption, stateOption])

    static let spec = CommandSpec(
        name: "access",
        abstract:
            "Show who can reach each repository of an organization, and why (GraphQL; a token with read:org and repo).",
        usage:
            "gh-users access ORG [--repo NAME]... [--person LOGIN] [--permission LEVEL] "
            + "[--affiliation outside|member|owner] [--concurrency N] [--changes FILE | --state FILE] [options]",
        discussion: """
            It needs a token with read:org and repo (exit status 4 without one), and GitHub shows a
            repository's collaborators only to those with push access to it. Each record is one person's access
            to one repository of ORG the token can read (archived ones too): repository, login, id, permission,
            affiliation (owner, member or outside; null where the token cannot tell), sources and two_factor.
            sources is every source GitHub gives for that access, as it lists them: kind (organization, team or
            repository), name and permission (the role it grants).

            repository is ORG/NAME as GitHub names it, --repo's too; permission is read, triage, write,
            maintain or admin. A source's name is the organization's login, the team's slug or ORG/NAME; access
            through a child team names the team that grants it, and GitHub gives an owner's admin from the
            organization and from the repository (a repository source is not always a direct grant). affiliation comes from the members GitHub lists, whole only to a
            member: someone it does not list is a member whose role is not shown (null) when reached through the
            organization or a team, outside when the token's own account is listed, else null; --affiliation
            keeps none whose affiliation is null, and stderr says how many of them may be the one asked for.
            two_factor is true or false where GitHub tells the token, null where it does not (an outside
            collaborator, or a token that may not see it). Records are sorted by repository, then login, case
            aside, so two runs compare line by line; the table shows REPOSITORY, LOGIN, PERMISSION, AFFILIATION,
            VIA (the sources in words, strongest first: org: read is ORG's base permission) and 2FA; in tsv and
            csv each column holds what the record holds under its name, sources its JSON array, in GitHub's order.

            It reads through GraphQL. The members come first (100 a page), then the repositories'
            collaborators, ten repositories' pages of 100 people in one request, up to --concurrency requests at
            once; a repository of more people is continued where it left off, and a request GitHub finds too
            large is asked again smaller; a person a repository's pages give twice is one record, the first.
            --repo's names are looked up first, 100 a request. With --person, GitHub is asked for that person
            alone, fifty repositories a request, and, when it matched no record, once (GET /users/LOGIN) whether
            it knows the login: a person with no access is no record, exit 0. A repository whose
            collaborators GitHub refuses is named on stderr, with how many there were, after the records of the
            others: the exit status is then 1, so a partial map never looks complete. When it refuses every
            one, the token could read none and there is no map: exit status 4, saying what the token needs
            (push access, or an owner's token with read:org and repo). An unknown organization,
            a --repo that is not there, or a --person GitHub knows no account of is exit status 3; a spent
            GraphQL rate limit is exit status 5, or a wait with --wait-on-rate-limit.

            With --changes FILE it writes what changed since the map FILE holds instead: one record per change,
            with change (added, removed, or changed: another permission, or the same from other sources),
            repository, login, id, old_permission, new_permission, old_sources and new_sources (null where
            there is none; in tsv and csv the JSON arrays, empty for null); then FILE holds this map. The first
            run records the map and says so. FILE is written whole or not at all (0600), one run at a time; it
            is left as it was when the run fails, when GitHub refused a repository (a partial map is never
            recorded), when the map collapsed (a listing under half its totalCount, a repository with no one, or
            without --person no one where FILE holds records), or when FILE was made for another organization
            or other filters, or against another API root (--api-url, GH_HOST); a FILE that holds a repository and person twice is refused (exit 1). It
            compares the map as GitHub has it now, so --offline cannot be used with it.

            With --state FILE a map that stops (Ctrl-C, a rate limit, a failure, a kill) goes on where it
            stopped when the same command is run again, appending to the same output: FILE records the last
            repository whose records were written, after each one, and the rerun asks nothing for the
            repositories up to it. The format is then tsv (the default), csv or ndjson, which can be appended to.
            Appending to a file (>> FILE), FILE records its length too, and what a kill or a full disk left past
            the last recorded repository is kept where the rerun's first records begin with it to the byte (said
            on stderr), so no record is written twice; anything else there is exit 1, nothing written. The file
            is known by its bytes before that length, renamed or copied too; recorded empty, another file's
            bytes are kept where they begin the map. stderr must not go into that file (2>&1): exit 1 before
            anything is asked, said on the terminal (with none, only into a stopped map's file, where the
            next run refuses it).
            To a pipe, FILE records a repository once the reader has read 128 KiB past it, and the run waits
            for the reader at the end; one that leaves first (| head) is exit 1, and its last reads come again.
            A map read to its end stays recorded: a rerun writes nothing and says so; remove FILE to read the
            map again. A map of which no repository could be read (exit status 4) is not recorded: a rerun reads
            it from the start; an unknown organization (exit status 3) leaves no FILE. A FILE made for another organization, other filters, another format or other --fields,
            or against another API root (--api-url, GH_HOST), is exit 1 and left as it is; so is a FILE another
            run is using.
            """,
        arguments: [("ORG", "The organization, such as github.")],
        options: options.group.options,
        examples: [
            ("gh-users access my-org", "Everyone's access to every repository, and why."),
            ("gh-users access my-org --person mona", "Every repository mona reaches, and through what."),
            ("gh-users access my-org --affiliation outside --format csv", "Outside collaborators, as CSV."),
            ("gh-users access my-org --changes my-org.access.json", "What changed since the last run."),
            (
                "gh-users access my-org --state my-org.state >> my-org.tsv",
                "A resumable map: run it again after a stop to go on."
            ),
        ],
        fields: ["repository", "login", "id", "permission", "affiliation", "sources", "two_factor"],
        optionFields: [("With --changes", AccessChange.fields)]
    ).taking(.login).holdingOwnRecords()

    static let columns: [Column<AccessRecord>] = [
        Column("REPOSITORY", key: "repository", shrink: .second) { $0.repository },
        Column("LOGIN", key: "login") { $0.login },
        Column("PERMISSION", key: "permission") { $0.permission.rawValue },
        Column("AFFILIATION", key: "affiliation") { $0.affiliation?.rawValue ?? "" },
        Column("VIA", key: "sources", shrink: .first) { via($0.sources) },
        Column("2FA", key: "two_factor") { $0.twoFactor.map { $0 ? "true" : "false" } ?? "" },
    ]

    /// The columns `format` writes: the table says the sources in words (VIA); tsv and csv hold under each name
    /// what the record holds there, `sources` its JSON array, as JSON and `--fields` write it.
    static func columns(for format: OutputFormat) -> [Column<AccessRecord>] {
        guard format != .table else { return columns }
        return columns.map { column in
            guard column.key == "sources" else { return column }
            return Column("SOURCES", key: "sources", shrink: .first) { JSONText.text(of: "sources", in: $0.raw.bytes) }
        }
    }

    /// "repo: admin, team devs: write, org: read": the strongest first (a custom role at the level GitHub says it
    /// grants), so that a cut VIA still names what grants the PERMISSION shown; equals, and sources of no known
    /// level (after the rest), keep GitHub's order. The organization is always ORG, so its name is left out: at 80
    /// columns VIA said "organization g…" on every row.
    static func via(_ sources: [AccessRecord.Source]) -> String {
        let strongestFirst = sources.enumerated().sorted { left, right in
            switch (left.element.level, right.element.level) {
            case (let stronger?, let weaker?) where stronger != weaker: stronger > weaker
            case (.some, nil): true
            case (nil, .some): false
            default: left.offset < right.offset
            }
        }.map(\.element)
        return strongestFirst.map { source in
            switch source.kind {
            case .organization: "org: \(source.permission)"
            case .team: "team \(source.name): \(source.permission)"
            case .repository: "repo: \(source.permission)"
            }
        }.joined(separator: ", ")
    }

    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        organization = try parsed.login(spec)
        try Self.options.parse(parsed, spec: spec, into: &self)
    }

    /// Exit 4 without a token; with `--state`, the state taken on (a map already complete ends here, as it
    /// ended); then the membership, then the map, written as it arrives and recorded in the state; then the
    /// repositories GitHub would not show, and exit 1 if there were any.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        let ownFile = changes.map { SnapshotFile<AccessSnapshot>(path: $0).file } ?? statePath.map(AccessStateFile.file)
        if let refusal = ownFile?.outputRefusal(output: nil, stdoutFile: context.stdoutFile, command: Self.spec) {
            return refusal
        }
        // Before the token's check too, whose message would go into the map's file.
        if let statePath, AccessStateFile.sharesStderr(statePath, stdoutFile: context.stdoutFile, io: context.io) {
            return .setupFailed
        }
        guard context.presenter.hasToken else {
            return TokenRequirement(
                command: "access",
                hint: "It reads through GraphQL: a classic token needs read:org and repo, and push access to a "
                    + "repository to see its collaborators.\n"
            ).refuse(context)
        }
        if let changes { return await recordChanges(changes, context, github) }
        var output = AccessOutput(command: self, context: context)
        if let statePath {
            // As `list --state`: a stdout file must append (`>>`), and one crawl at a time writes it. A file that
            // holds no map's state (another command's, a damaged one, another map's) is said first, as it is, and
            // never offered for removal as this map's.
            // stdout a pipe: the state records only the repositories its reader took.
            let pipe = PipeTally<AccessPlace>.of(context.io.out)
            let appending = context.appending(to: pipe)
            let fresh = freshState(appending.render, apiURL: RecordedAPIRoot.of(github.apiRoot))
            switch AccessStateFile.open(statePath, as: fresh, io: context.io, stdoutFile: context.stdoutFile) {
            case .success(let state):
                output = AccessOutput(command: self, context: appending, state: state, pipe: pipe)
            case .failure(.setupFailed):
                return .setupFailed
            case .failure(.complete(let state, let shown)):
                return AccessOutput(command: self, context: appending).closeComplete(state, file: shown)
            }
        }
        let reading = AccessReading(
            organization: organization, github: github, concurrency: concurrency, person: person)
        var summary = AccessReadSummary()
        do throws(DomainError) {
            output.progress.show("Reading \(organization)'s members…")
            let members = try await reading.members(counting: &summary)
            if let refusal = output.read(by: members.viewer) { return refusal }
            try await reading.read(
                members: members, only: repositories.isEmpty ? nil : repositories, after: output.state?.state.after,
                into: &output, counting: &summary)
            try await checkPerson(matched: summary.records + (output.state?.state.records ?? 0), github)
        } catch {
            return await output.fail(error)
        }
        return await output.close(summary)
    }

    /// The state this run starts a new map with.
    private func freshState(_ render: RenderContext, apiURL: String) -> AccessState {
        AccessState(
            organization: organization.value, filters: snapshotFilters, format: render.format, fields: render.fields,
            apiURL: apiURL)
    }

    /// A `--person` that `matched` no record: one REST request (`GET /users/{login}`) tells a person with no
    /// access, the empty map, from a login GitHub does not know, `notFound` (exit 3) as `show` says it. Asked
    /// after the read, not before: a person with access costs nothing, where the read costs a login unknown
    /// only a few GraphQL points.
    func checkPerson(matched: Int, _ github: GitHubReader) async throws(DomainError) {
        guard let person, matched == 0 else { return }
        _ = try await github.user(login: Login(validating: person))
    }

    /// Each repository `--repo` named that is not there, as the failure it is (exit 3), in the map's order; none
    /// when there is none. A listed repository gone before its read is no failure: the map without it is the map.
    func missing(_ names: [String]) -> [DomainError] {
        guard !repositories.isEmpty else { return [] }
        return names.map { .notFound(resource: "repository '\($0)'", byGraphQL: true) }
    }

    /// The listed repositories GitHub found no more when their collaborators were read (deleted, or moved away,
    /// meanwhile), said: the map leaves them out, so a `--changes` that reports their people removed says why.
    /// Nil for none, and with `--repo`, whose names not there are `missing`'s failures.
    func goneNote(_ names: [String]) -> String? {
        guard repositories.isEmpty, !names.isEmpty else { return nil }
        let shown = names.prefix(5).joined(separator: ", ") + (names.count > 5 ? " and \(names.count - 5) more" : "")
        let their = names.count == 1 ? "its" : "their"
        return TerminalSanitizer.sanitize(
            "gh-users: left out of the map, gone when \(their) collaborators were read (deleted or moved since "
                + "they were listed): \(shown).") + "\n"
    }

    /// Whether `record` passes the filters. `--affiliation` keeps only the records whose affiliation is known to
    /// be the one it names: a null one is none of them.
    func keeps(_ record: AccessRecord) -> Bool {
        keepsAsideAffiliation(record) && (affiliation == nil || record.affiliation == affiliation)
    }

    private func keepsAsideAffiliation(_ record: AccessRecord) -> Bool {
        if let person, record.login.lowercased() != person.lowercased() { return false }
        if let permission, record.permission < permission { return false }
        return true
    }

    /// How many of `records` pass the filters but for `--affiliation`, with an affiliation the token cannot tell
    /// that may be the one `--affiliation` names: an outside collaborator has no access through the organization
    /// or its teams, and an owner always has the organization's admin (a base permission below it is no owner's).
    func unknownAffiliations(_ records: [AccessRecord]) -> Int {
        records.count { record in
            guard record.affiliation == nil, keepsAsideAffiliation(record) else { return false }
            switch affiliation {
            case .outside: return record.sources.allSatisfy { $0.kind == .repository }
            case .owner: return record.sources.contains { $0.kind == .organization && $0.permission == "admin" }
            case .member, nil: return true
            }
        }
    }

    /// What stderr says when `count` records' affiliation was not known: written as null, or left out by
    /// `--affiliation`, and why.
    func affiliationNote(_ count: Int) -> String? {
        guard count > 0 else { return nil }
        let records = Counted.text(count, plural: "records")
        let what =
            affiliation.map { "--affiliation \($0.rawValue) left out \(records) whose affiliation is null" }
            ?? "\(records) \(count == 1 ? "has" : "have") a null affiliation"
        return TerminalSanitizer.sanitize(
            "gh-users: \(what): GitHub did not list \(count == 1 ? "that person" : "those people") among "
                + "\(organization)'s members to this token, and lists every member only to a member (a member's "
                + "token with read:org tells owners, members and outside collaborators apart).") + "\n"
    }
}

extension AccessRecord: JSONRecord {}

extension AccessCommand: CheckedOptions {
    /// A field only the change records have is refused without `--changes`.
    func check(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        if changes != nil, statePath != nil {
            throw UsageError(
                message: "--changes compares whole maps and --state resumes one: give one of them", command: spec)
        }
        // `chosenFields` is nil for a --fields given twice, which OutputGroup refuses as such.
        guard changes == nil, let fields = parsed.chosenFields else { return }
        guard let field = fields.first(where: { !spec.fields.contains($0) && AccessChange.fields.contains($0) }) else {
            return
        }
        throw UsageError(
            message: "the field '\(field)' exists only with --changes, whose records have "
                + AccessChange.fields.joined(separator: ", "),
            command: spec)
    }
}
