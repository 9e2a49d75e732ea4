import AtomicCore
import Domain

/// What a token is needed for, named in the exit-4 message, and an optional hint after it.
struct TokenRequirement: Sendable, Equatable {
    let command: String
    var hint: String?

    /// Says on stderr that the command needs a token, with the hint, and ends the run (exit 4).
    func refuse(_ context: CommandContext) -> CommandOutcome {
        let error = DomainError.tokenRequired(command: command)
        context.io.writeErr(context.presenter.present(error).message + (hint ?? ""))
        return .failed(error)
    }
}

/// The outcome of each resource asked for, in order, and a closing line for a terminal's stderr (what a
/// GraphQL run spent and saved), written after the output and the failures.
struct ResourceLoad<Value: Sendable>: Sendable {
    let results: [Result<Value, DomainError>]
    var closingLine: String?

    init(_ results: [Result<Value, DomainError>], closingLine: String? = nil) {
        self.results = results
        self.closingLine = closingLine
    }
}

extension ResourceLoad {
    /// What was found, in order: what the command renders for `write`.
    var values: [Value] { results.compactMap { try? $0.get() } }

    /// Writes `output`, what the command rendered of `values`, unless every lookup failed and `standsForNone` is
    /// false (a list of several is one document for none too: `[]`, csv's header); then reports each
    /// failure on stderr, and sums the lot up as one outcome: how a command that reads whole resources (`show`,
    /// `rate-limit`, `me`) ends. `empty` says when a terminal is told that nothing was found. Where the first value
    /// is itself the record `--fields` reads (`show`'s account, `me`'s), a path it lacks is warned of first.
    /// `refusingBlankRows` false: the record is what a write made (`me edit`), which a `--fields` mistake must
    /// not report as failed; its paths are warned of only.
    func write(
        _ output: [UInt8], to context: CommandContext,
        empty: (noun: String, isEmpty: @Sendable (Value) -> Bool)? = nil, refusingBlankRows: Bool = true,
        standsForNone: Bool = false
    ) -> CommandOutcome {
        let values = self.values
        let failures = results.compactMap { result in
            if case .failure(let error) = result { return error }
            return nil
        }
        if !values.isEmpty || failures.isEmpty || standsForNone {
            // A `--fields` path the object lacks is said before the blank it leaves, as a list's first record does.
            if let record = values.first as? any JSONRecord,
                let refusal = ResourceReport.checkFields(of: record, refusing: refusingBlankRows, context)
            {
                ResourceReport.say(failures, to: context)
                return .failed(refusal)
            }
            do {
                try context.io.out.write(output)
            } catch {
                // The lookups that failed are still said, and a reader that left (`| head`) does not make them a
                // success: `show nosuchzz octocat` into a closed pipe was exit 0 with nothing said.
                let outcome = CommandOutcome.writeFailed(error, io: context.io)
                ResourceReport.say(failures, to: context)
                guard outcome == .outputClosed, !failures.isEmpty else { return outcome }
                return .partial(failures: failures, successes: values.count)
            }
        }
        if failures.isEmpty, !values.isEmpty, let empty, values.allSatisfy(empty.isEmpty),
            let line = context.render.nothingFound(empty.noun)
        {
            context.io.writeErr(line + "\n")
        }
        ResourceReport.say(failures, to: context)
        if context.io.stderrIsTTY, let line = closingLine {
            context.io.writeErr(line)
        }
        return failures.isEmpty ? .success : .partial(failures: failures, successes: values.count)
    }
}

/// What a command that reads whole resources says of its first record and of its failures, whether it writes
/// them all at once (`ResourceLoad.write`) or one by one as they come (`ProfileStream`).
enum ResourceReport {
    /// Warns of each `--fields` path `record` (the first one written) lacks. Where every column is such a path,
    /// every row would be blank: with `refusing`, nothing is to be written, and the refusal is said and returned
    /// (exit 1); without (`me edit`'s record of a write made), its paths are warned of only.
    static func checkFields(of record: any JSONRecord, refusing: Bool, _ context: CommandContext) -> DomainError? {
        guard context.render.fields != nil else { return nil }
        let writer = RecordStreamWriter<RawJSON>(context: context.render, columns: [])
        guard refusing, writer.everyPathGoesWrong(in: record.raw) else {
            for warning in writer.pathWarnings(for: record.raw) { context.io.writeErr(warning) }
            return nil
        }
        for warning in writer.pathWarnings(for: record.raw, stopping: true) { context.io.writeErr(warning) }
        let error = DomainError.refused(
            "the account GitHub sent has nothing at " + (context.render.fields ?? []).joined(separator: ", ")
                + ", so every row would be blank: check the part after the dot (--format json shows what it holds)")
        context.io.writeErr(context.presenter.present(error).message)
        return error
    }

    /// Each failure on stderr; one that every lookup met (a spent rate limit, say) once, not once per login.
    static func say(_ failures: [DomainError], to context: CommandContext) {
        var said: Set<String> = []
        let presenter = context.presenter.heldAtNow()
        for failure in failures {
            let presentation = presenter.present(failure)
            if said.insert(presentation.withoutRequestID).inserted { context.io.writeErr(presentation.message) }
        }
    }
}

extension Result where Failure == DomainError {
    /// The outcome of one typed-throwing fetch, as a value.
    static func of(_ body: () async throws(DomainError) -> Success) async -> Result<Success, DomainError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
