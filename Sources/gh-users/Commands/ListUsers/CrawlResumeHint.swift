import AtomicCore
import Domain

extension ListUsersCommand {
    /// The command line that goes on after the last account written, with the user's output, paging, host and
    /// cache choices, so that running it continues the same output. Never a token: none is ever on the line.
    /// With `--state`, the command itself: the state file knows where to go on from. A run that stopped short of
    /// its `--limit` after writing `written` accounts asks only for the rest (`--limit 2000` stopped at 500:
    /// `--limit 1500`), so that the run and its continuation write the number first asked for. `leavingOffline`:
    /// the run stopped at a page `--offline` did not have, which the same line would stop at again, so the
    /// rerun reads GitHub, and says so.
    static func resumeHint(
        after lastID: Int64, written: Int? = nil, _ options: ListUsersOptions, _ context: CommandContext,
        leavingOffline: Bool = false
    ) -> String {
        var paging = options.paging
        if let written, case .count(let limit) = paging.limit, written > 0, written < limit {
            paging.limit = .count(limit - written)
        }
        // With a state, the command as given; else from after the last account written. The state comes right
        // after --since, as the hint has always written it.
        var resumed = options
        if options.statePath == nil { resumed.since = lastID }
        // CSV's header would come again in the middle of the file: the rest goes to that file through `--output`,
        // which writes none into a file that holds records; where stdout is no file, the hint says to leave it out.
        let csvAppended =
            options.statePath == nil && options.outputPath == nil && !context.io.stdoutIsTTY
            && context.common.format == .csv
        if csvAppended, let file = context.stdoutFile { resumed.outputPath = file }
        // A descriptor the shell made for this run alone (`--output >(gzip > f)`: /dev/fd/63) is gone, or another
        // file, on the rerun: left out of the line, and said (a review's find).
        var notes: [String] = []
        // A regular file behind it (`3>>out.tsv`) is the same redirection's again.
        if let output = options.outputPath, !CommonOptions.canBeReadAgain(tokenFile: output),
            !FileDescriptorIO.isRegularFile(output)
        {
            resumed.outputPath = nil
            notes.append(
                "The output went to \(ShellWord.quote(output)), which the shell made for this run alone: give the "
                    + "line below --output (or a redirection) for where the rest goes.")
        }
        var words = [context.programName, "list"]
        for option in [since, state, until, output] { words += option.words(resuming: resumed) }
        words += PagingGroup.declared.arguments(paging)
        words += ProfileGroup.declared.arguments(options.profiles)
        var common = context.common
        var lines = notes
        if leavingOffline, common.cacheMode == .offline {
            common.cacheMode = .readWrite
            lines.append("That page is not in the cache, so the line below leaves --offline out: it reads GitHub.")
        }
        words += CommonOptions.arguments(common)
        var command = ShellWord.line(words)
        if options.statePath == nil {
            if context.common.format == .json, !context.render.isTTY {
                lines.append(
                    "The rest is a JSON array of its own: write it to another file, not after this one (or crawl "
                        + "with --format ndjson, whose lines can be appended).")
            }
            if csvAppended, context.stdoutFile == nil {
                lines.append("The rest starts with csv's header again: leave that line out where you append it.")
            }
            lines.append("To continue from here: " + command)
        } else if options.outputPath == nil, !context.io.stdoutIsTTY {
            // The output went to stdout, and the rerun must append to the same place.
            if let file = context.stdoutFile {
                command += " >> " + ShellWord.quote(file)
                lines.append("To continue from here, run it again: " + command)
            } else {
                lines.append("To continue from here, run it again, appending to where this output went: " + command)
            }
        } else {
            lines.append("To continue from here, run it again: " + command)
        }
        if let note = CommonOptions.tokenFileNote(context.common) { lines.append(note) }
        return lines.joined(separator: "\n")
    }
}

/// The resume hint of a crawl: the command line that goes on after the last account written.
struct CrawlResumeHint: ResumeHint {
    let requested: ListUsersOptions
    let context: CommandContext
    /// With `--state`, where the state stands: a run stopped before its first page still says to run it again.
    var resumedAfter: Int64?

    func hint(afterID id: Int64, written: Int?, stoppedBy error: DomainError?) -> String {
        var notCached = false
        if case .notCached? = error { notCached = true }
        return ListUsersCommand.resumeHint(after: id, written: written, requested, context, leavingOffline: notCached)
    }

    /// The state records the output's length, and the rerun cuts the file back to it.
    var rerunCutsOutputBack: Bool { requested.statePath != nil && requested.outputPath != nil }

    var appendedFile: String? {
        requested.statePath != nil && requested.outputPath == nil ? context.stdoutFile : nil
    }
}
