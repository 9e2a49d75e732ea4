import AtomicCore
import Data
import Domain
import Foundation

/// `followers [LOGIN] --changes FILE` and `following [LOGIN] --changes FILE`: who came and went since the last
/// run, by comparing the whole list now with the snapshot in FILE, then recording the list in FILE.
enum FollowerChanges {
    static let option = ChangesOption.declaration(
        at: \FollowListOptions.changes, fields: ListChange.fields,
        help: "Write who came and went since the last run with FILE, then record the list in FILE.")

    /// Without `--changes`, a field only its records have is refused.
    @Sendable static func checkFields(_ options: FollowListOptions, _ parsed: ParsedArguments, spec: CommandSpec)
        throws(UsageError)
    {
        try ChangesOption.checkFields(options.changes, parsed, spec: spec, fields: ListChange.fields)
    }
}

/// One `--changes` run: lock and read the snapshot, read the account's profile (its id, its login, the size of its
/// lists), read the whole list (through the set operation, if any), write the changes, and only then replace the
/// snapshot. A run that stops before its changes are all written (a failed request, a spent rate limit, Ctrl-C, a
/// full disk, a closed pipe) leaves the snapshot as it was, so the next run reports the same changes again: none
/// is ever lost. So does a run that finds the snapshot was of another account, a list that collapsed (far below its
/// profile's count, or to empty: `ListCollapse`), or a list the snapshot could not hold.
struct FollowerChangesCoordinator {
    let file: FollowSnapshotFile
    let relation: UserRelation
    /// The set operation's option, without its dashes.
    let filter: String?
    let options: FollowListOptions
    let github: GitHubReader
    let command: CommandContext

    init(
        relation: UserRelation, options: FollowListOptions, path: String, github: GitHubReader,
        command: CommandContext
    ) {
        file = FollowSnapshotFile(path: path)
        filter = FollowListCommand.filters(relation).first { $0.filter == options.filter }?.option.name
        self.relation = relation
        self.options = options
        self.github = github
        self.command = command
    }

    /// The command as it was given, in words: `followers octocat --mutual`, `followers` for the token's own.
    private var requested: String {
        ([relation.rawValue] + (options.login.map { [$0.value] } ?? []) + (filter.map { ["--" + $0] } ?? []))
            .joined(separator: " ")
    }

    func run() async -> CommandOutcome {
        if let refusal = file.file.outputRefusal(output: nil, stdoutFile: command.stdoutFile, command: nil) {
            return refusal
        }
        let io = command.io
        let lock: OwnedFileLock
        let previous: FollowSnapshot?
        do throws(LocalFileError) {
            lock = try file.lock()
            previous = try file.load(against: github.apiRoot)
            if let recorded = previous?.subject, recorded.relation != relation || recorded.filter != filter {
                throw LocalFileError(
                    message:
                        "the snapshot file \(TerminalSanitizer.quotedPath(file.path)) was made for 'gh-users \(LocalFileError.held(recorded.command))', not for "
                        + "'gh-users \(requested)'. It was left as it is: give each list its own snapshot file")
            }
            // Refused before the first request where the file is known to be this account's list; another
            // account's (or one named by the token, whose login only the profile tells) is called that first.
            if previous.map({ $0.subject.account.login.lowercased() == options.login?.value.lowercased() }) ?? true {
                try file.checkWritable()
            }
        } catch {
            if error.isInterruption { return command.interrupted() }
            io.writeErr("gh-users: \(error.message)\n")
            return .setupFailed
        }
        // Held until the new snapshot is in place.
        defer { withExtendedLifetime(lock) {} }
        let untouched = file.untouched

        let subject: FollowSnapshotSubject
        let counts: FollowGraph.Counts
        switch await readProfile() {
        case .success(let profile):
            (subject, counts) = profile
        case .failure(.github(let error)):
            io.writeErr(command.presenter.present(error).message + untouched)
            return .failed(error)
        case .failure(.refused(let message)):
            io.writeErr("gh-users: \(message)\n" + untouched)
            return .setupFailed
        }
        if let recorded = previous?.subject, !recorded.isSameAccount(as: subject) {
            // Through `LocalFileError`, which makes the words the file holds safe to print.
            let refusal = LocalFileError(
                message: "the snapshot file \(TerminalSanitizer.quotedPath(file.path)) was made for the "
                    + "\(relation.rawValue) of \(recorded.accountDescription), but \(whose) is "
                    + "\(subject.accountDescription). It was left as it is: give each account its own snapshot file")
            io.writeErr("gh-users: \(refusal.message)\n")
            return .setupFailed
        }
        do throws(LocalFileError) {
            try file.checkWritable()
        } catch {
            io.writeErr("gh-users: \(error.message)\n")
            return .setupFailed
        }

        let accounts: [FollowSnapshot.Account]
        switch await readList(counts: counts, of: subject.account, recorded: previous?.accounts.count) {
        case .success(let read): accounts = read
        case .failure(let error):
            io.writeErr(command.presenter.present(error).message + untouched)
            return .failed(error)
        }
        let collapse = ListCollapse(
            list: "\(subject.account.login)'s \(relation.rawValue)", read: accounts.count,
            counted: filter == nil ? counts.of(relation).map { ($0, "its profile") } : nil,
            recorded: filter == nil ? previous?.accounts.count : nil)
        if let refusal = collapse.refusal {
            io.writeErr("gh-users: \(refusal)\n" + untouched)
            return .setupFailed
        }
        let snapshot = FollowSnapshot(
            subject: subject, accounts: accounts, apiURL: RecordedAPIRoot.of(github.apiRoot))
        let changes = previous.map { ListChange.between($0.accounts, accounts) } ?? []
        if let stopped = await file.record(
            snapshot, problem: snapshot.problem, listed: subject.command, count: accounts.count, changes: changes,
            roles: false, command: command)
        {
            return stopped
        }
        if let recorded = previous?.subject, recorded.loginOnly {
            io.writeErr(
                "gh-users: the version 1 snapshot in \(TerminalSanitizer.quotedPath(file.path)) is now version \(FollowSnapshot.version), which "
                    + "records the account id too (\(subject.accountDescription)).\n")
        } else if let recorded = previous?.subject.account, recorded.login != subject.account.login {
            io.writeErr(
                file.renamedNote(
                    recorded.login, id: "account id \(recorded.id)", now: subject.account.login, name: "login"))
        }
        file.closingNote(
            firstRun: previous == nil, changed: !changes.isEmpty, listed: subject.command, count: accounts.count,
            io: io)
        return .success
    }

    /// Whose list was asked for, in words: LOGIN's account, or the token's.
    private var whose: String {
        options.login.map { "the account \($0.value)" } ?? "the token's account"
    }

    private enum ProfileFailure: Error {
        case github(DomainError)
        case refused(String)
    }

    /// The account whose list it is, and the sizes of its lists, from its profile (`GET /users/{login}`, or
    /// `GET /user` for the token's own): the id keys the snapshot, the counts bound the list and reveal a collapse.
    private func readProfile() async -> Result<(FollowSnapshotSubject, FollowGraph.Counts), ProfileFailure> {
        let profile: User
        do throws(DomainError) {
            profile = try await github.fetch(
                options.login.map(GitHubEndpoints.user) ?? GitHubEndpoints.authenticatedUser.map(\.user))
        } catch {
            return .failure(.github(error))
        }
        let account = FollowSnapshot.Account(id: profile.id, login: profile.login)
        guard account.problem == nil, Login.isValid(account.login) else {
            return .failure(
                .refused(
                    "GitHub's profile of \(whose) has an id that is not positive (\(profile.id)) or a login that is no "
                        + "GitHub login, which a snapshot cannot record, so nothing was compared"))
        }
        return .success(
            (FollowSnapshotSubject(relation: relation, account: account, filter: filter), FollowGraph.Counts(profile)))
    }

    /// Every account of the list, in its order, or why it could not all be read. The list is bound as the set
    /// operations bound theirs: its profile's count and a margin, so a list that never ends is refused rather
    /// than held.
    private func readList(counts: FollowGraph.Counts, of account: FollowSnapshot.Account, recorded: Int?) async
        -> Result<[FollowSnapshot.Account], DomainError>
    {
        let lists = FollowGraphState()
        let viewModel = makeViewModel(counts: counts, lists: lists)
        let count = counts.of(relation)
        let bound = FollowGraph.bound(forCount: count)
        let progress = ProgressLine(io: command.io, noun: "accounts")
        defer { progress.clear() }
        var accounts: [FollowSnapshot.Account] = []
        do throws(DomainError) {
            while !viewModel.isExhausted {
                for user in try await viewModel.loadNextPage() {
                    // Refused at the first: a hostile list of long logins is never held. (An id or an empty
                    // login the reader refuses is said once the list is read, by the snapshot's own check.)
                    if !user.login.isEmpty, let problem = ListChange.loginProblem(user.login) {
                        throw .refused(
                            "\(account.login)'s \(relation.rawValue) holds \(problem), which a snapshot cannot "
                                + "record, so nothing was compared")
                    }
                    accounts.append(.init(id: user.id, login: user.login))
                }
                if accounts.count > bound {
                    throw FollowGraph.overBound(
                        whose: "\(account.login)'s", relation, count: count, bound: bound,
                        flag: "--" + FollowerChanges.option.name)
                }
                progress.update(pages: viewModel.requests, items: accounts.count)
            }
        } catch {
            return .failure(error)
        }
        // A set worked out from a list GitHub left empty or cut short would be no set at all (an empty set is not
        // refused: it is what is left once, say, everyone not following back was unfollowed). Those FILE holds
        // were in the output list, and for --mutual in both: such a list empty where FILE holds accounts is a
        // collapse, as a whole list's is, whatever the profile counts now.
        for input in [UserRelation.followers, .following] where options.filter != nil {
            let read = lists.count(of: input)
            let held = read == 0 && (options.filter == .mutual || input == relation) ? recorded : nil
            let list = ListCollapse(
                list: "\(account.login)'s \(input.rawValue)", read: read,
                counted: counts.of(input).map { ($0, "its profile") }, recorded: held)
            if let refusal = list.refusal { return .failure(.refused(refusal)) }
        }
        // An interrupt after the last page still means the run was stopped: nothing is written or recorded.
        return Task.isCancelled ? .failure(.cancelled) : .success(accounts)
    }

    /// The whole list, each account once; with a set operation, the accounts it keeps.
    private func makeViewModel(counts: FollowGraph.Counts, lists: FollowGraphState) -> PagedListViewModel<User> {
        let (github, perPage) = (self.github, options.plan.perPage)
        guard let filter = options.filter else {
            let list = GitHubEndpoints.relations(relation, of: options.login)
            return PagedListViewModel(limit: .all, pages: github.pages(of: list, perPage: perPage))
        }
        return FollowGraph(
            github: github, login: options.login, output: relation, filter: filter, knownCounts: counts
        ).pages(limit: .all, perPage: perPage, state: lists)
    }
}
