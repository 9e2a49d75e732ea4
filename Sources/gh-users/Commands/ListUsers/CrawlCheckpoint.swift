import AtomicCore

/// `list --state`: after each page, the output is flushed to disk and the state replaced with the page's last
/// account, so a state never counts a page that is not on disk. With stdout a pipe, the state records a page
/// only once the reader has read well past it (`PipeTally`), and the run ends by waiting for the reader to take
/// the rest, so a reader that leaves early (`| head -300`) has the state skip nothing it printed.
struct CrawlCheckpoint: PageCheckpoint {
    let stateFile: CrawlStateFile
    /// Held as long as the run can still write a state.
    let lock: OwnedFileLock?
    let output: CrawlOutputFile?
    let outputPath: String?
    let settings: CrawlOutputSettings
    /// The API root the crawl reads, which every state records (`RecordedAPIRoot.of`).
    let apiURL: String
    /// stdout's pipe, when the crawl writes to one.
    let pipe: PipeTally<Int64>?
    /// stdout, when the crawl writes there (`>> FILE`, a pipe, a terminal): put on disk before the state, as
    /// `output` is, where it is a file.
    let stdout: (any OutputSink)?
    /// The regular file stdout appends to, by its path and descriptor: the path must go on naming it (`>> FILE`
    /// replaced mid-run had every later page go where no one looks, and the run end 0: helper-347's Q1).
    let stdoutFile: (path: String, descriptor: Int32)?

    init(
        stateFile: CrawlStateFile, lock: OwnedFileLock?, output: CrawlOutputFile?, outputPath: String?,
        settings: CrawlOutputSettings, apiURL: String, pipe: PipeTally<Int64>?, stdout: (any OutputSink)?
    ) {
        (self.stateFile, self.lock, self.output, self.outputPath) = (stateFile, lock, output, outputPath)
        (self.settings, self.apiURL, self.pipe, self.stdout) = (settings, apiURL, pipe, stdout)
        stdoutFile = (stdout as? FileDescriptorSink).flatMap { sink in
            FileDescriptorIO.regularFilePath(of: sink.descriptor).map { ($0, sink.descriptor) }
        }
    }

    func pageWritten(lastID: Int64) throws(OutputWriteError) {
        guard let pipe else { return try record(lastID) }
        // The last page the reader has taken whole, if it took one since the last page was written.
        if let taken = pipe.written(lastID).last { try record(taken) }
    }

    /// For stdout to a regular file (`>>`), whose length no state records: the records before a failed write's
    /// cut one are on disk, so the state may count them. `--output` (its length recorded, the cut part with it)
    /// and a pipe (its reader counts) keep the last whole page.
    func partPageWritten(lastID: Int64) -> Bool {
        guard output == nil, pipe == nil else { return false }
        return (try? record(lastID)) != nil
    }

    /// Replaces the state with `lastID` as the last account written.
    private func record(_ lastID: Int64) throws(OutputWriteError) {
        try stdout?.flushToDisk()
        try output?.checkStillNamed()
        if let (path, descriptor) = stdoutFile,
            let departure = FileDescriptorIO.departure(of: path, from: descriptor, length: nil)
        {
            throw CrawlOutputFile.departed(TerminalSanitizer.quotedPath(path), departure, stopped: "crawl")
        }
        do throws(LocalFileError) {
            // The data is on disk before the state that counts it, so a state never outlives its page.
            try output?.sync()
            try stateFile.replace(
                with: CrawlState(
                    since: lastID, outputBytes: output?.currentLength, output: output == nil ? nil : outputPath,
                    settings: settings, apiURL: apiURL))
        } catch {
            throw OutputWriteError(message: error.message)
        }
    }

    /// The end of a crawl to a pipe, however it ended: the reader is waited on to take what it has not (as
    /// `--changes` waits; not once it left, or after a signal), and the state records the last page it took. A
    /// reader that did not take every page (it left, or took nothing for `readerLimit`) makes a run that would
    /// have succeeded exit 1, and stderr says where the state stands; `started` is where it stood before this run.
    func settle(_ outcome: CommandOutcome, started: Int64, _ context: CommandContext) async -> CommandOutcome {
        guard let pipe else { return outcome }
        let io = context.io
        let (taken, all) = await pipe.drain(
            waiting: outcome != .outputClosed, limit: Self.readerLimit, sleep: context.sleep)
        if let last = taken.last {
            do {
                try record(last)
            } catch {
                io.writeErr("gh-users: \(error.message)\n")
                return .setupFailed
            }
        }
        // After a signal (SIGTERM: exit 143) the run ends as any interrupted run, and the reader is not blamed.
        if Task.isCancelled {
            return outcome == .success || outcome == .outputClosed ? context.interrupted() : outcome
        }
        guard !all || outcome == .outputClosed else { return outcome }
        let place =
            pipe.lastTaken.map { "the accounts up to id \($0), the last page it took whole" }
            ?? "where the crawl stood before this run (after id \(started))"
        io.writeErr(
            "gh-users: the reader of stdout did not take every account written (it went away, or took none for "
                + "\(Self.readerLimit.components.seconds) seconds), so the state file "
                + "\(TerminalSanitizer.quotedPath(stateFile.path)) records only what it took: \(place). The next "
                + "run goes on from there. This counts what the first program of the pipe read: one that filters for a reader "
                + "that quit (| jq | head) read more than was kept. A crawl to resume is written with --output.\n")
        return outcome == .success || outcome == .outputClosed ? .setupFailed : outcome
    }

    /// How long a reader that takes nothing is waited on at the end, as `--changes` waits.
    static var readerLimit: Duration { .seconds(5) }
}
