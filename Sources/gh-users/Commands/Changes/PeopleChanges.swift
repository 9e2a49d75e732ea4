import AtomicCore
import Data
import Domain
import JSONBytes

/// How `--changes` reads a person from a list's records, and the role it records for them.
struct PeopleChangeKey: Sendable {
    /// Where the person's account is in a record: nothing for a record that is the account, `user` for a
    /// stargazer's `{"starred_at", "user"}`, `owner` for a fork.
    var account: [String] = []
    /// The record's key that holds the person's role or permission (`role_name`, a team member's `role`).
    var role: String?
    /// For a list whose records carry no role but whose filter picks one (`members`' `role=admin`): the whole
    /// list, which says who is there, then the one role's list, which says whose role it is, unless the options
    /// name one role already.
    var rolePasses: RolePasses?
    /// The key that names a person whose login is null (an invitation sent to an email address).
    var fallbackName: String?
    /// The repository's key that counts the list (`forks_count`): a list far below it is not recorded
    /// (`ListCollapse`).
    var counted: String?
    /// Whether a list the token may see only part of is told from the whole by the token's own account
    /// (`members` for a token that is not a member lists only the public ones: `membershipRefusal`).
    var checksMembership = false
    /// Whether an empty list, or one far short of the snapshot, is the list as it is: GitHub answers
    /// `invitations` to the organization's owners alone (an error to anyone else, never a shorter list) and an
    /// invitation expires after 7 days, so a weekly run may find every one gone (`ListCollapse.refusedUnlessSeen`).
    var shrinksWhole = false

    struct RolePasses: Sendable {
        let key: String
        /// The role its own pass lists (`admin`).
        let role: String
        /// The role of everyone else on the whole list (`member`).
        let others: String
        /// Options under which the filter does not apply (`members --public`).
        let unless: KeyPath<PeopleListOptions, Bool> & Sendable
    }

    /// A person and a role, or nil for a record without a positive id (a number, never `"100"`) or a name (a
    /// string, never `12345`): the nested account of a stargazer or a fork is read from its bytes, not decoded.
    func entry(_ record: [UInt8], role passRole: String?) -> PeopleSnapshot.Entry? {
        let account = self.account.isEmpty ? record : JSONText.value(at: self.account, in: record) ?? []
        let members = (try? JSONText.objectMembers(account)) ?? [:]
        let id = members["id"].flatMap { Int64(String(decoding: account[$0], as: UTF8.self)) } ?? 0
        guard id > 0 else { return nil }
        let names = (["login"] + (fallbackName.map { [$0] } ?? [])).filter {
            members[$0].map { account[$0.lowerBound] == UInt8(ascii: "\"") } ?? false
        }
        let texts = JSONText.texts(of: names, in: account)
        guard let index = texts.firstIndex(where: { !$0.isEmpty }) else { return nil }
        // A role GitHub did not send (an older server's collaborator without `role_name`) is unknown, never "".
        let role = passRole ?? self.role.map { JSONText.text(of: $0, in: record) }.flatMap { $0.isEmpty ? nil : $0 }
        // A login never holds an `@` and an address always does: the `@` tells them apart from here on, so a name
        // that breaks it (a hostile answer's) is one the snapshot refuses.
        let misnamed = (names[index] == "login") == texts[index].contains("@")
        return PeopleSnapshot.Entry(id: id, login: texts[index], role: role, misnamed: misnamed)
    }

    /// One list a run reads: its options, the role its people have (nil: each record's own, or none), and
    /// whether it only gives that role to people the whole list has (`rolesOnly`) rather than saying who is there.
    struct Pass {
        let options: PeopleListOptions
        let role: String?
        var rolesOnly = false
    }

    /// The lists one run reads. Two passes of one role each would report someone promoted between them as
    /// removed and added: presence comes from one whole list, and only roles from the second.
    func passes(_ options: PeopleListOptions) -> [Pass] {
        guard let passes = rolePasses, !options[keyPath: passes.unless] else {
            return [Pass(options: options, role: nil)]
        }
        // `--role all`, GitHub's default, is no filter (`PeopleFilter.choice`): the whole list.
        if let chosen = options.filters[passes.key] {
            return [Pass(options: options, role: chosen)]
        }
        var whole = options
        whole.filters[passes.key] = nil
        var role = options
        role.filters[passes.key] = passes.role
        return [Pass(options: whole, role: passes.others), Pass(options: role, role: passes.role, rolesOnly: true)]
    }

    /// Whether the records of a run with these options have roles.
    func hasRoles(_ options: PeopleListOptions) -> Bool {
        role != nil || (rolePasses.map { !options[keyPath: $0.unless] } ?? false)
    }

    /// Whether a later run reports a role changed: the records have roles, and not one role chosen (with
    /// `--role admin` someone whose role changed comes or goes).
    func reportsRoleChanges(_ options: PeopleListOptions) -> Bool {
        hasRoles(options) && options.filters["role"] == nil && options.filters["permission"] == nil
    }

    /// Whether the list records roles at all (`members --public` then records none).
    var takesRoles: Bool { role != nil || rolePasses != nil }

    /// The keys of a change record for this list.
    var fields: [String] {
        fallbackName != nil ? ListChange.addressFields : takesRoles ? ListChange.roleFields : ListChange.fields
    }
}

/// One `--changes` run of a people list: lock and read the snapshot, check it is of this list, read the whole list
/// (in a pass for each role, where the records carry none), write the changes, and only then replace the snapshot.
/// A run that stops before its changes are all written (a failed request, a refusal, a spent rate limit, Ctrl-C, a
/// full disk, a closed pipe) leaves the snapshot as it was, so the next run reports the same changes again.
struct PeopleChangesCoordinator<Item: ListedItem> {
    /// More people than any list GitHub serves (its largest organizations have about 100,000 members, REST serves
    /// 40,000 stargazers): past it a list that never ends is refused rather than held.
    static var bound: Int { 5_000_000 }

    /// One list the run reads (`PeopleChangeKey.passes`), and its pages, none asked for yet.
    struct Reading {
        let pass: PeopleChangeKey.Pass
        let pages: PagedListViewModel<Item>
    }

    /// What the list's items are called, for the progress line.
    let noun: String
    let command: String
    let options: PeopleListOptions
    let key: PeopleChangeKey
    let file: PeopleSnapshotFile
    let github: GitHubReader
    let context: CommandContext

    /// Which list: the filters as sent (none at GitHub's default, which `PeopleFilter.choice` keeps as none),
    /// `public` for the public members and `direct` for a team's own members.
    var subject: PeopleSnapshot.Subject {
        var filters = options.filters
        if options.publicOnly { filters["public"] = "true" }
        if options.directTeam != nil { filters["direct"] = "true" }
        return PeopleSnapshot.Subject(command: command, owner: options.owner.description, filters: filters)
    }

    /// Reads `readings` (one for each of `key.passes(options)`, its pages the whole list's: `PeopleListOptions.plan`), compares
    /// and records.
    func run(_ readings: [Reading]) async -> CommandOutcome {
        if let refusal = file.file.outputRefusal(output: nil, stdoutFile: context.stdoutFile, command: nil) {
            return refusal
        }
        let io = context.io
        let subject = subject
        let lock: OwnedFileLock
        let previous: PeopleSnapshot?
        do throws(LocalFileError) {
            lock = try file.lock()
            previous = try file.load(against: github.apiRoot)
            if let recorded = previous, !recorded.subject.isSameList(as: subject), !mayBeRenamed(recorded) {
                let recorded = recorded.subject
                throw LocalFileError(
                    message:
                        "the snapshot file \(TerminalSanitizer.quotedPath(file.path)) was made for "
                        + "'gh-users \(LocalFileError.held(recorded.description))', not for "
                        + "'gh-users \(subject.description)'. It was left "
                        + "as it is: give each list its own snapshot file")
            }
            try file.checkWritable()
        } catch {
            if error.isInterruption { return context.interrupted() }
            io.writeErr("gh-users: \(error.message)\n")
            return .setupFailed
        }
        // Held until the new snapshot is in place.
        defer { withExtendedLifetime(lock) {} }
        var counted: Int?
        var repository: Record?
        if let count = key.counted {
            do throws(DomainError) {
                let fetched = try await github.fetch(GitHubEndpoints.repository(options.owner))
                counted = Int(JSONText.text(of: count, in: fetched.raw.bytes))
                repository = fetched
            } catch {
                io.writeErr(context.presenter.present(error).message + file.untouched)
                return .failed(error)
            }
        }
        var ownerID = previous?.ownerID
        var renamedFrom: String?
        if let recorded = previous, let recordedID = recorded.ownerID, !recorded.subject.isSameOwnerName(as: subject) {
            // Another name with the same id is the same owner renamed; another id, or none, is another list.
            let given: Int64?
            switch await lookUpOwnerID(repository) {
            case .success(let id): given = id
            case .failure(let error):
                // No answer to tell a rename from another list (no such owner now: exit 3; a spent limit: 5).
                io.writeErr(context.presenter.present(error).message + file.untouched)
                return .failed(error)
            }
            guard given == recordedID else {
                // Through `LocalFileError`, which makes the words the file holds safe to print.
                let refusal = LocalFileError(
                    message: "the snapshot file \(TerminalSanitizer.quotedPath(file.path)) was made for 'gh-users "
                        + "\(LocalFileError.held(recorded.subject.description))' (\(ownerIDName) \(recordedID)), not for 'gh-users "
                        + "\(subject.description)' "
                        + (given.map { "(\(ownerIDName) \($0))" } ?? "(GitHub did not give its \(ownerIDName))")
                        + ". It was left as it is: give each list its own snapshot file")
                io.writeErr("gh-users: \(refusal.message)\n")
                return .setupFailed
            }
            renamedFrom = recorded.subject.owner
        }
        let people: [PeopleSnapshot.Entry]
        switch await readList(readings) {
        case .success(let read): people = read
        case .failure(.github(.unauthorized(302, _, _, _)))
        where key.checksMembership && options.filters["role"] == nil:
            // The owners' pass (`role=admin`, which --changes adds itself) was sent to the public members.
            io.writeErr(
                "gh-users: GitHub sends a token that is not a member of \(options.owner) to the public members, so "
                    + "--changes cannot tell the owners from the others: it needs a member's token (read:org), or "
                    + "--public for the public members' changes\n" + file.untouched)
            return .failed(.unauthorized(status: 302, message: "not a member of \(options.owner)"))
        case .failure(.github(let error)):
            io.writeErr(context.presenter.present(error).message + file.untouched)
            return .failed(error)
        case .failure(.refused(let message)):
            io.writeErr("gh-users: \(message)\n" + file.untouched)
            return .setupFailed
        }
        var collapse = ListCollapse(
            list: "GitHub's list of \(subject.description)", read: people.count,
            counted: counted.map { ($0, "the repository's \(key.counted ?? "")") }, recorded: previous?.people.count)
        collapse.refusedUnlessSeen = key.shrinksWhole || options.filters["filter"]?.hasPrefix("2fa_") == true
        collapse.expires = key.shrinksWhole
        collapse.pageSize = options.plan.perPage
        if let refusal = collapse.refusal {
            io.writeErr("gh-users: \(refusal)\n" + file.untouched)
            return .setupFailed
        }
        if key.checksMembership, let refusal = await PeopleChangeKey.membershipRefusal(options, people, github) {
            let message =
                if case .unauthorized(_, let message, _, _) = refusal { "gh-users: \(message)\n" } else {
                    context.presenter.present(refusal).message
                }
            io.writeErr(message + file.untouched)
            return .failed(refusal)
        }
        // The owners' own pass may collapse alone: empty while owners FILE holds are still members. A member sees
        // every owner; an organization may have none (GitHub documents unowned ones), which is then recorded.
        // (Through a 2FA filter both lists are parts: an owner who turned it on, or was made a member, empties it.)
        let listed = Set(people.map(\.id))
        if let role = readings.last.flatMap({ $0.pass.rolesOnly ? $0.pass.role : nil }),
            options.filters["filter"] == nil,
            !people.contains(where: { $0.role == role }),
            let kept = previous?.people.filter({ $0.role == role && listed.contains($0.id) }), !kept.isEmpty
        {
            io.writeErr(
                "gh-users: GitHub's list of \(subject.description) --role \(role) came back empty while "
                    + "\(Counted.text(kept.count, "account")) the snapshot holds as \(role) "
                    + (kept.count == 1 ? "is still a member" : "are still members")
                    + ", so the list was not compared: GitHub answered only part of it; run again later (if "
                    + "they are members but no longer owners, move the snapshot file away to record the list "
                    + "afresh)\n"
                    + file.untouched)
            return .setupFailed
        }
        if ownerID == nil {
            // The first run, or a file from before the id was recorded: asked once the list is read, recorded when
            // GitHub gives it; a lookup that fails only leaves it unrecorded, and the next run asks again.
            ownerID = try? await lookUpOwnerID(repository).get()
        }
        // The owner as the file spells it, another case aside: a run with no change leaves the file as it was
        // (before, `members GitHub` and `members github` rewrote it in turn; a review's find). A rename records
        // the new name.
        let owner = previous.flatMap { $0.subject.isSameOwnerName(as: subject) ? $0.subject.owner : nil }
        let snapshot = PeopleSnapshot(
            subject: PeopleSnapshot.Subject(
                command: subject.command, owner: owner ?? subject.owner, filters: subject.filters),
            people: people, ownerID: ownerID, apiURL: RecordedAPIRoot.of(github.apiRoot))
        let changes =
            previous.map { ListChange.between($0.people, people, namesAddresses: key.fallbackName != nil) } ?? []
        let words = subject.description
        if let stopped = await file.record(
            snapshot, problem: snapshot.problem, listed: words, count: people.count, changes: changes,
            roles: key.hasRoles(options), addresses: key.fallbackName != nil, command: context)
        {
            return stopped
        }
        if let renamedFrom, let ownerID {
            io.writeErr(
                file.renamedNote(renamedFrom, id: "\(ownerIDName) \(ownerID)", now: subject.owner, name: "name"))
        }
        // A list that knows roles (members, collaborators, a team's) reports a role changed too.
        file.closingNote(
            firstRun: previous == nil, changed: !changes.isEmpty, listed: words, count: people.count,
            noun: key.fallbackName != nil ? "invitation" : "account",
            reports: key.reportsRoleChanges(options)
                ? "who came and went, and whose role changed" : "who came and went",
            io: io)
        return .success
    }

    /// What the owner's id is of: the organization's for an organization's list and a team's, else the
    /// repository's.
    private var ownerIDName: String {
        options.owner.lookup.endpoint == .organization ? "organization id" : "repository id"
    }

    /// Whether the snapshot's owner may be the one given under another name: the snapshot is of the same command
    /// and filters, recorded its id, and what the id does not cover (a team's slug: its id is its organization's) is
    /// the same. Only then is its id asked for; a snapshot without one is of another list, as before ids were
    /// recorded.
    private func mayBeRenamed(_ recorded: PeopleSnapshot) -> Bool {
        let covered = options.owner.lookup.segments.count
        func uncovered(_ owner: String) -> [Substring] {
            Array(owner.lowercased().split(separator: "/").dropFirst(covered))
        }
        return recorded.subject.isSameKind(as: subject) && recorded.ownerID != nil
            && uncovered(recorded.subject.owner) == uncovered(subject.owner)
    }

    /// The owner's id (`GET /orgs/{org}`, `GET /repos/{owner}/{repo}`, or the repository the run read already for
    /// its count), nil when the answer holds no positive one.
    private func lookUpOwnerID(_ repository: Record?) async -> Result<Int64?, DomainError> {
        let owner: Record
        if let repository {
            owner = repository
        } else {
            do throws(DomainError) {
                owner = try await github.fetch(GitHubEndpoints.owner(options.owner))
            } catch {
                return .failure(error)
            }
        }
        return .success(Int64(JSONText.text(of: "id", in: owner.raw.bytes)).flatMap { $0 > 0 ? $0 : nil })
    }

    private enum ReadFailure: Error {
        case github(DomainError)
        case refused(String)
    }

    /// Everyone on the list, each once, in its order (a pass's people after the pass before), or why not.
    private func readList(_ readings: [Reading]) async -> Result<[PeopleSnapshot.Entry], ReadFailure> {
        let progress = ProgressLine(io: context.io, noun: noun)
        defer { progress.clear() }
        var people: [PeopleSnapshot.Entry] = []
        // Where each person is in `people`: a later pass of roles finds them there.
        var seen: [Int64: Int] = [:]
        var requests = 0
        do throws(DomainError) {
            for reading in readings {
                let (pass, viewModel) = (reading.pass, reading.pages)
                while !viewModel.isExhausted {
                    for item in try await viewModel.loadNextPage() {
                        guard let entry = key.entry(item.raw.bytes, role: pass.role) else {
                            return .failure(
                                .refused(
                                    "GitHub's list of \(subject.description) holds a record whose id is no positive whole "
                                        + "number or whose login is no text, which a snapshot cannot record, so nothing "
                                        + "was compared"))
                        }
                        // Refused at the first: a hostile list of long logins is never held.
                        if let problem = entry.problem {
                            return .failure(
                                .refused(
                                    "GitHub's list of \(subject.description) holds \(problem), which a snapshot "
                                        + "cannot record, so nothing was compared"))
                        }
                        if pass.rolesOnly {
                            // Someone the whole list did not have (they joined between the passes) waits for the
                            // next run, which reads them in the whole list.
                            if let index = seen[entry.id] { people[index].role = entry.role }
                        } else if seen[entry.id] == nil {
                            seen[entry.id] = people.count
                            people.append(entry)
                        }
                    }
                    guard people.count <= Self.bound else {
                        return .failure(
                            .refused(
                                "the list of \(subject.description) went past \(Self.bound) people, more than GitHub "
                                    + "lists anywhere, so it was not compared"))
                    }
                    progress.update(pages: requests + viewModel.requests, items: people.count)
                }
                requests += viewModel.requests
            }
        } catch {
            return .failure(.github(error))
        }
        // An interrupt after the last page still means the run was stopped: nothing is written or recorded.
        return Task.isCancelled ? .failure(.github(.cancelled)) : .success(people)
    }
}
