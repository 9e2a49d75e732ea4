import AtomicCore
import Data
import Domain
import Foundation

/// `gh-users search QUERY`: GitHub's user search, qualifiers and all.
struct SearchUsersOptions: PagedOptions {
    var query: UserSearchQuery
    var paging = PagingOptions()
    /// `--split`: the query is cut into `created:` ranges of 1,000 results or fewer, each paged in turn.
    var split = false
    var profiles = ProfileOptions()

    /// GitHub serves only the first 1,000 results of one query; asking for more would end in a 422. A split
    /// search asks many queries, so its limit is the user's.
    var plan: PagingPlan {
        if split { return PagingPlan(limit: paging.limit, requestedPerPage: paging.perPage) }
        let capped: ItemLimit
        switch paging.limit {
        case .all: capped = .count(UserSearchQuery.maximumResults)
        case .count(let count): capped = .count(min(count, UserSearchQuery.maximumResults))
        }
        return PagingPlan(limit: capped, requestedPerPage: paging.perPage)
    }

    /// Whether more than the cap was asked for, so the cap is worth a word.
    var wantsMoreThanTheCap: Bool {
        if split { return false }
        switch paging.limit {
        case .all: return true
        case .count(let count): return count > UserSearchQuery.maximumResults
        }
    }
}

/// `gh-users search`: accounts, and a word on stderr when GitHub's 1,000-result cap or a partial answer limits
/// what could be shown.
enum SearchUsersCommand {
    static let sort = OptionDeclaration<SearchUsersOptions>.choice(
        OptionSpec(
            "sort", value: "KEY", help: "followers, repositories or joined.", default: "best match",
            choices: UserSearchQuery.Sort.allCases.map(\.rawValue)),
        at: \.query.sort)
    static let order = OptionDeclaration<SearchUsersOptions>.choice(
        OptionSpec(
            "order", value: "DIR", help: "asc or desc (with --sort).", default: "desc",
            choices: SortDirection.allCases.map(\.rawValue)),
        at: \.query.order)
    static let split = OptionDeclaration<SearchUsersOptions>.flag(
        OptionSpec(
            "split",
            help: "Get past the 1,000-result cap: cut the query into created: ranges of 1,000 results or fewer and "
                + "page each (not with --sort, --order or a created: qualifier)."),
        at: \.split)
    static let options = GroupDeclaration<SearchUsersOptions>(
        title: "OPTIONS", options: [sort, order, split])

    static let spec = CommandSpec(
        name: "search",
        abstract: "Search for accounts (GET /search/users).",
        usage:
            "gh-users search QUERY... [--sort followers|repositories|joined] [--order asc|desc] [--split] [--limit N | --all] [options]",
        discussion: """
            The words of QUERY are joined with spaces and sent as GitHub's q parameter, so its qualifiers work:
            type:org, followers:>100, repos:10..50, location:"San Francisco", in:login, created:<2012-01-01.
            GitHub returns at most 1,000 results for any search; gh-users stops there and says so on stderr.
            Searches have their own rate limit (30 a minute with a token, 10 without).

            --split gets past the cap: while a query has more than 1,000 results, it is cut in two by
            creation time (created:, from the day the first account was made, 2007-10-20, through tomorrow in UTC by this
            clock or GitHub's, whichever is later, so a clock behind GitHub's misses no account; by days,
            then hours, then seconds), and each piece of 1,000 or fewer is paged in turn, oldest first (within a piece, in GitHub's best-match order),
            each account written once. --limit and --all count the whole output. A spent search limit is waited out
            (with a countdown on a terminal), for at most --max-wait. stderr ends with the number of
            search queries used, and names any piece still over 1,000 (only possible when over 1,000
            accounts were created in one second: its first 1,000 are written, and the run ends with status 1). A count GitHub marks
            incomplete (its search timed out: incomplete_results) settles nothing, so that range is cut too,
            down to one second (an incomplete 0 four times in a row); a piece still incomplete, or a later
            page GitHub marks incomplete, is written and named on stderr, and the run ends with status 1. A
            piece that ends with fewer accounts than its count (GitHub's results moved between its pages) is
            read again once, and the accounts it missed written after it; still short, it is named on stderr
            and the run ends with status 1. A split spends at most
            10,000 search queries, counts and pages alike (about five and a half hours at 30 a minute): at
            the cap it stops with status 1 and says so. A split that stops (Ctrl-C, a failure) cannot go on
            where it stopped: a rerun starts again from the first piece, so write it to a new file. A
            negative total_count is refused (status 1); a first half counted above its whole (the counts
            changed between asks) has its second half counted on its own, and stderr says so. The pieces
            make their own created: ranges, so the query may not hold one (nor a quote left open), and
            they come in created order, so --sort and --order do not apply.
            """,
        arguments: [("QUERY", "Search words and qualifiers.")],
        options: options.group.options,
        examples: [
            ("gh-users search mona", "Accounts whose login or name holds 'mona'."),
            (
                "gh-users search 'type:org location:Berlin' --sort followers",
                "Berlin organisations, most followed first."
            ),
            ("gh-users search 'followers:>1000' --all --format ndjson", "Up to GitHub's 1,000-result cap."),
            ("gh-users search 'location:Berlin' --full --format ndjson", "Full profiles of the hits."),
            (
                "gh-users search 'location:Berlin' --split --all --format ndjson",
                "Every match, past the cap, one created: range at a time."
            ),
        ],
        fields: FieldCatalog.searchResult
    ).paging("accounts", profiles: true)

    static let incompleteNote =
        "gh-users: GitHub's search timed out before it finished: these results may be incomplete."

    /// Whether a word of the query is a `created:` qualifier (or its negation, `-created:`), in any case.
    static func hasCreatedQualifier(_ text: String) -> Bool {
        text.split(whereSeparator: \.isWhitespace).contains { word in
            let lowered = word.lowercased()
            return lowered.hasPrefix("created:") || lowered.hasPrefix("-created:")
        }
    }

    /// `splittable`: `--split` would take the query (no `--sort`, `--order` or `created:`), so the note names it.
    static func notes(taken: Int, total: Int?, incomplete: Bool, wantedMore: Bool, splittable: Bool = true)
        -> [String]
    {
        var notes: [String] = []
        if incomplete {
            notes.append(incompleteNote)
        }
        if let total, total > UserSearchQuery.maximumResults, taken >= UserSearchQuery.maximumResults, wantedMore {
            notes.append(
                "gh-users: GitHub returns only the first \(UserSearchQuery.maximumResults) of the \(total) results; "
                    + (splittable
                        ? "--split reaches them all, or narrow the query (for example with created:<DATE)."
                        : "narrow the query (for example with created:<DATE) to reach the rest.")
            )
        }
        return notes
    }
}

extension SearchUsersOptions: GitHubCommand {
    static var spec: CommandSpec { SearchUsersCommand.spec }

    /// The QUERY, the search's options, then the paging and profile groups.
    init(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        let query: UserSearchQuery
        do {
            query = try UserSearchQuery(text: parsed.positionals.joined(separator: " "))
        } catch {
            throw UsageError(message: "search needs a QUERY (words and qualifiers such as type:org)", command: spec)
        }
        self.init(query: query)
        try SearchUsersCommand.options.parse(parsed, spec: spec, into: &self)
        paging = parsed.paging
        profiles = parsed.profiles
    }

    /// Exit 4 without a token for `--full --via graphql`; then `GET /search/users` up to GitHub's 1,000-result
    /// cap, or with `--split` the query cut into `created:` ranges; and a word on stderr when the cap or a
    /// partial answer limited what could be shown.
    func run(_ context: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if profiles.full, profiles.via == .graphql, !context.presenter.hasToken {
            return ProfileSource.tokenRequirement(command: "search").refuse(context)
        }
        let plan = self.plan
        let pages: PagedListViewModel<User>
        var search: SplitUserSearch?
        if split {
            // The notes go with each page, as they stand after it: the last page's are the run's.
            let splitting = SplitUserSearch(
                github: github, query: query, perPage: plan.perPage, now: context.render.now)
            search = splitting
            pages = PagedListViewModel(limit: plan.limit, pages: splitting)
        } else {
            pages = PagedListViewModel(
                GitHubEndpoints.searchUsers(query), plan: plan, github: github)
        }
        let full = profiles.full ? ProfileStage<SearchUsersOptions, User>.accounts(\.profiles) : nil
        let render = context.render
        var stream = ListStream(
            noun: "accounts",
            columns: !render.readsColumns ? [] : full.map { $0.columns(render) } ?? AccountColumns.summary,
            command: split ? context.waitingOutSearchLimit() : context)
        stream.emptyNote = "no accounts matched your search"
        if split {
            stream.stoppedNote =
                "gh-users: a rerun of a --split search starts again from its first piece: write it to a new file"
        }
        stream.expansion = full.map { $0.expansion(profiles, github) }
        let end = await stream.stream(pages)
        // A split search's notes are its own (the loader's).
        let notes =
            split
            ? []
            : SearchUsersCommand.notes(
                taken: end.taken, total: end.totalCount, incomplete: end.incompleteResults,
                wantedMore: wantsMoreThanTheCap,
                splittable: query.sort == nil && query.order == nil
                    && !SearchUsersCommand.hasCreatedQualifier(query.text))
        let outcome = stream.close(end, notes: notes)
        // A split that read a piece only in part (GitHub's search timed out) wrote what it found: status 1.
        if outcome == .success, let failure = search?.partFailure() {
            context.io.writeErr(context.presenter.present(failure).message)
            return .failed(failure)
        }
        return outcome
    }
}

extension SearchUsersOptions: CheckedOptions {
    func check(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) {
        // GitHub ignores `order` unless `sort` is given: the results would come in best-match order.
        if !split, query.order != nil, query.sort == nil {
            throw UsageError(
                message: "--order orders by --sort, which was not given: GitHub would ignore it and answer in "
                    + "best-match order",
                command: spec)
        }
        guard split else { return }
        if query.sort != nil || query.order != nil {
            throw UsageError(
                message: "--split writes the pieces in created order; it cannot be combined with --sort or --order",
                command: spec)
        }
        if SearchUsersCommand.hasCreatedQualifier(query.text) {
            throw UsageError(
                message: "--split makes its own created: ranges; leave created: out of the query", command: spec)
        }
        // Each piece's `created:` goes after the query: an open quote would take it in as words to match, and
        // every piece would count the whole query's results.
        if query.text.filter({ $0 == "\"" }).count % 2 == 1 {
            throw UsageError(
                message: "the query has a quote that is not closed, which would take in the created: ranges --split "
                    + "adds after it: close it", command: spec)
        }
    }
}
