import Domain
import TestSupport
import Testing

@testable import gh_users

/// Values of commands' own options that are checked, or put in GitHub's form, before anything is sent.
struct OptionValueTests {
    private func route(_ arguments: [String]) -> Route {
        CommandRouter().route(arguments)
    }

    private func usageMessage(_ arguments: [String]) -> String? {
        if case .usageError(let error) = route(arguments) { return error.message }
        return nil
    }

    private func options<Options>(_ arguments: [String], as type: Options.Type) -> Options? {
        guard case .run(let invocation) = route(arguments) else { return nil }
        return invocation.options as? Options
    }

    /// An option's value is echoed in the error as given: its escape sequences are shown, never obeyed.
    @Test func aUsageErrorShowsControlCharactersInsteadOfObeyingThem() throws {
        let error = try #require(
            {
                if case .usageError(let error) = route(["contributions", "octocat", "--from", "2024\u{1B}[31m"]) {
                    return error
                }
                return nil
            }())
        #expect(!error.rendered.contains("\u{1B}"))
        #expect(
            error.rendered.contains("2024\\e[31m") || error.rendered.contains("2024\\u{1B}[31m"), "\(error.rendered)")
    }

    /// A line break an argument brings is shown as `\n`, whatever the message quotes it in (an option's value,
    /// `--opt=value`, a mistyped option or command), while the message's own lines stay lines. Before, it printed
    /// a line of its own (a review's find: `list --since $'1\n2'`).
    @Test(arguments: [
        (["list", "--since", "1\n2"], "'1\\n2'"), (["list", "--format=js\r\non"], "'js\\r\\non'"),
        (["list", "--li\nmit", "2"], "'--li\\nmit'"), (["lsit\u{2028}"], "'lsit\u{FFFD}'"),
        // One word within another, whichever comes first; an item of a list.
        (["list", "a\nb\nc", "a\nb"], "'a\\nb\\nc'"), (["list", "--fields", "login,na\nme"], "'na\\nme'"),
    ])
    func aLineBreakInAnArgumentIsShownNotPrinted(arguments: [LoggedText], shown: String) async {
        let (env, out, err) = AppEnvironment.test(http: StubTransport())
        #expect(await GhUsersApp(environment: env).run(arguments.map(\.text)) == 64)
        #expect(out.text.isEmpty)
        let first = err.text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("Error: ") && first.contains(shown), "\(err.text)")
        #expect(!err.text.contains("\u{2028}") && !err.text.contains("\r"), "\(err.text)")
        #expect(err.text.split(separator: "\n").allSatisfy { !$0.hasPrefix("b") && !$0.hasPrefix("me") }, "\(err.text)")
    }

    /// An argument of a line break alone leaves the message's own lines as they are (a review saw "Did you mean"
    /// joined to the first line by `lst $'\n'`).
    @Test func anArgumentOfALineBreakAloneLeavesTheMessagesLines() async {
        let (env, _, err) = AppEnvironment.test(http: StubTransport())
        #expect(await GhUsersApp(environment: env).run(["lst", "\n"]) == 64)
        #expect(err.text.hasPrefix("Error: unknown command 'lst'\nDid you mean 'list'?\n"), "\(err.text)")
    }

    /// GitHub has no contributions before October 2007: a span reaching back further would spend a request a
    /// year on nothing.
    @Test func contributionsFromBeforeGitHubIsRefused() {
        #expect(
            usageMessage(["contributions", "octocat", "--from", "1900-01-01"])
                == "--from 1900-01-01 is before GitHub began (2007-10-01): no account has contributions before then")
        #expect(options(["contributions", "octocat", "--from", "2007-10-01"], as: ContributionsOptions.self) != nil)
        // `--to` alone, whose default start a year before it is earlier still.
        #expect(
            usageMessage(["contributions", "octocat", "--to", "1999-12-31"])
                == "--to 1999-12-31 is before GitHub began (2007-10-01): no account has contributions before then")
        #expect(usageMessage(["star-history", "octocat/Hello-World", "--to", "2006-01-01"])?.hasPrefix("--to") == true)
        // `--to` in GitHub's first year: the default start, a year before it, begins when GitHub did.
        let today = CalendarDay("2026-11-30")!
        #expect(
            DaySpan.resolve(from: nil, to: CalendarDay("2008-03-01"), today: today)
                == CalendarDay("2007-10-01")!...CalendarDay("2008-03-01")!)
        #expect(
            DaySpan.resolve(from: nil, to: CalendarDay("2009-03-01"), today: today)?.lowerBound
                == CalendarDay("2008-03-02"))
    }

    /// A subject id is a positive number, sent in its plain form.
    @Test func aHovercardSubjectIDIsAPositiveNumber() {
        let chosen = options(
            ["hovercard", "octocat", "--subject-type", "repository", "--subject-id", "00012"],
            as: HovercardOptions.self)
        #expect(chosen?.subjectID == "12")
        for bad in ["0", "-3", "99999999999999999999", "12a", ""] {
            #expect(
                usageMessage(["hovercard", "octocat", "--subject-type", "repository", "--subject-id", bad]) != nil,
                "\(bad)")
        }
    }

    /// `@mona`, as people write an X account, is sent as GitHub keeps it: `mona`.
    @Test func aTwitterUsernameLosesItsAt() {
        let chosen = options(["me", "edit", "--twitter-username", "@mona"], as: MeEditCommand.self)
        #expect(chosen?.edit.texts["twitter_username"] == "mona")
    }

    /// A command over an organization names its argument ORG in its usage errors, not LOGIN.
    @Test func theOneArgumentIsNamedAsTheSpecNamesIt() {
        let spec = CommandSpec(
            name: "members", abstract: "", usage: "gh-users members ORG", discussion: nil,
            arguments: [("ORG", "The organization.")], options: [], examples: [])
        #expect(throws: UsageError(message: "members needs an ORG", command: spec)) {
            try Operand.login.read(ParsedArguments(), spec: spec)
        }
        var two = ParsedArguments()
        two.positionals = ["github", "octo-org"]
        #expect(throws: UsageError(message: "unexpected argument 'octo-org': members takes one ORG", command: spec)) {
            try Operand.login.read(two, spec: spec)
        }
    }
}
