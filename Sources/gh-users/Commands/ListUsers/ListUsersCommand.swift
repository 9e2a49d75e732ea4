import AtomicCore
import Data
import Domain
import Foundation

/// `gh-users list`: what to page through, validated.
struct ListUsersOptions: PagedOptions, OptionValues {
    var since: Int64 = 0
    /// The last account id wanted (`--until`): a shard of a crawl ends there.
    var until: Int64?
    /// `--state FILE`: where the crawl stood, read before the first request and replaced after every page.
    var statePath: String?
    /// `--output FILE`: appended to instead of stdout, and cut back to the state's length before a resume.
    var outputPath: String?
    var paging = PagingOptions()
    var profiles = ProfileOptions()
}

/// `gh-users list`: every account in GitHub's `/users` order by id, resumable with `--since`.
enum ListUsersCommand {
    /// `list`'s own options, each declared once: its spelling and help, how its value is read and checked, and
    /// how a resume hint writes it back. Help lists them in this order, and they are read in it.
    static let since = OptionDeclaration<ListUsersOptions>.value(
        OptionSpec("since", value: "ID", help: "Start after this account id (an integer >= 0)."), at: \.since,
        parse: { reading throws(UsageError) in try reading.accountID() }, resume: { String($0) })
    static let until = OptionDeclaration<ListUsersOptions>(
        spec: OptionSpec(
            "until", value: "ID", help: "Stop after the last account with an id <= ID (an integer >= --since)."),
        read: { options, reading throws(UsageError) in
            let last = try reading.accountID()
            guard last >= options.since else {
                throw reading.usageError(
                    "--until \(last) is below --since \(options.since): no account lies between them")
            }
            options.until = last
        },
        resume: { options in options.until.map { ["--until", String($0)] } ?? [] }
    )
    static let state = filePath(
        OptionSpec(
            "state", value: "FILE",
            help: "Resume from and record the crawl's position in FILE (0600, replaced atomically after each page).",
            path: .file),
        at: \.statePath)
    static let output = filePath(
        OptionSpec(
            "output", value: "FILE",
            help: "Append to FILE instead of stdout; with --state, cut back to the last whole page.", path: .file),
        at: \.outputPath)

    static let options = GroupDeclaration<ListUsersOptions>(
        title: "OPTIONS", options: [since, until, state, output])

    /// `--state` and `--output` append, which a JSON array or a table cannot take: the last of them given says
    /// so, once its path is read.
    private static func checkAppendable(_ reading: OptionReading) throws(UsageError) {
        let parsed = reading.parsed
        if reading.option.name == "state", parsed.value(output.spec) != nil { return }
        let format = parsed.has(OutputGroup.json) ? OutputFormat.json.rawValue : parsed.value(OutputGroup.format)
        if let format, format == OutputFormat.json.rawValue || format == OutputFormat.table.rawValue {
            let flag = parsed.value(state.spec) != nil ? "--state" : "--output"
            throw reading.usageError(
                "\(flag) needs a format that can be appended to (tsv, csv or ndjson), not \(format)")
        }
    }

    /// A file the crawl reads or writes: any path but an empty one, in a format that can be appended to.
    private static func filePath(_ spec: OptionSpec, at path: WritableKeyPath<ListUsersOptions, String?> & Sendable)
        -> OptionDeclaration<ListUsersOptions>
    {
        .value(
            spec, at: path,
            parse: { reading throws(UsageError) in
                let path = try reading.filePath()
                try checkAppendable(reading)
                return path
            },
            resume: { $0 })
    }

    static let spec = CommandSpec(
        name: "list",
        abstract: "List GitHub accounts in the order they were created (GET /users).",
        usage:
            "gh-users list [--since ID] [--until ID] [--state FILE] [--output FILE] [--limit N | --all] "
            + "[--per-page N] [options]",
        discussion: """
            Pages through every account with an id greater than --since, in id order, following GitHub's
            Link header. Output is written page by page as it arrives. When a crawl stops early, the message
            on stderr names the --since value to resume from: the id of the last account written, and under
            --limit what is left of it (--limit 2000 stopped at 500: --limit 1500), also with --state.

            --until ID stops after the last account with an id <= ID, and requests no page beyond it, so
            --since A --until B crawls one shard: shards that meet (0..B, B..C) add up to the whole crawl.

            --state FILE makes a crawl resumable and able to grow. The file holds one JSON object such as
            {"version":1,"since":ID,"format":"tsv"}: the id of the last account written, and the format,
            --fields, --full and --via the output is written with (a rerun that differs is exit 1, naming the
            difference); with --output, also "output_bytes" and "output", that file's length after the last
            whole page and its path (another --output, or none, is exit 1); and "api_url", the API root it
            reads (a rerun against another, --api-url or GH_HOST, is exit 1). It is replaced atomically (a new
            file, flushed to disk, renamed over it) after each page is written. A run starts after its
            "since", which wins over --since (one below a --since given is another crawl's: exit 1); a missing
            file means start at --since. So rerunning the same command after Ctrl-C, a rate limit or a failure
            goes on with no account lost or repeated, and a nightly run appends only the new accounts. A file
            that cannot be read as a state is exit 1, and it is never overwritten. One run at a time may use a
            state: while one holds FILE.lock, another is exit 1 at once (a FILE.lock with data in it is not
            gh-users's: exit 1, left as it is). A link to a state is followed, so both names share one lock.
            After a SIGKILL, stdout cannot be taken back, so the page being written may come again.
            To a pipe, the state records a page once the reader has read 128 KiB past it, and the run waits
            for the reader to take the rest; one that leaves first (| head) is exit 1, and its last reads come again.
            An output (--output, or stdout with >>) that is FILE, FILE.lock or FILE.tmp, by any name, is a
            usage error (exit 64): the state replaces them. stderr into a >> FILE too (2>&1), or into
            --output's FILE, is exit 1.

            --output FILE appends to FILE instead of stdout. With --state, a run first cuts FILE back to the
            length the state recorded, and the file is flushed to disk before the state is replaced, so even
            a SIGKILL or a power cut leaves nothing written twice (a FILE shorter than recorded is exit 1).
            Only this crawl's own unsaved page is cut: the bytes past the recorded length must start a line
            and be whole records of this crawl's range (ids above its last, up to --until), at most one page
            of them; anything else there (another crawl's records) is exit 1, and nothing is cut.
            So with --state, a FILE that is not a regular file (/dev/null, a FIFO) is exit 1 before anything
            is asked or written, from the first run on.
            With --state or --output the format is tsv (the default), csv or ndjson: a JSON array or a table
            cannot be appended to. CSV writes its header only into an empty output, so a FILE (or with --state
            a >> FILE) that holds bytes must begin with this run's csv header line; tsv must not go after that
            header, nor ndjson after anything but a '{'; and it must end a line (not a record cut short).
            Otherwise it is exit 1, naming the file, before anything is asked or written.
            """,
        arguments: [],
        options: options.group.options,
        examples: [
            ("gh-users list --limit 5", "The first five accounts."),
            ("gh-users list --limit 100 --full --format ndjson", "The first 100, full profiles: one request each."),
            (
                "gh-users list --since 1000 --limit 200 --format ndjson",
                "200 accounts after id 1000, one JSON object per line."
            ),
            ("gh-users list --all --format ndjson > users.ndjson", "Crawl everything; resume later with --since."),
            (
                "gh-users list --all --state users.state --format ndjson >> users.ndjson",
                "A crawl to run nightly: each run appends only the accounts created since the last."
            ),
            (
                "gh-users list --all --state users-tsv.state --output users.tsv",
                "A crawl that survives a kill or a power cut with nothing written twice."
            ),
            (
                "gh-users list --since 0 --until 50000000 --all --state shard1.state --output shard1.tsv",
                "One shard of a crawl split by id range."
            ),
        ],
        fields: FieldCatalog.account
    ).declaring(options).paging("accounts", profiles: true)

    /// What a crawl pages with once `start` has had its say.
    struct Crawl {
        var options: ListUsersOptions
        /// The streams and output settings: `--output FILE` puts a file where stdout was.
        var context: CommandContext
        /// The output already holds records that this run appends to, so no CSV header is written again.
        var continuesOutput = false
        /// With `--state`: the state replaced after every page.
        var checkpoint: CrawlCheckpoint?
        /// `--output`'s file, closed when the run has written it all.
        var output: CrawlOutputFile?
    }

    enum Start {
        case run(Crawl)
        /// Nothing is to be fetched, or nothing can be: the outcome, already reported.
        case finished(CommandOutcome)
    }

    /// Before the first request, with `--state` or `--output`: reads the state, opens the output (cut back to the
    /// state's length), and decides where the crawl starts; or ends the run when the state is unusable or the
    /// shard is already done.
    static func start(_ requested: ListUsersOptions, _ context: CommandContext, apiURL: String) -> Start {
        var options = requested
        let stateFile = options.statePath.map(CrawlStateFile.init(path:))
        let state: CrawlState?
        let output: CrawlOutputFile?
        let lock: OwnedFileLock?
        let outputPath = options.outputPath.map(absolutePath)
        let settings = CrawlOutputSettings(
            format: context.common.format ?? .tsv, fields: context.common.fields, full: options.profiles.full,
            via: options.profiles.via)
        // A file that holds bytes gets no CSV header, so it must begin as this run's output would.
        let render = context.appending(to: nil).render
        let writer = RecordStreamWriter(context: render, columns: columns(options.profiles, render))
        let check = AppendedOutputCheck(format: render.format, header: writer.csvHeader, columns: writer.columns.count)
        // A byte order mark alone is an empty file; one that cannot be read holds what its length says.
        let stdoutHolds =
            context.stdoutFile.map { path in
                AppendedOutputCheck.ends(ofFile: path, count: 4).start.map { !AppendedOutputCheck.holdsNothing($0) }
                    ?? ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 > 0)
            } ?? false
        let done: Bool
        do throws(LocalFileError) {
            lock = try stateFile?.lock()
            state = try stateFile?.load()
            if let state, let stateFile { try StateCheck.checkAPIRoot(of: state, file: stateFile.path, now: apiURL) }
            // A shard already crawled to its end: nothing to fetch, nothing to write. (Without a state, `--since N
            // --until N` runs as any list does, so JSON still prints its empty array.)
            done = state.map { state in options.until.map { state.since >= $0 } ?? false } ?? false
            if let state, let stateFile {
                try StateCheck(
                    state: state, file: stateFile.path, output: outputPath,
                    formerly: options.outputPath.map(textualPath), settings: settings, done: done
                ).run()
            }
            output = try options.outputPath.map { path throws(LocalFileError) in
                let cut = state.flatMap { state in
                    state.outputBytes.map {
                        OutputCut(recorded: $0, since: state.since, until: options.until, settings: settings)
                    }
                }
                return try CrawlOutputFile(
                    path: path, cut: cut, resumable: stateFile != nil, check: done ? nil : check)
            }
            // A crawl to `>> FILE` holds it as `--output` does; `> FILE`, which a rerun empties, is refused.
            let stdoutFile = stateFile != nil && output == nil ? context.stdoutFile : nil
            let stdout = stdoutFile.map(TerminalSanitizer.quotedPath)
            if let refusal = stdout.flatMap({ OutputLock.refusal(forStdout: $0, stateHeld: state != nil) }) {
                throw refusal
            }
            if let stdoutFile, let stdout, stdoutHolds, !done,
                case (let start, let last) = AppendedOutputCheck.ends(ofFile: stdoutFile, count: check.readLength),
                let refusal = check.refusal("the file stdout appends to, \(stdout),", start: start, last: last)
            {
                throw refusal
            }
        } catch {
            context.io.writeErr("gh-users: \(error.message)\n")
            return .finished(.setupFailed)
        }
        // The state of a crawl from `--since` never stands below it: one that does is another crawl's (a shard's
        // state given to the next shard), which would write accounts from outside the range asked for.
        if let state, state.since < requested.since {
            context.io.writeErr(
                "gh-users: the crawl in \(TerminalSanitizer.quotedPath(requested.statePath ?? "")) stands at account "
                    + "id \(state.since), below --since \(requested.since): it is another crawl's state, so nothing "
                    + "was asked (give that crawl's own state, or a new file)\n")
            return .finished(.setupFailed)
        }
        if let state { options.since = state.since }
        if done {
            if context.io.stderrIsTTY, let until = options.until {
                context.io.writeErr(
                    "gh-users: nothing to do: the crawl in \(TerminalSanitizer.quotedPath(requested.statePath ?? "")) stands at account id "
                        + "\(options.since), at or past --until \(until).\n")
            }
            return .finished(.success)
        }
        // A state its owner made read-only, which every page would replace, stops the run before its first request
        // (before, a resumed crawl wrote a page and then stopped, a review's find).
        do throws(LocalFileError) {
            try stateFile?.file.checkWritable()
        } catch {
            context.io.writeErr("gh-users: \(error.message)\n")
            return .finished(.setupFailed)
        }
        // A state is on disk before the first page is written, so a kill between that page and its state still
        // finds the output's length to cut back to (and a state that cannot be written stops the run now). An
        // older state gets this run's settings here, once StateCheck has found nothing written under it, and
        // this run's API root.
        if let stateFile,
            state == nil || (output != nil && state?.outputBytes == nil) || state?.settings == nil
                || state?.apiURL == nil
        {
            do {
                var initial = CrawlState(
                    since: options.since, outputBytes: output?.initialLength, output: output == nil ? nil : outputPath,
                    settings: settings, apiURL: apiURL)
                initial.beforeFirstPage = state?.beforeFirstPage ?? true
                try stateFile.replace(with: initial)
            } catch {
                context.io.writeErr("gh-users: \(error.message)\n")
                return .finished(.setupFailed)
            }
        }
        // stdout a pipe: the state records only the pages its reader took.
        let pipe = stateFile != nil && output == nil ? PipeTally<Int64>.of(context.io.out) : nil
        var run = Crawl(options: options, context: context.appending(to: output ?? pipe))
        // A CSV header is written unless the output already holds some of the crawl: a file by its length (cut back
        // to the state's), stdout by the state (one written before the first page holds none), or a file stdout
        // appends to (`>>`) that holds an earlier crawl's (a shard's), as `--output` to such a file writes none.
        // Either file began as this run's output would (`AppendedOutputCheck`).
        run.continuesOutput =
            output.map { !$0.startsEmpty } ?? ((state.map { !$0.beforeFirstPage } ?? false) || stdoutHolds)
        run.output = output
        if let stateFile {
            run.checkpoint = CrawlCheckpoint(
                stateFile: stateFile, lock: lock, output: output, outputPath: outputPath, settings: settings,
                apiURL: apiURL, pipe: pipe, stdout: output == nil ? context.io.out : nil)
        }
        return .run(run)
    }

    /// The columns of a list's records: the list's summaries, or with `--full` the profiles'.
    static func columns(_ profiles: ProfileOptions, _ render: RenderContext) -> [Column<User>] {
        profiles.full
            ? ProfileStage<ListUsersOptions, User>.accounts(\.profiles).columns(render) : AccountColumns.summary
    }

    /// The output's path as the state records it, absolute, so the same file is recognised from another folder:
    /// its folder as open(2) reaches it, links and `..` resolved in turn (after a link `ld`, `ld/..` is the folder
    /// above where it leads, not the one `ld` is in: a review's find, whose rerun was refused for good), and its
    /// name as given; a folder not there yet as written.
    private static func absolutePath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let name = absolute.split(separator: "/").last.map(String.init) ?? ""
        // A descriptor's path (`--output /dev/fd/3 3>>out.tsv`) stays as typed: its folder is /proc/PID/fd, this
        // run's alone, which no rerun could name (helper-289).
        let folder = FileDescriptorIO.realPath(OwnedFile.directory(of: absolute))
        guard !["", ".", ".."].contains(name), let folder, !folder.hasPrefix("/proc/") else { return textualPath(path) }
        return (folder == "/" ? "" : folder) + "/" + name
    }

    /// The path with `.` and `..` taken away as text, as gh-users recorded a file not there yet before
    /// `absolutePath` (Foundation's standardizing, which resolves a link before `..` only once the file exists).
    private static func textualPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var names: [Substring] = []
        for name in absolute.split(separator: "/") where name != "." {
            if name == ".." { _ = names.popLast() } else { names.append(name) }
        }
        return "/" + names.joined(separator: "/")
    }
}

extension ListUsersOptions: GitHubCommand {
    static var spec: CommandSpec { ListUsersCommand.spec }

    /// Its options as the scanner read them.
    init(_ parsed: ParsedArguments, spec: CommandSpec) {
        self = parsed.options()
        paging = parsed.paging
        profiles = parsed.profiles
    }

    /// With `--state`, stderr into the records' file refused first; exit 4 without a token for `--full --via
    /// graphql`; the crawl's setup; then `GET /users` from `--since`, each account past the last written, to `--until`.
    func run(_ initialContext: CommandContext, _ github: GitHubReader) async -> CommandOutcome {
        if statePath != nil, OutputLock.refusedSharedStderr(stdoutFile: initialContext.stdoutFile, output: outputPath) {
            return .setupFailed
        }
        if profiles.full, profiles.via == .graphql, !initialContext.presenter.hasToken {
            return ProfileSource.tokenRequirement(command: "list").refuse(initialContext)
        }
        if let statePath,
            let refusal = CrawlStateFile(path: statePath).file.outputRefusal(
                output: outputPath, stdoutFile: initialContext.stdoutFile, command: ListUsersCommand.spec)
        {
            return refusal
        }
        var crawl = ListUsersCommand.Crawl(options: self, context: initialContext)
        if statePath != nil || outputPath != nil {
            switch ListUsersCommand.start(self, initialContext, apiURL: RecordedAPIRoot.of(github.apiRoot)) {
            case .finished(let outcome): return outcome
            case .run(let started): crawl = started
            }
        }
        let (options, context) = (crawl.options, crawl.context)
        let pages = PagedListViewModel(
            limit: options.paging.plan.limit, list: GitHubEndpoints.users(since: options.since),
            perPage: options.paging.plan.perPage, github: github,
            admitting: .idOrder(after: options.since, through: options.until))
        let full = options.profiles.full ? ProfileStage<ListUsersOptions, User>.accounts(\.profiles) : nil
        let render = context.render
        var stream = ListStream(
            noun: "accounts",
            columns: !render.readsColumns ? [] : ListUsersCommand.columns(options.profiles, render),
            command: context)
        stream.continuesOutput = crawl.continuesOutput
        stream.expansion = full.map { $0.expansion(options.profiles, github) }
        stream.resume = CrawlResumeHint(
            requested: self, context: context, resumedAfter: crawl.checkpoint == nil ? nil : options.since)
        stream.checkpoint = crawl.checkpoint
        let end = await stream.stream(pages)
        // A rerun that finds nothing new would say nothing at all on a terminal.
        var notes: [String] = []
        if let statePath = crawl.checkpoint?.stateFile.path, end.taken == 0, context.io.stderrIsTTY {
            notes.append(
                "gh-users: nothing new after id \(options.since): the crawl in "
                    + "\(TerminalSanitizer.quotedPath(statePath)) is up to date.")
        }
        let outcome = stream.close(end, notes: notes)
        // A run that ends has written the CSV header, even with no one to write: a state still before its first
        // page is no longer, lest every rerun that finds no one write it again.
        if outcome == .success, !end.wroteRecords, let checkpoint = crawl.checkpoint {
            try? checkpoint.pageWritten(lastID: options.since)
        }
        if outcome == .success, let failure = crawl.output?.finish() { return .writeFailed(failure, io: context.io) }
        if let checkpoint = crawl.checkpoint, checkpoint.pipe != nil {
            return await checkpoint.settle(outcome, started: options.since, context)
        }
        return outcome
    }
}
