import AtomicCore
import Data
import Domain

/// `gh-users search QUERY`: GitHub's user search, qualifiers and all.
struct SearchUsersOptions: Sendable, Equatable {
    var query: UserSearchQuery
    var paging = PagingOptions()
    var profiles = ProfileOptions()

    /// GitHub serves only the first 1,000 results; asking for more would end in a 422.
    var plan: PagingPlan {
        let capped: ItemLimit
        switch paging.limit {
        case .all: capped = .count(UserSearchQuery.maximumResults)
        case .count(let count): capped = .count(min(count, UserSearchQuery.maximumResults))
        }
        return PagingPlan(limit: capped, requestedPerPage: paging.perPage)
    }

    /// Whether more than the cap was asked for, so the cap is worth a word.
    var wantsMoreThanTheCap: Bool {
        switch paging.limit {
        case .all: return true
        case .count(let count): return count > UserSearchQuery.maximumResults
        }
    }
}

/// `gh-users search`: accounts, and a word on stderr when GitHub's 1,000-result cap or a partial answer limits
/// what could be shown.
enum SearchUsersCommand {
    static let sort = OptionSpec(
        "sort", value: "KEY", help: "followers, repositories or joined.", default: "best match",
        choices: UserSearchQuery.Sort.allCases.map(\.rawValue))
    static let order = OptionSpec(
        "order", value: "DIR", help: "asc or desc (with --sort).", default: "desc",
        choices: SortDirection.allCases.map(\.rawValue))

    static let declaration = Command<SearchUsersOptions>(
        list: ListDeclaration(
            noun: "accounts",
            paging: \.plan,
            list: { GitHubEndpoints.searchUsers($0.query) },
            admission: ListDeclaration.unseen(id: \.id),
            columns: { _ in AccountColumns.summary },
            raw: \.raw,
            presentation: { options, _ in
                .init(
                    noun: "accounts",
                    closingNotes: { taken, total, incomplete in
                        notes(
                            taken: taken, total: total, incomplete: incomplete, wantedMore: options.wantsMoreThanTheCap)
                    }
                )
            },
            profiles: .accounts(\.profiles)
        ),
        spec: CommandSpec(
            name: "search",
            abstract: "Search for accounts (GET /search/users).",
            usage:
                "gh-users search QUERY... [--sort followers|repositories|joined] [--order asc|desc] [--limit N | --all] [options]",
            discussion: """
                The words of QUERY are joined with spaces and sent as GitHub's q parameter, so its qualifiers work:
                type:org, followers:>100, repos:10..50, location:"San Francisco", in:login, created:<2012-01-01.
                GitHub returns at most 1,000 results for any search; gh-users stops there and says so on stderr.
                Searches have their own rate limit (30 a minute with a token, 10 without).
                """,
            arguments: [("QUERY", "Search words and qualifiers.")],
            options: [sort, order],
            examples: [
                ("gh-users search mona", "Accounts whose login or name holds 'mona'."),
                (
                    "gh-users search 'type:org location:Berlin' --sort followers",
                    "Berlin organisations, most followed first."
                ),
                ("gh-users search 'followers:>1000' --all --format ndjson", "Up to GitHub's 1,000-result cap."),
                ("gh-users search 'location:Lisbon' --full --format ndjson", "Full profiles of the hits."),
            ],
            fields: FieldCatalog.searchResult
        ),
        parse: { parsed, spec throws(UsageError) in
            var query: UserSearchQuery
            do {
                query = try UserSearchQuery(text: parsed.positionals.joined(separator: " "))
            } catch {
                throw UsageError(message: "search needs a QUERY (words and qualifiers such as type:org)", command: spec)
            }
            query.sort = try ChoiceOption.parse(parsed, sort, spec: spec)
            query.order = try ChoiceOption.parse(parsed, order, spec: spec)
            return SearchUsersOptions(
                query: query, paging: try PagingOptions.parse(parsed, spec: spec),
                profiles: try ProfileGroup.parse(parsed, spec: spec))
        }
    )

    static func notes(taken: Int, total: Int?, incomplete: Bool, wantedMore: Bool) -> [String] {
        var notes: [String] = []
        if incomplete {
            notes.append("gh-users: GitHub's search timed out before it finished: these results may be incomplete.")
        }
        if let total, total > UserSearchQuery.maximumResults, taken >= UserSearchQuery.maximumResults, wantedMore {
            notes.append(
                "gh-users: GitHub returns only the first \(UserSearchQuery.maximumResults) of the \(total) results; "
                    + "narrow the query (for example with created:<DATE) to reach the rest."
            )
        }
        return notes
    }
}
