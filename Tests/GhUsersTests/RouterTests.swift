import Domain
import Testing

@testable import gh_users

struct RouterTests {
    private func route(_ arguments: String) -> Route {
        CommandRouter().route(arguments.split(separator: " ").map(String.init))
    }

    private func usageMessage(_ arguments: String) -> String? {
        if case .usageError(let error) = route(arguments) { return error.message }
        return nil
    }

    /// The scanner reads every option given, but a bad value is said in the order a command line was always read
    /// in: the command's arguments first, then its own options (and the rule across them), then paging, profile,
    /// output, network, cache and logging, each group in the order it declares its options.
    @Test(arguments: [
        ("show a..b --concurrency 0", "invalid login 'a..b'"),
        ("show --id 0 --format yaml", "invalid value '0' for '--id'"),
        ("show octocat --id 5", "give either LOGINs or --id, not both"),
        ("show --via graphql --id 5 --format yaml", "--via graphql looks accounts up by login"),
        ("list --since -1 --limit 0", "invalid value '-1' for '--since'"),
        ("list --limit 0 --format yaml", "invalid value '0' for '--limit'"),
        ("list --state s --format json --since -1", "invalid value '-1' for '--since'"),
        ("list --state s --format json", "--state needs a format that can be appended to (tsv, csv or ndjson), not"),
        ("list --output o --json", "--output needs a format that can be appended to (tsv, csv or ndjson), not"),
        ("list --state s --output o --format table", "--state needs a format that can be appended to"),
        ("list --full --fields nosuch --format yaml", "the field 'nosuch' is not in a profile"),
        ("list --concurrency 3", "--concurrency applies only with --full"),
        ("members a/b --role boss", "invalid login 'a/b'"),
        ("members org --role boss --limit 0", "invalid value 'boss' for '--role'"),
        ("members org --fields change --format yaml", "the field 'change' exists only with --changes"),
        ("members org --role x --fields change", "invalid value 'x' for '--role'"),
        ("members org --public --role admin --format yaml", "--public lists the public members as they are"),
        ("collaborators o/r --affiliation x --fields nosuch", "invalid value 'x' for '--affiliation'"),
        ("contributors o/r --anon --changes f", "--changes records people by their account id"),
        ("team-members org --direct", "invalid team 'org'"),
        ("team-members org/t --direct --role x", "invalid value 'x' for '--role'"),
        ("members org --offline --no-cache --limit 0", "invalid value '0' for '--limit'"),
        ("list --max-wait -1 --timeout 0", "invalid value '0' for '--timeout'"),
    ])
    func theFirstOfTwoUsageErrorsIsSaid(arguments: String, messageStart: String) throws {
        let message = try #require(usageMessage(arguments), "\(arguments)")
        #expect(message.hasPrefix(messageStart), "\(arguments): \(message)")
    }

    /// A path with an empty step goes into nothing: refused before anything is sent (before: the request went,
    /// exit 1, and the hint offered the same broken path again; a usage review's find).
    @Test(arguments: ["events octocat --fields actor.", "events octocat --fields id,actor..login", "list --fields .id"])
    func aFieldPathWithAnEmptyStepIsAUsageError(arguments: String) throws {
        let message = try #require(usageMessage(arguments), "\(arguments)")
        #expect(message.hasPrefix("--fields '") && message.contains("' has an empty step"), "\(message)")
    }

    /// The records gh-users makes itself, and GitHub's flat ones, hold plain values and lists, so a `--fields` path
    /// into one is refused before anything is sent (before: blank cells, exit 0, not a word); GitHub's other records
    /// still take paths.
    @Test(arguments: [
        ("access my-org --fields login,repository.name", "access's field 'repository'"),
        ("access my-org --fields sources.kind", "access's field 'sources'"),
        ("star-history o/r --fields date.x", "star-history's field 'date'"),
        ("contributions octocat --fields count.x", "contributions's field 'count'"),
        ("rate-limit --fields resource.x", "rate-limit's field 'resource'"),
        ("hovercard octocat --fields message.x", "hovercard's field 'message'"),
        // Before: an empty line and exit 0, or exit 1 when A did not follow B, which reads as the answer "no".
        ("follows alice bob --fields follower.x", "follows's field 'follower'"),
        // GitHub's flat records too. Before: the request, then a warning and exit 1 (helper-332).
        ("keys octocat --fields fingerprint.x", "keys's field 'fingerprint'"),
        ("signing-keys octocat --fields key.x", "signing-keys's field 'key'"),
        ("social octocat --fields url.x", "social's field 'url'"),
        ("emails --fields email.x", "emails's field 'email'"),
    ])
    func aPathIntoTheToolsOwnRecordsIsRefused(arguments: String, field: String) {
        let message = usageMessage(arguments)
        #expect(
            message?.contains(field + " is a plain value or a list, which a path cannot go into") == true,
            "\(message ?? "")")
        #expect(usageMessage("starred octocat --fields repo.full_name") == nil)
    }

    /// A contributor has a name and an email only as an anonymous author (`--anon`) or a profile (`--full`):
    /// without either the column would always be blank (before: blank cells, exit 0).
    @Test func contributorsNameAndEmailNeedAnonOrFull() {
        #expect(
            usageMessage("contributors o/r --fields login,email")?.hasPrefix("the field 'email' is an anonymous")
                == true)
        #expect(usageMessage("contributors o/r --fields login,email --anon") == nil)
        #expect(usageMessage("contributors o/r --fields login,name --full") == nil)
    }

    /// `me edit`'s fields are the profile's, which `--dry-run` does not print (before: ignored under --json, blank
    /// cells in tsv).
    @Test func meEditRefusesFieldsWithADryRun() {
        #expect(
            usageMessage("me edit --bio x --dry-run --json --fields bio")?.hasPrefix("--fields chooses among") == true)
        #expect(usageMessage("me edit --bio x --dry-run --json") == nil)
    }

    /// access's `--permission` names REST's words it takes too, as `collaborators`' names GraphQL's.
    @Test func accessPermissionsRefusalNamesPullAndPush() {
        #expect(
            usageMessage("access my-org --permission x")
                == "invalid value 'x' for '--permission': choose one of read, triage, write, maintain, admin, pull, push"
        )
    }

    /// `--timeout` takes at most a day, and its refusal says so (before: "a number of seconds above 0" for 86401).
    @Test func aTimeoutPastADayIsRefusedNamingTheCeiling() {
        #expect(
            usageMessage("list --timeout 86401")
                == "invalid value '86401' for '--timeout': a decimal number of seconds above 0 (30, 2.5), at most 86400 (a day)"
        )
        #expect(usageMessage("list --timeout 86400") == nil)
    }

    /// `role` is a field of `members --changes`' records only, while `team-members`' own records carry it: without
    /// `--changes`, `members` refuses it rather than print an empty column.
    @Test func aFieldOnlyChangeRecordsHaveIsRefusedWithoutChanges() {
        #expect(usageMessage("members org --fields login,role")?.hasPrefix("the field 'role' exists only") == true)
        #expect(usageMessage("members org --changes f --fields login,role") == nil)
        #expect(usageMessage("team-members org/team --fields login,role") == nil)
    }

    /// gh's `-L5` and `-L=5` are `-L 5`; a flag takes nothing written onto it.
    @Test func aShortOptionTakesItsValueWrittenOntoIt() {
        var options = ListUsersOptions()
        options.paging.limit = .count(5)
        #expect(route("list -L5") == .listUsers(options, CommonOptions()))
        #expect(route("list -L=5") == .listUsers(options, CommonOptions()))
        #expect(usageMessage("list -Lx")?.hasPrefix("invalid value 'x' for '--limit'") == true)
        #expect(usageMessage("list -hx")?.hasPrefix("unknown option '-hx'") == true)
    }

    /// GitHub's `-location:Berlin` is a qualifier, which reads as an option before `--`.
    @Test func aNegatedSearchQualifierIsPointedPastTheOptions() {
        let message = usageMessage("search rust -location:Berlin")
        #expect(message?.hasPrefix("unknown option '-location:Berlin': a negated qualifier goes after --") == true)
        #expect(usageMessage("list -location:Berlin")?.contains("negated") == false)
    }

    /// A usage error echoes what was typed, cut to a line a terminal can take.
    @Test func aHugeValueIsCutInTheMessage() throws {
        guard case .usageError(let error) = CommandRouter().route(["show", String(repeating: "a", count: 200_000)])
        else {
            Issue.record("a 200,000-character login is a usage error")
            return
        }
        #expect(error.message.count > 200_000)
        #expect(error.rendered.count < 3_000, "\(error.rendered.count) characters")
        #expect(error.rendered.contains(" more characters)"))
    }

    /// `--help` wins over a bad value given with it.
    @Test func helpWinsOverABadValue() {
        #expect(route("show octocat --help --concurrency 0") == .help(.command("show")))
    }

    @Test func listDefaults() {
        #expect(route("list") == .listUsers(ListUsersOptions(), CommonOptions()))
    }

    @Test func listWithEveryOption() {
        var options = ListUsersOptions()
        options.since = 46
        options.paging.limit = .count(150)
        options.paging.perPage = 50
        var global = CommonOptions()
        global.format = .ndjson
        global.apiURL = "http://127.0.0.1:9"
        #expect(
            route("list --since 46 -L 150 --per-page=50 --format ndjson --api-url http://127.0.0.1:9")
                == .listUsers(options, global)
        )
    }

    @Test(arguments: [
        ("--limit 2 list", "options come after the command: gh-users list --limit 2"),
        ("--api-url http://x --json list", "options come after the command: gh-users list --api-url http://x --json"),
        ("--limit 2", "'--limit' needs a command"),
        ("--nosuch list", "unknown option '--nosuch'"),
        // A flag with letters after it is no short option with its value: `-y` takes none.
        ("-y3 unfollow octocat", "unknown option '-y3'"),
    ])
    func optionsBeforeTheCommandSayWhereTheyGo(arguments: String, message: String) throws {
        #expect(try #require(usageMessage(arguments)).hasPrefix(message))
    }

    /// The line said back is the one to paste: a value that names a command is a value (`--fields show show`
    /// lost the value), a short option is pointed too, and words are quoted for the shell (a usage review's finds).
    @Test(arguments: [
        (["--fields", "show", "show", "octocat"], "gh-users show --fields show octocat"),
        (["--fields", "login, name", "show", "it's"], #"gh-users show --fields 'login, name' 'it'\''s'"#),
        (["-L", "3", "list"], "gh-users list -L 3"),
        // Its value written onto it, as `list -L3` takes it (was "unknown option '-L3'").
        (["-L3", "list"], "gh-users list -L3"),
    ])
    func optionsBeforeTheCommandAreSaidBackAsALineToPaste(arguments: [String], line: String) throws {
        guard case .usageError(let error) = CommandRouter().route(arguments) else {
            Issue.record("not a usage error: \(arguments)")
            return
        }
        #expect(error.message == "options come after the command: " + line)
    }

    @Test(arguments: [
        ("completion bash --retries 5", "option '--retries' does not apply to completion"),
        ("completion zsh --offline", "option '--offline' does not apply to completion"),
        ("cache info --limit 3", "option '--limit' does not apply to cache info"),
        ("rate-limit --all", "option '--all' does not apply to rate-limit"),
    ])
    func aCommandTakesOnlyItsOwnGroups(arguments: String, message: String) throws {
        #expect(try #require(usageMessage(arguments)) == message)
    }

    @Test func listAll() {
        var options = ListUsersOptions()
        options.paging.limit = .all
        #expect(route("list --all") == .listUsers(options, CommonOptions()))
    }

    @Test func showSeveralLogins() throws {
        let logins = try ["octocat", "dependabot[bot]"].map { try Login(validating: $0) }
        var options = ShowUsersOptions(logins: logins)
        options.concurrency = 8
        #expect(route("show octocat dependabot[bot] --concurrency 8") == .showUsers(options, CommonOptions()))
    }

    @Test(arguments: [
        ("list --since -1", "invalid value '-1' for '--since'"),
        ("list --since abc", "invalid value 'abc' for '--since'"),
        ("list --limit 0", "invalid value '0' for '--limit'"),
        ("list --per-page 101", "invalid value '101' for '--per-page'"),
        ("list --per-page 0", "invalid value '0' for '--per-page'"),
        ("list --limit 5 --all", "--limit and --all cannot be used together"),
        ("list extra", "unexpected argument 'extra'"),
        // A new user's guesses at what a command without arguments takes: a word that is a login or a number is
        // named back with the way to say it; before, "unexpected argument" alone.
        ("list octocat", "unexpected argument 'octocat': list pages through every account; for one, gh-users show oc"),
        ("list 100", "unexpected argument '100': list takes no number: --since 100 starts after that id, --limit 100"),
        ("emails octocat", "unexpected argument 'octocat': emails lists the token's own addresses"),
        ("blocks octocat", "unexpected argument 'octocat': blocks lists whom the token's account blocks"),
        ("rate-limit core", "unexpected argument 'core': rate-limit shows every resource; for one, gh-users rate-"),
        // Only what the named command takes (helper-346's R3 and R7): --limit is 1 or more, --since fits Int64, and
        // `show me` would be an account named "me".
        ("list 0", "unexpected argument '0': list takes no number: --since 0 starts at the first account"),
        ("rate-limit SCIM", "unexpected argument 'SCIM': rate-limit shows every resource; for one, gh-users rate"),
        ("list --limit", "option '--limit' needs a value"),
        // `-L5` reads as `-L 5`, as `-h` reads as help: written onto the option, either is a value.
        ("list --state -L5", "option '--state' needs a value (FILE), and '-L5' reads as an option"),
        // A number or a choice is never an option's word: `--limit=--all` was offered, itself refused (helper-341).
        ("list --limit --all", "option '--limit' needs a value (N), and '--all' is an option, not one: give --limit N"),
        ("list --format --json", "option '--format' needs a value (FORMAT), and '--json' is an option, not one"),
        // Followed, `--twitter-username=--dry-run` was sent as the handle (helper-342's R4).
        (
            "me edit --twitter-username --dry-run",
            "option '--twitter-username' needs a value (NAME), and '--dry-run' is an option, not one"
        ),
        ("list --fields --json", "option '--fields' needs a value (LIST), and '--json' is an option, not one"),
        ("list --all=yes", "option '--all' takes no value"),
        ("list --format xml", "invalid value 'xml' for '--format'"),
        ("list --json --format tsv", "--json and --format tsv cannot be used together"),
        ("show", "show needs at least one LOGIN, - for stdin, or --id N"),
        ("show -bad", "unknown option '-bad'"),
        ("show -- -bad", "invalid login '-bad'"),
        ("show ok ../etc", "invalid login '../etc'"),
        // A mention or a profile's address, pasted as seen: the login in it is named (helper-341's M9).
        ("show @octocat", "invalid login '@octocat': give the login alone, octocat"),
        // Before: "Did you mean '--json'?", one array where ndjson is a record a line (helper-341's M10).
        ("list --ndjson", "unknown option '--ndjson': a format is --format's value: --format ndjson"),
        ("followers octocat --CSV", "unknown option '--CSV': a format is --format's value: --format csv"),
        ("list -ndjson", "unknown option '-ndjson': a format is --format's value: --format ndjson"),
        (
            "followers https://www.github.com/octocat/",
            "invalid login 'https://www.github.com/octocat/': give the login alone, octocat"
        ),
        (
            "show https://github.com/octocat/Hello-World",
            "invalid login 'https://github.com/octocat/Hello-World': a login has"
        ),
        ("show octocat --concurrency 11", "invalid value '11' for '--concurrency'"),
        ("show octocat --concurrency 0", "invalid value '0' for '--concurrency'"),
        ("help nosuch", "no help for 'nosuch': it is neither a command nor a topic"),
        // Before: list's help, exit 0; and "no help for 'json'".
        ("help list --bogus", "unknown option '--bogus'"),
        ("help --format json", "unknown option '--format'"),
        ("help -- nosuch", "no help for 'nosuch'"),
        ("help -", "unknown option '-'"), ("help -- --man", "no help for '--man'"),
    ])
    func usageErrors(arguments: String, messageStart: String) throws {
        let message = try #require(usageMessage(arguments), "expected a usage error for \(arguments)")
        #expect(message.hasPrefix(messageStart), "got: \(message)")
    }

    /// A word that is neither a login nor a number gets no guess, and a command with no guess to make says
    /// "unexpected argument" alone: no hint ever echoes text that could be anything.
    @Test(arguments: [
        "list a/b", "list -- -1", "list a.b", "rate-limit now", "cache info extra", "list 9999999999999999999",
        "list me", "blocks me",
    ])
    func aStrayWordWithNoLikelyMeaningGetsNoHint(arguments: String) throws {
        let message = try #require(usageMessage(arguments), "expected a usage error for \(arguments)")
        let word = try #require(arguments.split(separator: " ").last)
        #expect(message == "unexpected argument '\(word)'", "got: \(message)")
    }

    /// `gh-users show me` would be an account named "me": `emails me` names no such command (helper-346's R7).
    @Test func emailsOfMeSuggestsNoShow() {
        #expect(
            usageMessage("emails me")
                == "unexpected argument 'me': emails lists the token's own addresses, as GitHub shows no one else's")
    }

    /// Of names as near, the one that begins as the typo does: `gist` was `list`, `blocked` `block`.
    @Test(arguments: [
        ("lst", "list"), ("shw", "show"), ("hlep", "help"), ("gist", "gists"), ("blocked", "blocks"),
    ])
    func unknownCommandsSuggestTheNearest(typo: String, suggestion: String) throws {
        let message = try #require(usageMessage(typo))
        #expect(message.contains("Did you mean '\(suggestion)'?"))
    }

    @Test(arguments: [
        ("help", "hlep", 1), ("list", "lsit", 1), ("list", "list", 0), ("show", "xyz", 4), ("", "abc", 3),
    ])
    func editDistanceCountsATranspositionOnce(lhs: String, rhs: String, expected: Int) {
        #expect(Suggestions.distance(lhs, rhs) == expected)
    }

    @Test func farOffWordsGetNoSuggestion() throws {
        #expect(!(try #require(usageMessage("frobnicate"))).contains("Did you mean"))
    }

    /// The scanner's own remedy is quoted for the shell: pasted bare, `--output=-L my file` was three words.
    @Test func aValueThatReadsAsAnOptionIsToldQuoted() throws {
        guard case .usageError(let error) = CommandRouter().route(["list", "--output", "-L it's"]) else {
            Issue.record("expected a usage error")
            return
        }
        #expect(error.message.hasSuffix(#"to give it as the value, write '--output=-L it'\''s'"#), "\(error.message)")
    }

    @Test func unknownOptionsSuggestTheNearest() throws {
        #expect(try #require(usageMessage("list --limt 3")).contains("Did you mean '--limit'?"))
        #expect(try #require(usageMessage("list --jsn")).contains("Did you mean '--json'?"))
    }

    @Test func helpForACommandIsTheSameEverywhere() {
        let viaFlag = route("list --help")
        #expect(viaFlag == route("help list"))
        #expect(viaFlag == route("list -h"))
        #expect(viaFlag == route("--help list"))
        #expect(viaFlag == route("-h list"))
        #expect(route("--help environment") == route("help environment"))
        // Help's own help, whichever way asked, and its man page with --man (which printed gh-users(1) instead).
        for line in ["help --help", "help -h"] { #expect(route(line) == .help(.command("help")), "\(line)") }
        for line in ["help --man --help", "help -h --man"] { #expect(route(line) == .manual(command: "help")) }
        // --help wins over what else is on the line, as in gh: a stray argument does not hide the help.
        #expect(viaFlag == route("list extra --help"))
        if let text = viaFlag.helpText {
            #expect(text.contains("--since ID"))
            #expect(text.contains("EXAMPLES"))
        } else {
            Issue.record("expected help")
        }
    }

    @Test func topLevelHelpAndVersion() {
        #expect(route("--version") == .version)
        // What follows it is refused, as gh refuses it: taken silently, `--version --bogus` was exit 0.
        for line in ["--version --bogus", "--version list"] {
            guard case .usageError(let error) = route(line) else {
                Issue.record("\(line): expected a usage error")
                continue
            }
            #expect(error.message.hasPrefix("--version takes nothing after it, and '\(line.dropFirst(10))' was given"))
        }
        for arguments in ["", "--help", "-h", "help"] {
            guard let text = route(arguments).helpText else {
                Issue.record("expected help for '\(arguments)'")
                continue
            }
            #expect(text.contains("COMMANDS"))
        }
    }

    @Test func usageErrorTextHasErrorUsageAndHint() throws {
        guard case .usageError(let error) = route("list --limit x") else {
            Issue.record("expected a usage error")
            return
        }
        let lines = error.rendered.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Error: ") == true)
        #expect(lines.contains { $0.hasPrefix("Usage: gh-users list") })
        #expect(lines.last == "See 'gh-users list --help'.")
    }

    /// Every command's usage error fits 80 columns, continued under "Usage: " and never broken inside a group.
    @Test(arguments: CommandCatalog.specs.map(\.name))
    func usageErrorsFitEightyColumns(command: String) throws {
        let error = UsageError(message: "bad input", command: CommandCatalog.spec(named: command))
        let lines = error.rendered.split(separator: "\n").map(String.init)
        for line in lines where !line.hasPrefix("Error: ") && !line.hasPrefix("Did you mean") {
            #expect(line.count <= 80, "\(line.count) columns: \(line)")
        }
        let usage = lines.drop { !$0.hasPrefix("Usage: ") }.prefix { !$0.hasPrefix("See ") }
        for continuation in usage.dropFirst() {
            #expect(continuation.hasPrefix("       ") && !continuation.hasPrefix("        "))
            #expect(!continuation.trimmingCharacters(in: .whitespaces).hasPrefix("|"))
        }
        let joined = usage.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(joined == "Usage: " + (CommandCatalog.spec(named: command)?.usage ?? ""))
    }
}

struct ConnectionSettingsTests {
    @Test func defaultsToGitHubDotCom() throws {
        let settings = try ConnectionSettings.resolve(apiURL: nil, environment: ["GITHUB_TOKEN": "tok1234"])
        #expect(settings.apiRoot.absoluteString == "https://api.github.com")
        #expect(settings.token == "tok1234")
    }

    @Test func precedenceOfHostsAndTokens() throws {
        let environment = [
            "GH_USERS_API_URL": "https://env.example/api", "GH_HOST": "ghe.example", "GH_TOKEN": "gh-token",
            "GITHUB_TOKEN": "github-token", "GH_ENTERPRISE_TOKEN": "enterprise-token",
        ]
        let flag = try ConnectionSettings.resolve(apiURL: "https://flag.example", environment: environment)
        #expect(flag.apiRoot.absoluteString == "https://flag.example")
        #expect(flag.token == "enterprise-token")
        let env = try ConnectionSettings.resolve(apiURL: nil, environment: environment)
        #expect(env.apiRoot.absoluteString == "https://env.example/api")
        let host = try ConnectionSettings.resolve(
            apiURL: nil, environment: ["GH_HOST": "ghe.example", "GH_TOKEN": "gh-token"])
        #expect(host.apiRoot.absoluteString == "https://ghe.example/api/v3")
        // A github.com token is not sent to an Enterprise host, as gh does not send it; a warning names it.
        #expect(host.token == nil)
        #expect(host.unsentTokenVariable == "GH_TOKEN")
        // A variable that holds only a byte order mark holds no token: none is said to be unsent (helper-321).
        let mark = try ConnectionSettings.resolve(
            apiURL: nil, environment: ["GH_HOST": "ghe.example", "GH_TOKEN": "\u{FEFF}"])
        #expect(mark.unsentTokenVariable == nil)
        let dotcom = try ConnectionSettings.resolve(
            apiURL: nil,
            environment: [
                "GH_HOST": "github.com", "GH_ENTERPRISE_TOKEN": "enterprise-token", "GITHUB_TOKEN": "github-token",
            ]
        )
        #expect(dotcom.apiRoot.absoluteString == "https://api.github.com")
        #expect(dotcom.token == "github-token")
    }

    /// `GH_HOST=TENANT.ghe.com` was `https://TENANT.ghe.com/api/v3`, which no such host serves: gh asks
    /// `https://api.TENANT.ghe.com`. `github.com.` was an Enterprise host and was sent the enterprise token, and
    /// so was a fullwidth `ＧＩＴＨＵＢ.ＣＯＭ`, which URL reads as github.com.
    @Test func ghHostReadsGHEComSubdomainsAndGitHubSpelledOtherwise() throws {
        let tokens = ["GH_ENTERPRISE_TOKEN": "enterprise-token", "GH_TOKEN": "github-token"]
        // Any name under a tenant is the tenant's, as gh reads it: `www.` was asked as api.www.octocorp.ghe.com.
        for host in [
            "octocorp.ghe.com", "OctoCorp.GHE.com", "octocorp.ghe.com.", "api.octocorp.ghe.com", "www.octocorp.ghe.com",
            "a.b.octocorp.ghe.com",
        ] {
            let ghe = try ConnectionSettings.resolve(apiURL: nil, environment: tokens.merging(["GH_HOST": host]) { $1 })
            #expect(ghe.apiRoot.absoluteString == "https://api.octocorp.ghe.com", "\(host)")
            #expect(ghe.token == "github-token", "\(host)")
        }
        let dotted = try ConnectionSettings.resolve(
            apiURL: nil, environment: tokens.merging(["GH_HOST": "github.com."]) { $1 })
        #expect(dotted.apiRoot.absoluteString == "https://api.github.com")
        #expect(dotted.token == "github-token")
        for host in ["ＧＩＴＨＵＢ.ＣＯＭ", " ghes.example.com ", ".ghe.com", "a..ghe.com", ".."] {
            #expect(throws: UsageError.self, "\(host)") {
                try ConnectionSettings.resolve(apiURL: nil, environment: tokens.merging(["GH_HOST": host]) { $1 })
            }
        }
        // A port stays with the host, under the same rule; a final dot before it goes.
        for host in ["octocorp.ghe.com:8443", "octocorp.ghe.com.:8443"] {
            let ported = try ConnectionSettings.resolve(
                apiURL: nil, environment: tokens.merging(["GH_HOST": host]) { $1 })
            #expect(ported.apiRoot.absoluteString == "https://api.octocorp.ghe.com:8443", "\(host)")
            #expect(ported.token == "github-token")
        }
        let enterprise = try ConnectionSettings.resolve(
            apiURL: nil, environment: tokens.merging(["GH_HOST": "ghes.example.com.:8443"]) { $1 })
        #expect(enterprise.apiRoot.absoluteString == "https://ghes.example.com:8443/api/v3")
        #expect(enterprise.token == "enterprise-token")
        // A server on this machine is named as it can be reached: without the final dot.
        do {
            _ = try ConnectionSettings.resolve(apiURL: nil, environment: ["GH_HOST": "localhost."])
            Issue.record("GH_HOST=localhost. was taken")
        } catch {
            #expect(error.message.contains("--api-url http://localhost "), "\(error.message)")
        }
    }

    /// A message about the token names where it came from, and asks for one by the names looked at, in order.
    @Test func saysWhereTheTokenCameFromAndWhereOneIsLookedFor() throws {
        let enterprise = try ConnectionSettings.resolve(
            apiURL: nil, environment: ["GH_HOST": "ghe.example", "GITHUB_ENTERPRISE_TOKEN": "e", "GH_TOKEN": "g"])
        #expect(enterprise.tokenSource == "GITHUB_ENTERPRISE_TOKEN")
        #expect(enterprise.tokenVariables == ["GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"])
        #expect(enterprise.unsentTokenVariable == nil)
        // A subdomain of ghe.com takes github.com's variables, as gh reads them; a server on this machine either.
        let ghe = try ConnectionSettings.resolve(apiURL: "https://api.octocorp.ghe.com", environment: ["GH_TOKEN": "g"])
        #expect(ghe.token == "g")
        let loopback = try ConnectionSettings.resolve(apiURL: "http://127.0.0.1:8080", environment: ["GH_TOKEN": "g"])
        #expect(loopback.token == "g")
        #expect(
            loopback.tokenVariables == ["GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"])
        let dotcom = try ConnectionSettings.resolve(apiURL: nil, environment: ["GITHUB_TOKEN": "g"])
        #expect(dotcom.tokenSource == "GITHUB_TOKEN")
        #expect(dotcom.tokenVariables == ["GH_TOKEN", "GITHUB_TOKEN"])
        let file = try ConnectionSettings.resolve(apiURL: nil, tokenFileContents: "f\n", environment: ["GH_TOKEN": "g"])
        #expect(file.token == "f")
        #expect(file.tokenSource == "the token file (--token-file)")
        #expect(try ConnectionSettings.resolve(apiURL: nil, environment: [:]).tokenSource == nil)
    }

    /// An IPv6 zone is percent-encoded as written, and a space is no part of a host: each is said for what it is,
    /// not for another reason (helper-337's CS19 and CS10 changed only the words).
    @Test func anIPv6ZoneAndASpaceAreSaidForWhatTheyAre() throws {
        let zone = #expect(throws: UsageError.self) {
            try ConnectionSettings.resolve(apiURL: "http://[fe80::1%25eth0]:8080", environment: [:])
        }
        #expect(zone?.message.contains("cannot reach an IPv6 address") == true, "\(String(describing: zone))")
        let spaced = #expect(throws: UsageError.self) {
            try ConnectionSettings.resolve(apiURL: nil, environment: ["GH_HOST": "ghe example.com"])
        }
        #expect(
            spaced?.message
                == "GH_HOST='ghe example.com' holds a space or a control character: give the host name alone")
    }

    /// URLSession on Linux answered these with "NSURLErrorDomain error -1000"; said in words before anything.
    /// Each for this reason (helper-337's CS16: without the leading zeros' check, 127.000.000.001 was refused
    /// for another).
    @Test func anIPv4AddressWrittenOtherwiseIsSaidInWords() throws {
        for host in ["127.1", "2130706433", "0x7f000001", "127.000.000.001", "010.0.0.1", "256.0.0.1"] {
            let error = #expect(throws: UsageError.self, "\(host)") {
                try ConnectionSettings.resolve(apiURL: "http://\(host):8080", environment: [:])
            }
            #expect(
                error?.message.hasSuffix("write an IPv4 address as four numbers from 0 to 255, such as 127.0.0.1")
                    == true, "\(host): \(String(describing: error))")
        }
        for host in ["127.0.0.1", "10.0.0.255", "0xcafe.example", "123abc.de"] {
            #expect(
                try ConnectionSettings.resolve(apiURL: "http://\(host):8080", environment: [:]).apiRoot.host == host)
        }
    }

    @Test func refusesATokenOverPlainHTTPExceptToLoopback() throws {
        #expect(throws: UsageError.self) {
            try ConnectionSettings.resolve(
                apiURL: "http://example.com", environment: ["GH_ENTERPRISE_TOKEN": "tok1234"])
        }
        #expect(try ConnectionSettings.resolve(apiURL: "http://example.com", environment: [:]).token == nil)
        #expect(
            try ConnectionSettings.resolve(apiURL: "http://127.0.0.1:8080", environment: ["GH_TOKEN": "t"]).token == "t"
        )
    }

    @Test(arguments: ["ftp://x", "not a url", "https://", "https://x/?q=1", "https://user@x"])
    func refusesUnusableURLs(text: String) {
        #expect(throws: UsageError.self) { try ConnectionSettings.resolve(apiURL: text, environment: [:]) }
    }
}

/// `me edit`, `cache info` and `cache clear` are commands of their own under their command: their own help,
/// options and usage errors.
extension RouterTests {
    private func invoked(_ arguments: String) -> String? {
        if case .run(let invocation) = route(arguments) { return invocation.name }
        return nil
    }

    @Test(arguments: [
        ("me", "me"), ("me --json", "me"), ("me edit --bio x", "me edit"), ("me --json edit --bio x", "me edit"),
        ("cache info", "cache info"), ("cache clear --json", "cache clear"),
        ("cache --cache-dir /tmp/c clear", "cache clear"),
    ])
    func theWordAfterTheCommandNamesTheSubcommand(arguments: String, name: String) {
        #expect(invoked(arguments) == name)
    }

    @Test(arguments: ["me edit --help", "me edit -h", "help me edit", "--help me edit", "me edit --bio x --help"])
    func aSubcommandHasItsOwnHelp(arguments: String) throws {
        #expect(route(arguments) == .help(.command("me edit")))
        let text = try #require(route(arguments).helpText)
        #expect(text.hasPrefix("Change your account's profile"))
        #expect(text.contains("--no-hireable"))
    }

    @Test func theCommandsHelpListsItsSubcommandsAndNotTheirOptions() throws {
        let me = try #require(route("me --help").helpText)
        #expect(me.contains("\nCOMMANDS\n  edit  "))
        #expect(!me.contains("--bio"))
        let cache = try #require(route("help cache").helpText)
        #expect(cache.contains("\nCOMMANDS\n  info   ") && cache.contains("\n  clear  "))
        #expect(route("help --man cache clear") == .manual(command: "cache clear"))
        // A group alone is its help, as `gh cache` is (before: exit 64, "cache needs an action: info or clear");
        // given options it is that error still (`cache --json` was help on stdout, exit 0, to a script); `me`
        // alone still shows the profile.
        #expect(route("cache") == .help(.command("cache")))
        #expect(route("me").helpText == nil)
        #expect(route("cache clear --help") == .help(.command("cache clear")))
    }

    /// A word after --json is told to go before it only on a command that takes one (before: rate-limit, which
    /// takes none, was told to put "the command's argument" there; helper-305).
    @Test func aWordAfterJSONIsToldToGoBeforeItOnlyWhereACommandTakesOne() {
        let messages = ["rate-limit --json resource", "show --json login"].map { arguments -> String in
            guard case .usageError(let error) = route(arguments) else { return "" }
            return error.message
        }
        #expect(
            messages == [
                "gh-users's --json takes no field, unlike gh's --json resource: give --json --fields resource, or "
                    + "pipe --json into jq",
                "gh-users's --json takes no field, unlike gh's --json login: give --json --fields login, or pipe "
                    + "--json into jq (a word meant as the command's argument goes before --json)",
            ])
    }

    /// Each usage error names the command it belongs to, and points to that command's help.
    @Test(arguments: [
        ("me edit x", "unexpected argument 'x'", "me edit"),
        ("me edit", "me edit needs a field to change", "me edit"),
        ("me edit --limit 3", "option '--limit' does not apply to me edit", "me edit"),
        ("me frob", "unknown action 'frob': me takes edit, or nothing", "me"),
        ("me --bio x", "--bio changes the profile: gh-users me edit --bio …", "me"),
        ("cache purge", "unknown cache action 'purge': choose info or clear", "cache"),
        ("cache --json", "cache needs an action: info or clear", "cache"),
        ("cache --cache-dir /tmp/x", "cache needs an action: info or clear", "cache"),
        // Beside the repeatable --repo (before: the last login kept, one person's map, exit 0).
        (
            "access github --person a --person b",
            "--person takes one login: run once for each person, or without it for all", "access"
        ),
        // So are two levels or two affiliations (before: the last kept, silently; a review's find). pull is read.
        // In the words every filter given twice gets (helper-305: three wordings of one refusal).
        (
            "access github --permission write --permission admin",
            "--permission takes one value, and was given 'write' and 'admin': one level keeps it and the levels above",
            "access"
        ),
        (
            "access github --affiliation outside --affiliation member",
            "--affiliation takes one value, and was given 'outside' and 'member': run once for each, or without it "
                + "for all", "access"
        ),
        // A value as typed, and each checked against the choices first, wherever it stands (helper-306).
        (
            "access github --permission pull --permission admin",
            "--permission takes one value, and was given 'pull' and 'admin'", "access"
        ),
        ("repos octocat --type bogus --type owner", "invalid value 'bogus' for '--type'", "repos"),
        ("access github --fields login --fields change", "--fields is given more than once", "access"),
        // repos' --type is a filter too (before: the last kept, silently, members alone; helper-305).
        (
            "repos octocat --type owner --type member",
            "--type takes one value, and was given 'owner' and 'member': run once for each", "repos"
        ),
        // A second --fields is said as such, before a check of either list (before: stargazers said 'id' is a
        // profile's field; members --changes named 'nope' an unknown change field).
        (
            "stargazers octocat/Hello-World --fields login --fields id",
            "--fields is given more than once: give every field in one comma-separated list, such as --fields "
                + "login,id", "stargazers"
        ),
        (
            "members github --changes /tmp/never-written --fields login --fields nope",
            "--fields is given more than once: give every field in one comma-separated list, such as --fields "
                + "login,id", "members"
        ),
        // An unknown change field gets the nearest, as every other unknown field does (helper-305).
        (
            "members github --changes /tmp/never-written --fields logn",
            "unknown field 'logn' for members --changes; did you mean 'login'?\nValid fields: change, login, id, "
                + "previous_login, role, previous_role", "members"
        ),
        ("cache info extra", "unexpected argument 'extra'", "cache info"),
        ("cache clear --fields login", "option '--fields' does not apply to cache clear", "cache clear"),
        ("help me frob", "no help for 'me frob': me's subcommands are edit", "help"),
        // A misspelt subcommand gets the nearest (before: "help takes one command", and no suggestion for me's).
        ("help me edt", "no help for 'me edt': me's subcommands are edit\nDid you mean 'me edit'?", "help"),
        (
            "help --man me edt", "no manual page for 'me edt': me's subcommands are edit\nDid you mean 'me edit'?",
            "help"
        ),
        // A topic completion offers after `help --man` is said as one, and where it is (helper-269).
        (
            "help --man options",
            "no manual page for 'options': it is a help topic, in gh-users(1) ('gh-users help --man')", "help"
        ),
        ("help --man lst", "no manual page for 'lst': it is not a command", "help"),
        (
            "help cache clr",
            "no help for 'cache clr': cache's subcommands are info, clear\nDid you mean 'cache clear'?", "help"
        ),
        // The extra operand is named, as every other command names it (before: "help takes one command").
        ("help list users", "unexpected argument 'users': help takes one command", "help"),
        ("help me edit x", "unexpected argument 'x': help takes one command", "help"),
        ("help --man list users", "unexpected argument 'users': help --man takes one command", "help"),
        ("help --man me edit x", "unexpected argument 'x': help --man takes one command", "help"),
        ("follows a b c", "unexpected argument 'c': follows takes two logins, A and B", "follows"),
        ("follows a", "follows needs two logins: A and B", "follows"),
        ("me edti", "unknown action 'edti': me takes edit, or nothing\nDid you mean 'edit'?", "me"),
    ])
    func aSubcommandsUsageErrorIsItsOwn(arguments: String, message: String, command: String) {
        let routed = route(arguments)
        guard case .usageError(let error) = routed else {
            Issue.record("\(arguments): \(routed)")
            return
        }
        #expect(error.message.hasPrefix(message), "\(error.message)")
        #expect(error.commandName == command)
        #expect(error.rendered.contains("See 'gh-users \(command) --help'."))
    }
}
