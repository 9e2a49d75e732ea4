import AtomicCore
import Data
import Domain
import Foundation

/// `followers [LOGIN] --changes FILE` and `following [LOGIN] --changes FILE`: who came and went since the last
/// run, by comparing the whole list now with the snapshot in FILE, then recording the list in FILE.
enum FollowerChanges {
    static let option = OptionSpec(
        "changes", value: "FILE",
        help: "Write who came and went since the last run with FILE, then record the list in FILE (see the "
            + "description above).")

    /// Reads `--changes` into `options`, and refuses what does not go with it: a snapshot is always of the whole
    /// list (`--all` is implied, `--limit` refused), holds ids and logins (no `--full`), and its records have their
    /// own fields.
    static func parse(_ parsed: ParsedArguments, spec: CommandSpec, into options: inout RelationsOptions)
        throws(UsageError)
    {
        let fields = parsed.value(OutputGroup.fields).map { text in
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        guard let path = parsed.value(option) else {
            if let field = fields?.first(where: FollowerChange.ownFields.contains) {
                throw UsageError(
                    message: "the field '\(field)' exists only with --changes, whose records have "
                        + FollowerChange.fields.joined(separator: ", "),
                    command: spec)
            }
            return
        }
        guard !path.isEmpty else { throw UsageError(message: "--changes needs a file path", command: spec) }
        if parsed.value(PagingGroup.limit) != nil {
            throw UsageError(
                message: "--changes compares the whole list, so it cannot be used with --limit (--all is implied)",
                command: spec)
        }
        if parsed.has(ProfileGroup.full) {
            throw UsageError(
                message: "--changes records ids and logins, so it cannot be used with --full", command: spec)
        }
        if let field = fields?.first(where: { !$0.isEmpty && !FollowerChange.fields.contains($0) }) {
            throw UsageError(
                message: "unknown field '\(field)' for \(spec.name) --changes\nValid fields: "
                    + FollowerChange.fields.joined(separator: ", "),
                command: spec)
        }
        options.changes = path
    }
}

/// One `--changes` run: lock and read the snapshot, read the whole list (through the set operation, if any),
/// write the changes, and only then replace the snapshot. A run that stops before its changes are all written
/// (a failed request, a spent rate limit, Ctrl-C, a full disk, a closed pipe) leaves the snapshot as it was, so
/// the next run reports the same changes again: none is ever lost.
struct FollowerChangesCoordinator {
    let file: FollowSnapshotFile
    let subject: FollowSnapshotSubject
    let relation: UserRelation
    let options: RelationsOptions
    let github: any GitHubReader
    let command: CommandContext

    init(
        relation: UserRelation, options: RelationsOptions, path: String, github: any GitHubReader,
        command: CommandContext
    ) {
        file = FollowSnapshotFile(path: path)
        subject = FollowSnapshotSubject(
            relation: relation, login: options.login?.value,
            filter: RelationsCommand.filters(relation).first { $0.filter == options.filter }?.option.name)
        self.relation = relation
        self.options = options
        self.github = github
        self.command = command
    }

    func run() async -> CommandOutcome {
        let io = command.io
        let lock: OwnedFileLock
        let previous: FollowSnapshot?
        do throws(LocalFileError) {
            lock = try file.lock()
            previous = try file.load()
            if let recorded = previous?.subject, !recorded.isSameList(as: subject) {
                throw LocalFileError(
                    message: "the snapshot file '\(file.path)' was made for 'gh-users \(recorded.command)', not for "
                        + "'gh-users \(subject.command)'. It was left as it is: give each list its own snapshot file")
            }
        } catch {
            io.writeErr("gh-users: \(error.message)\n")
            return .setupFailed
        }
        // Held until the new snapshot is in place.
        defer { withExtendedLifetime(lock) {} }
        let untouched = "gh-users: the snapshot file '\(file.path)' was left as it was.\n"

        let accounts: [FollowSnapshot.Account]
        switch await readList() {
        case .success(let read): accounts = read
        case .failure(let error):
            io.writeErr(command.presenter.present(error).message + untouched)
            return .failed(error)
        }
        let changes = previous.map { FollowerChange.between($0.accounts, accounts) } ?? []
        var writer = RecordStreamWriter(
            context: command.render, columns: FollowerChange.columns(command.render), raw: \.raw)
        do {
            try io.out.write(writer.render(changes) + writer.finish(completed: true))
        } catch {
            let outcome = CommandOutcome.writeFailed(error, io: io)
            if outcome != .outputClosed { io.writeErr(untouched) }
            return outcome
        }
        // Every change was written, but a reader that left before taking them all (`| head -1`) never showed
        // the rest: the snapshot stays, so the next run reports them again.
        if await io.out.readerLeftEarly() { return .outputClosed }
        do {
            try file.replace(with: FollowSnapshot(subject: subject, accounts: accounts))
        } catch {
            io.writeErr(
                "gh-users: \(error.message). The changes written were not recorded, so the next run reports them "
                    + "again.\n")
            return .setupFailed
        }
        if previous == nil {
            io.writeErr(
                "gh-users: recorded the \(Counted.text(accounts.count, "account")) of 'gh-users \(subject.command)' in "
                    + "'\(file.path)'; from the next run on, --changes writes who came and went.\n")
        } else if changes.isEmpty, io.stderrIsTTY {
            io.writeErr("gh-users: no changes since the last snapshot in '\(file.path)'.\n")
        }
        return .success
    }

    /// Every account of the list, in its order, or why it could not all be read.
    private func readList() async -> Result<[FollowSnapshot.Account], DomainError> {
        let viewModel = makeViewModel()
        let progress = ProgressLine(io: command.io, noun: "accounts")
        defer { progress.clear() }
        var accounts: [FollowSnapshot.Account] = []
        do throws(DomainError) {
            while !viewModel.isExhausted {
                accounts += try await viewModel.loadNextPage().map { .init(id: $0.id, login: $0.login) }
                progress.update(pages: viewModel.requests, items: accounts.count)
            }
        } catch {
            return .failure(error)
        }
        // An interrupt after the last page still means the run was stopped: nothing is written or recorded.
        return Task.isCancelled ? .failure(.cancelled) : .success(accounts)
    }

    /// The whole list, each account once; with a set operation, the accounts it keeps.
    private func makeViewModel() -> PagedListViewModel<User> {
        let (github, perPage) = (self.github, options.plan.perPage)
        guard let filter = options.filter else {
            let list = GitHubEndpoints.relations(relation, of: options.login)
            return PagedListViewModel(
                limit: .all,
                first: { () async throws(DomainError) in try await github.firstPage(list, perPage: perPage) },
                next: { cursor async throws(DomainError) in try await github.page(list, at: cursor) }, id: \.id)
        }
        let prepared = FollowGraph(github: github, login: options.login, output: relation, filter: filter)
            .preparation(perPage: perPage)
        return PagedListViewModel(
            limit: .all, noting: prepared.load, admit: prepared.admission.admit, isNew: prepared.admission.isNew)
    }
}
