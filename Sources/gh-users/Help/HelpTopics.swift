/// `gh-users help options|exit-codes|environment|formats`: what every command shares, in one place each. Each
/// topic is a heading, labelled rows and closing notes, filled to the width like the rest of the help; `options`
/// is the shared option groups, each under its own heading.
enum HelpTopics {
    struct Topic: Sendable {
        let heading: String
        let rows: [(label: String, text: String)]
        let notes: [String]
    }

    static let names = ["options", "formats", "environment", "exit-codes"]

    static func topic(_ name: String) -> Topic? {
        switch name {
        case "exit-codes": return exitCodes
        case "environment": return environment
        case "formats": return formats
        default: return nil
        }
    }

    /// The topic as it prints at `width`; nil for a name that is no topic.
    static func text(_ name: String, width: Int = 80) -> String? {
        if name == "options" { return options(width: width) }
        guard let topic = topic(name) else { return nil }
        var text = topic.heading + "\n" + HelpRenderer.labelled(topic.rows, width: width)
        for note in topic.notes {
            text += "\n" + HelpRenderer.fill(note, indent: 0, width: width) + "\n"
        }
        return text
    }

    /// `help options`: every shared group in full (`HelpRenderer.sharedGroups`), which a command's help names on
    /// one line.
    static func options(width: Int) -> String {
        var text =
            HelpRenderer.fill(
                "The options commands share, in groups. Every command that talks to GitHub takes the output, "
                    + "network, cache and logging options; a list takes the paging options too, and a list of "
                    + "accounts the profile options (but blocks, invitations and orgs). A command's help names the groups "
                    + "it takes, and lists its own options; options come after the command.",
                indent: 0, width: width) + "\n"
        for group in HelpRenderer.sharedGroups {
            text += "\n\(group.title)\n" + HelpRenderer.optionLines(group.options, width: width)
        }
        return text
    }

    static let exitCodes = Topic(
        heading: "EXIT STATUS",
        rows: [
            (
                "0",
                "success, including an empty result, --help and --version, and an answer from the cache when the "
                    + "network could not be reached (with a warning that dates it, again for an older copy; 1 where "
                    + "it joins answers GitHub gave now: a list paged by page number, star-history's totals; --changes "
                    + "never answers from it)"
            ),
            (
                "1",
                "a runtime failure: network, server error, malformed response, a repository GitHub has blocked "
                    + "(451, or a 403 that names the block), a partial failure in "
                    + "'show A B C' (5 when a rate limit stopped it, 4 when GitHub refused the token), or --offline with an answer that is not "
                    + "cached; for 'follows', the answer no; "
                    + "a write not confirmed at its question (nothing sent), or whose pipe's reader left before "
                    + "every account was sent; with --state or --changes, a pipe's reader that left before the end; "
                    + "a stdout file another gh-users run is crawling into, or a --state, --changes or --output "
                    + "file another run holds (nothing asked); and, for every run (--help and "
                    + "--version too, nothing done), ulimit -n leaving under 64 files free, ulimit -v under 384 MiB, "
                    + "a process limit leaving fewer than 10 threads, or no /proc to read the arguments from"
            ),
            (
                "2",
                "follows only: a failure that is not its answer (network, server, a status other than GitHub's "
                    + "204 or 404, a stdout that cannot be written), since 1 means no there; a token problem is "
                    + "still 4 and a spent rate limit 5"
            ),
            (
                "3",
                "not found: a login, organization or repository that does not exist (for a team, its "
                    + "organization)"
            ),
            (
                "4",
                "authentication: a missing, bad or insufficient token (401, a 403 that is not a rate limit or a block, a "
                    + "2FA filter of members asked by someone who is not an owner (422), a 404 for a list whose "
                    + "organization or repository exists, or a GraphQL answer that refuses the "
                    + "token: a missing scope, SAML single sign-on, any other FORBIDDEN, such as an access map of "
                    + "which it could read no repository's collaborators); a team the token cannot see, "
                    + "which may not exist "
                    + "or be secret"
            ),
            (
                "5",
                "rate limited: the primary limit is spent and --wait-on-rate-limit was not given, a secondary "
                    + "limit outlasted --retries, or a wait would be longer than --max-wait, also when what came "
                    + "before it was written; the message says when it lifts"
            ),
            (
                "64",
                "usage: an unknown command or option, an invalid value, login or GH_USERS_* setting, --state, "
                    + "--output, --changes or --token-file given twice with two files, access --person, or a filter "
                    + "(--permission, --affiliation, --role, repos --type) given twice with two values (any other "
                    + "option given twice takes the last, as gh's do, but --fields twice is 64), anything after "
                    + "--version, an argument that is not UTF-8 or looks like a token, a write under --offline, or "
                    + "one that asks first with no terminal to ask on and no --yes; nothing was sent"
            ),
            (
                "130",
                "interrupted (Ctrl-C); JSON output is still closed, and 'list' says where to resume; the process "
                    + "ends by the signal itself, so a script's loop stops too"
            ),
            ("143, 129", "stopped by SIGTERM or SIGHUP, handled like Ctrl-C"),
        ],
        notes: [
            "A reader of stdout that goes away ('gh-users list --all | head -1') ends the run quietly with status "
                + "0, unless a lookup had already failed ('show A B'), or 'follows' had its answer, which stand; "
                + "with --state it is status 1, the state recording only what the reader took, and so it is "
                + "with --changes that had changes to write, which then records nothing. Any "
                + "other failed write to stdout (a full disk, a file-size limit, stdout closed from the start with "
                + "'>&-') is status 1 (2 for 'follows'), with the reason and where to resume."
        ]
    )

    static let environment = Topic(
        heading: "ENVIRONMENT",
        rows: [
            (
                "GH_TOKEN, GITHUB_TOKEN",
                "the token for github.com, sent as 'Authorization: Bearer'; --token-file comes first. A token with "
                    + "quotes, a line break or NAME= around it is refused, and so is one typed among the arguments"
            ),
            (
                "GH_ENTERPRISE_TOKEN, GITHUB_ENTERPRISE_TOKEN",
                "the token for a GitHub Enterprise host, which is never sent GH_TOKEN's (as gh reads them); a "
                    + "server on this machine (--api-url http://127.0.0.1:PORT) takes either kind, these first"
            ),
            ("GH_USERS_API_URL", "the API root, as --api-url"),
            (
                "GH_HOST",
                "a GitHub Enterprise host: the API root becomes https://HOST/api/v3 (https://api.HOST for a "
                    + "subdomain of ghe.com; github.com and its subdomains are the public API)"
            ),
            ("GH_USERS_LOG_LEVEL", "as --log-level (trace, debug, info, notice, warning, error)"),
            ("XDG_CACHE_HOME", "the response cache is $XDG_CACHE_HOME/gh-users (else ~/.cache/gh-users)"),
            ("GH_USERS_CACHE_SIZE", "the cache's size bound: 100MB by default; bytes, or a size as below"),
            (
                "GH_USERS_MAX_RESPONSE_BYTES",
                "the largest body one answer may bring, after decompression: 64M by default, at most 1024G; bytes, "
                    + "or K, M, G (1,024s: 64M is 64 MiB; KiB, MiB, GiB too) or KB, MB, GB (1,000s)"
            ),
            (
                "HTTPS_PROXY, https_proxy",
                "the proxy for https, as http://HOST:PORT or http://USER:PASSWORD@HOST:PORT; requests to GitHub "
                    + "go through it in a CONNECT tunnel, so it never sees the token"
            ),
            (
                "http_proxy",
                "the proxy for an http API URL (HTTP_PROXY in capitals is ignored, as by curl); a loopback API URL "
                    + "sent the token goes around it and ALL_PROXY, which would read the token in clear"
            ),
            ("ALL_PROXY, all_proxy", "the proxy for both when the scheme's own is not set"),
            ("NO_PROXY, no_proxy", "hosts that go around the proxy: names, .domains, addresses, or * for all"),
            (
                "SSL_CERT_FILE, SSL_CERT_DIR, CURL_CA_BUNDLE",
                "not read: gh-users trusts the system's CA store and no other (see below)"
            ),
            ("NO_COLOR", "never colour"),
            ("CLICOLOR_FORCE", "set and not 0: colour tables even when piped"),
            ("CLICOLOR", "0: never colour (CLICOLOR_FORCE still forces it)"),
            ("TERM, COLORTERM", "naming 256 colours or true colour: the heatmap's greens; else 8 basic colours"),
            ("GH_FORCE_TTY", "as for gh: stdout counts as a terminal; a number is its width, N% a share of it"),
            ("GH_SPINNER_DISABLED", "as for gh: no progress line redrawn in place (for a screen reader, a log)"),
            (
                "TERM=dumb",
                "treated as no terminal: no table, colour, progress or question (escapes in GitHub's data still shown "
                    + "as text)"
            ),
            ("COLUMNS", "the table width when the terminal does not say (at most 65535)"),
            (
                "TZ",
                "the zone of the times said to people (a reset, the end of a wait); data keeps GitHub's times as "
                    + "sent (nearly always UTC), and dates given (--from) are UTC days"
            ),
            (
                "SOURCE_DATE_EPOCH",
                "whole seconds since 1970: dates the pages help --man writes, for a reproducible package"
            ),
        ],
        notes: [
            "The token is never printed, logged, cached or sent to another host.",
            "Logged in with gh (GitHub CLI)? Lend gh-users its token: export GH_TOKEN=$(gh auth token). gh-users "
                + "never runs gh itself; when a command needs a token and finds none, its message says this if gh "
                + "is on PATH.",
            "Behind a proxy that inspects TLS, or with a GitHub Enterprise server whose certificate a company CA "
                + "signs, that CA must be in the system store: on Linux, URLSession hands libcurl the system's CA "
                + "bundle and offers no way to add another, so there is no setting for it. Debian, Ubuntu: copy "
                + "the CA (PEM) to /usr/local/share/ca-certificates/NAME.crt and run 'sudo update-ca-certificates'. "
                + "Fedora, RHEL: copy it to /etc/pki/ca-trust/source/anchors/ and run 'sudo update-ca-trust'.",
        ]
    )

    static let formats = Topic(
        heading: "FORMATS",
        rows: [
            (
                "--format table",
                "the default on a terminal: columns fitted to its width (CJK and emoji count two columns), "
                    + "long cells cut with '…', times relative (\"3 days ago\") in its own columns (one --fields "
                    + "names is as GitHub sent it; list --full's JOINED is the UTC date); no rows is said on stderr "
                    + "(\"no followers found\")"
            ),
            (
                "--format tsv",
                "the default when piped: no header, one record per line; tabs, newlines and backslashes in "
                    + "data are written as \\t, \\n and \\\\; times in RFC 3339"
            ),
            (
                "--format csv",
                "RFC 4180 with a header row, even with no records; when piped, the data exactly as sent (a field "
                    + "with a comma, a quote or a line break is quoted, and its quotes doubled)"
            ),
            (
                "--format json",
                "GitHub's own objects with GitHub's key names, every field it sent, nulls kept; 'list' and "
                    + "other lists give an array, 'show' an object for one LOGIN (an array for several, or for -); "
                    + "always one valid document, "
                    + "even when a command fails half-way"
            ),
            ("--format ndjson", "one compact object per line, written as each page arrives"),
            ("--json", "short for --format json"),
            (
                "--fields a,b,c",
                "choose columns (table, tsv, csv) or keys (json, ndjson) by GitHub's names, or a path into "
                    + "a nested object as csv headers name it (repo.full_name); 'gh-users COMMAND --help' lists them"
            ),
        ],
        notes: [
            "Control characters and escape sequences in GitHub's data never reach the terminal in table, tsv or "
                + "csv: they are shown as \\e, \\a, \\x7f, \\u{9b}, or U+FFFD in a table and \\u{200f} in tsv. JSON, and "
                + "csv written to a file or a pipe, keep the data exact; in json and ndjson these characters, and "
                + "bidi overrides, are \\u escapes (\\u202e) inside strings, the same value to a JSON reader.",
            "Profiles fetched --via graphql are rebuilt in the shape and key order of GitHub's REST user object. "
                + "These keys are approximate: "
                + GraphQLUserKeys.approximate.map { "\($0.key) (\($0.why))" }.joined(separator: "; ")
                + ". Every other key is exact; organizations and bots come from REST and are exact throughout.",
        ]
    )
}
