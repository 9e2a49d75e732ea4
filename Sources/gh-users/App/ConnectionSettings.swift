import AtomicCore
import AtomicLogger
import Foundation
import Networking

/// Which API root to talk to and with which token, resolved from flags and the environment without side
/// effects: the caller reads `--token-file` and passes its contents in.
struct ConnectionSettings: Sendable, Equatable {
    static let githubAPI = "https://api.github.com"

    let apiRoot: URL
    let token: String?
    /// Where the token came from (`GH_TOKEN`, `the token file`), for a message that asks to check it.
    var tokenSource: String?
    /// The variables a token is looked for in, in order: a message asking for one names them.
    var tokenVariables = dotcomVariables
    /// A token variable that is set but not sent: a github.com one where the API root is a GitHub Enterprise host,
    /// or an enterprise one where it is github.com (GH_HOST forgotten); a warning names it (nil when none is set,
    /// or a token was found).
    var unsentTokenVariable: String?

    /// `--api-url`, else `GH_USERS_API_URL`, else `GH_HOST` (github.com means the public API; any other host
    /// is GitHub Enterprise at `https://HOST/api/v3`), else api.github.com. The token is the token file's, else
    /// the first of `tokenVariables(for:)` that is set.
    static func resolve(
        apiURL: String?,
        tokenFileContents: String? = nil,
        environment: [String: String]
    ) throws(UsageError) -> ConnectionSettings {
        let secrets = secrets(environment: environment, tokenFileContents: tokenFileContents)
        let url = try apiRoot(apiURL: apiURL, environment: environment, secrets: secrets)
        let variables = tokenVariables(for: url)
        let (token, source) = try token(
            variables: variables, tokenFileContents: tokenFileContents, environment: environment)
        if token != nil, !OriginPolicy.isSecureOrLoopback(url) {
            throw UsageError(
                message:
                    "refusing to send a token over plain http to \(url.host ?? ""): use https (plain http is allowed for loopback only)",
                command: nil
            )
        }
        var settings = ConnectionSettings(apiRoot: url, token: token, tokenSource: source, tokenVariables: variables)
        if token == nil {
            // A ghe.com host reads github.com's variables, as gh's `IsTenancy` does: an enterprise one is unsent.
            let dotcom = OriginPolicy.isGitHubCom(url.host ?? "") || OriginPolicy.isTenancy(url.host ?? "")
            let enterprise = dotcom ? enterpriseVariables : []
            settings.unsentTokenVariable = (dotcomVariables + enterprise).first { name in
                !variables.contains(name)
                    && !(environment[name].map(tokenText) ?? "").isEmpty
            }
        }
        return settings
    }

    // MARK: - The API root

    /// Every token the run could hold, sent or not: each token variable's value and the token file's. Masked in
    /// every message, since a setting may echo one pasted in the wrong place (GH_HOST, GH_USERS_LOG_LEVEL).
    static func secrets(environment: [String: String], tokenFileContents: String? = nil) -> [String] {
        let names = dotcomVariables + enterpriseVariables
        var seen = Set<String>()
        return ([tokenFileContents].compactMap { $0 } + names.compactMap { environment[$0] }).map(tokenText)
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Whether `text` holds one of `secrets` (or a part of one, as written or escaped) or a word in a token's shape:
    /// an API root that holds one would be written into every state and snapshot file (helper-353's P-2).
    static func holdsToken(_ text: String, secrets: [String]) -> Bool {
        let words = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_")) }
        return Redactor(secrets: secrets).redacted(Array(text.utf8)) != nil
            || words.contains { TokenFileReader.looksLikeToken(String($0)) }
    }

    /// A refusal of a root the environment gave (GH_USERS_API_URL, GH_HOST) points at `help environment`.
    private static func apiRoot(apiURL: String?, environment: [String: String], secrets: [String])
        throws(UsageError) -> URL
    {
        do {
            return try givenRoot(apiURL: apiURL, environment: environment, secrets: secrets)
        } catch {
            var refusal = error
            if apiURL == nil { refusal.helpCommand = "help environment" }
            throw refusal
        }
    }

    private static func givenRoot(apiURL: String?, environment: [String: String], secrets: [String])
        throws(UsageError) -> URL
    {
        if let text = apiURL ?? nonEmpty(environment["GH_USERS_API_URL"]) {
            let given =
                TokenFileReader.looksLikeToken(text)
                ? "invalid API URL (it looks like a token, so it is not shown)"
                : "invalid API URL '\(TerminalSanitizer.sanitize(masked(text)))'"
            if !TokenFileReader.looksLikeToken(text), holdsToken(text, secrets: secrets) {
                throw UsageError(
                    message: "invalid API URL (it holds a token, so it is not shown): give it without the token, "
                        + "which gh-users sends in the Authorization header alone", command: nil)
            }
            let root = try validatedRoot(text, given: given, expected: "expected http(s)://HOST[:PORT][/PATH]")
            try refuseIPv6(root, given: given)
            return root
        }
        if let host = nonEmpty(environment["GH_HOST"]) {
            guard !holdsToken(host, secrets: secrets) else {
                throw UsageError(
                    message: "GH_HOST holds a token, so it is not shown: give the host name alone, and the token in "
                        + "a token variable", command: nil)
            }
            return try enterpriseRoot(host: host)
        }
        return URL(string: githubAPI)!
    }

    /// `text` (a URL, or GH_HOST's host) for a message, with whatever may be a user name and password as
    /// `***`: everything before the last `@` after the scheme (`SCHEME://`, the text up to the first colon when
    /// `//` follows it), so no part of a password is echoed, whatever characters it holds.
    static func masked(_ text: String) -> String {
        var start = text.startIndex
        if let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") {
            start = text.index(colon, offsetBy: 3)
        }
        guard let at = text[start...].lastIndex(of: "@") else { return text }
        return String(text[..<start]) + "***" + String(text[at...])
    }

    /// An http(s) root with a host and nothing that cannot be part of one. The scheme is lowercased because
    /// URLSession on Linux refuses `HTTP://` as an unsupported URL, although schemes are case-insensitive.
    /// A refusal begins with `given`, which names what was given (masked), and says `expected` when the text
    /// is no such root.
    private static func validatedRoot(_ text: String, given: String, expected: String) throws(UsageError) -> URL {
        let invalid = { (reason: String) in
            UsageError(message: "\(given): \(reason)", command: nil)
        }
        // URL(string:) takes a control character, a space or an invisible one in the path and sends it
        // percent-encoded (`/%01/users/…`), which then reads as GitHub's 404 for the account, not as the typo it is.
        let unseen: Set<Unicode.GeneralCategory> = [
            .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
        ]
        if text.unicodeScalars.contains(where: { unseen.contains($0.properties.generalCategory) }) {
            throw invalid("it holds a control character, a space or an invisible character")
        }
        if let url = URL(string: text), url.user != nil || url.password != nil {
            // The variables the host takes: GH_TOKEN, which an Enterprise host is never sent, misled (helper-336).
            let names = tokenVariables(for: url)
            throw invalid(
                "it holds a user name or password, which gh-users never sends; give a token in "
                    + names.dropLast().joined(separator: ", ") + " or \(names.last ?? "GH_TOKEN"), or with --token-file"
            )
        }
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()),
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
        else {
            throw invalid(expected)
        }
        // `localhost%2e.github.com` read as a subdomain of github.com where libcurl looks up another name: a host
        // is written as it is, so the name judged is the name reached. Asked of the text as written: URLComponents
        // gives a punycode name (`xn--bcher-kva.example`, as the refusal of other names asks) percent-encoded.
        let authority = text.range(of: "://").map { text[$0.upperBound...].prefix { !"/?#".contains($0) } } ?? ""
        // An IPv6 address's zone (`[fe80::1%25eth0]`) is percent-encoded as written; IPv6 is refused whole below.
        let ipv6 = authority.hasPrefix("[") && authority.prefix { $0 != "]" }.contains(":")
        if authority.contains("%"), !ipv6 {
            throw invalid("its host holds a percent-encoded character: write the host name as it is")
        }
        // An empty port (`http://127.0.0.1:`) was taken as the scheme's, and named so in every later message.
        if authority.hasSuffix(":") || url.port.map({ !(1...65535).contains($0) }) == true {
            throw invalid("the port must be from 1 to 65535")
        }
        // URLSession on Linux refuses 127.1, 2130706433, 0x7f000001 and 127.000.000.001 with an NSURLError code.
        let decimal = host.allSatisfy { ("0"..."9").contains($0) || $0 == "." } && host.contains { $0.isNumber }
        let hexadecimal =
            host.lowercased().hasPrefix("0x") && host.allSatisfy { $0.isHexDigit || $0 == "." || "xX".contains($0) }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        if decimal || hexadecimal,
            !(octets.count == 4 && octets.allSatisfy { UInt8($0) != nil && ($0 == "0" || !$0.hasPrefix("0")) })
        {
            throw invalid("write an IPv4 address as four numbers from 0 to 255, such as 127.0.0.1")
        }
        guard scheme != scheme.lowercased() else { return url }
        // The scheme is the text up to the first colon, so only it changes.
        guard let lowered = URL(string: scheme.lowercased() + text.dropFirst(scheme.count)) else {
            throw invalid(expected)
        }
        return lowered
    }

    /// swift-corelibs-foundation's URLSession refuses every URL whose host is an IPv6 address (NSURLErrorBadURL,
    /// -1000, before any connection): said now, with the way round it.
    private static func refuseIPv6(_ root: URL, given: String) throws(UsageError) {
        guard root.host?.contains(":") == true else { return }
        throw UsageError(
            message: "\(given): URLSession on Linux cannot reach an IPv6 address such as [::1]; give a host name "
                + "for it, such as localhost", command: nil)
    }

    /// `GH_HOST` is a host name, as for `gh`: github.com, or a GitHub Enterprise server at
    /// `https://HOST/api/v3`. A URL there, or a server on this machine (which hardly ever speaks https on a
    /// certificate for 127.0.0.1), is a mistake better explained now than by a TLS failure after the timeout.
    /// Every message names GH_HOST, its value masked (`masked`).
    /// A subdomain of ghe.com (GitHub Enterprise Cloud with data residency) is `https://api.HOST`, as gh has it.
    /// The host is compared as written in ASCII, without a final dot: `github.com.` and `ＧＩＴＨＵＢ.ＣＯＭ`, which
    /// URL reads as github.com, were taken for Enterprise hosts and sent the enterprise token.
    private static func enterpriseRoot(host given: String) throws(UsageError) -> URL {
        let shown = masked(given)
        guard given.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
            throw UsageError(
                message: "GH_HOST='\(TerminalSanitizer.sanitize(shown))' holds a space or a control character: "
                    + "give the host name alone", command: nil)
        }
        guard given.unicodeScalars.allSatisfy(\.isASCII) else {
            throw UsageError(
                message: "GH_HOST='\(shown)' is not a host name in ASCII: write an internationalised name as its "
                    + "punycode (xn--…)", command: nil)
        }
        // The name without a final dot, then its port (`ghe.example.com.:8443`).
        var name = Substring(given)
        var port = ""
        if let colon = given.lastIndex(of: ":"), !given[colon...].contains("]"), !given.hasPrefix("["),
            !given.contains("/"), !given.contains("@")
        {
            // A port as a number, https's own (443, 0443) none: each spelling of one port names one server.
            let digits = given[given.index(after: colon)...]
            guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits),
                (1...65_535).contains(number)
            else {
                throw UsageError(
                    message: "GH_HOST='\(shown)' is not a host name: its port is no number from 1 to 65535",
                    command: nil)
            }
            (name, port) = (given[..<colon], number == 443 ? "" : ":\(number)")
        }
        if name.hasSuffix("."), !name.hasPrefix("[") { name = name.dropLast() }
        if !name.hasPrefix("["), !name.contains("/"), !name.contains("@"),
            name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
        {
            throw UsageError(
                message: "GH_HOST='\(shown)' is not a host name: it has an empty part between dots", command: nil)
        }
        if !name.hasPrefix("["), !name.contains("/"), !name.contains("@"),
            name.split(separator: ".").contains(where: { $0.hasPrefix("-") || $0.hasSuffix("-") })
        {
            throw UsageError(
                message: "GH_HOST='\(shown)' is not a host name: a part of it begins or ends with '-'", command: nil)
        }
        // `#` or `?` would end the host where URL reads it (`evil.net#.ghe.com` is api.evil.net with the path in
        // its fragment), so a name holds letters, digits, `-`, `.` and `_` alone; a URL, a user name or an IPv6
        // address (`/`, `@`, `:`) is explained below.
        if !name.hasPrefix("["), !name.contains("/"), !name.contains("@"),
            let odd = name.first(where: { !($0.isLetter || $0.isNumber || "-._:".contains($0)) })
        {
            throw UsageError(
                message: "GH_HOST='\(shown)' is not a host name: it holds '\(odd)', which no host name holds",
                command: nil)
        }
        let host = String(name) + port
        let bare = name.lowercased()
        // Every subdomain of github.com is github.com, as gh reads GH_HOST (`www.github.com`, `gist.github.com`),
        // on https's own port too (`github.com:443`).
        if port.isEmpty, !bare.contains("/"), !bare.contains("@"), !bare.hasPrefix("["),
            OriginPolicy.isGitHubCom(bare)
        {
            return URL(string: githubAPI)!
        }
        // A ghe.com host is its tenant's, the label before `.ghe.com`, as gh's `NormalizeHostname` reads it:
        // `api.acme.ghe.com` and `www.acme.ghe.com` are acme's (helper-336).
        if bare.hasSuffix(".ghe.com"), !bare.contains("/"), !bare.contains("@"),
            let tenant = bare.dropLast(".ghe.com".count).split(separator: ".").last,
            let url = URL(string: "https://api.\(tenant).ghe.com" + port)
        {
            return url
        }
        if host.contains("/") {
            throw UsageError(
                message:
                    "GH_HOST='\(shown)' is not a host name: GH_HOST takes a name such as ghe.example.com, which "
                    + "means https://HOST/api/v3; give a URL with --api-url or GH_USERS_API_URL instead",
                command: nil
            )
        }
        let text = "https://\(host)/api/v3"
        let url = try validatedRoot(
            text, given: "GH_HOST='\(shown)' is not a host name",
            expected: "GH_HOST takes a name such as ghe.example.com, which means https://HOST/api/v3")
        if OriginPolicy.isLoopback(host: url.host ?? "") {
            // An IPv6 address is named by a host name instead (see `refuseIPv6`).
            let named = url.host?.contains(":") == true ? "localhost" + (url.port.map { ":\($0)" } ?? "") : masked(host)
            throw UsageError(
                message:
                    "GH_HOST=\(shown) would mean GitHub Enterprise at \(masked(text)), over https; for a server on this "
                    + "machine give its URL instead, such as --api-url http://\(named) (or GH_USERS_API_URL)",
                command: nil
            )
        }
        try refuseIPv6(url, given: "GH_HOST='\(shown)'")
        return url
    }

    // MARK: - The token

    /// As gh reads them: `GH_TOKEN`, then `GITHUB_TOKEN`, for github.com and a subdomain of ghe.com;
    /// `GH_ENTERPRISE_TOKEN`, then `GITHUB_ENTERPRISE_TOKEN`, for a GitHub Enterprise Server host, which is never
    /// sent a github.com token (`GH_HOST` exported for gh would have sent it there). A server on this machine (the
    /// stand-in, a test's) takes either kind, the enterprise ones first.
    static func tokenVariables(for url: URL) -> [String] {
        let host = OriginPolicy.bareHost(url.host ?? "")
        if OriginPolicy.isGitHubCom(host) || OriginPolicy.isTenancy(host) { return dotcomVariables }
        return OriginPolicy.isLoopback(host: host) ? enterpriseVariables + dotcomVariables : enterpriseVariables
    }

    static let dotcomVariables = ["GH_TOKEN", "GITHUB_TOKEN"]
    static let enterpriseVariables = ["GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"]

    /// The token, and where it came from.
    private static func token(
        variables names: [String],
        tokenFileContents: String?,
        environment: [String: String]
    ) throws(UsageError) -> (String?, String?) {
        if let tokenFileContents {
            let token = tokenText(tokenFileContents)
            guard !token.isEmpty else {
                throw UsageError(message: "the token file is empty", command: nil)
            }
            if let problem = tokenProblem(token) {
                throw UsageError(message: "the token file \(problem)", command: nil)
            }
            return (token, "the token file (--token-file)")
        }
        for name in names {
            // Read as a token file is: `export GH_TOKEN=$(cat token.txt)` carries the file's byte order mark, which
            // the file itself had removed (helper-315: refused from the variable, taken from the file).
            guard let token = environment[name].map(tokenText), !token.isEmpty else { continue }
            // The variable is named, never its value.
            if let problem = tokenProblem(token) {
                throw UsageError.setting("\(name) \(problem)")
            }
            return (token, name)
        }
        return (nil, nil)
    }

    /// A token file's or variable's text as a token: without a UTF-8 byte order mark (which editors on Windows
    /// add) and without the whitespace and line break around it.
    static func tokenText(_ contents: String) -> String {
        var scalars = Substring(contents).unicodeScalars
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        return String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Why `token` cannot go into an `Authorization` header, as the end of a sentence about where it came from;
    /// nil when it can. A line break would end the header early (and URLSession then drops it silently) and a
    /// NUL would cut it, so a token is printable ASCII without spaces, as every GitHub token is.
    static func tokenProblem(_ token: String) -> String? {
        let scalars = token.unicodeScalars
        // A gh-users state or snapshot given as the token file was sent whole as the token, and so was a token in
        // quotes (`GH_TOKEN='"gho_…"'`, a line of a config file): GitHub's 401 then blamed the token (helper-341).
        if token.first == "{" || token.first == "[" {
            return "holds JSON, which no token is (a state or snapshot file of gh-users's?); it should hold the "
                + "token alone"
        }
        if token.count >= 2, let quote = token.first, quote == "\"" || quote == "'", token.last == quote {
            return "holds the token in quotes, which no token has; it should hold the token alone, without them"
        }
        if scalars.contains(where: { $0 == "\n" || $0 == "\r" }) {
            return "holds a line break; it should hold the token alone, on one line"
        }
        if scalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "holds a control character; it should hold the token alone, in printable characters"
        }
        if scalars.contains(where: { $0.properties.isWhitespace }) {
            return "holds more than one word; it should hold the token alone"
        }
        if !scalars.allSatisfy({ $0.isASCII }) {
            return "holds a character outside ASCII; it should hold the token alone, as GitHub gave it"
        }
        // No GitHub token holds "=": `GH_TOKEN=ghp_…`, a line copied from a .env file, was sent whole and refused
        // (exit 4, helper-315). The name is not said: nothing of the line is.
        // A base64 text's padding ("dG9r==", "dG9rZW4=") is no assignment; an empty one of a variable named for a
        // token (`GH_TOKEN=`, helper-318) is.
        if let equals = token.firstIndex(of: "="), equals != token.startIndex,
            case let name = token[..<equals], name.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber }),
            case let value = token[token.index(after: equals)...],
            value.first.map({ $0 != "=" })
                ?? (name.contains("TOKEN") && name.allSatisfy { $0 == "_" || $0.isUppercase || $0.isNumber })
        {
            return "holds a variable's assignment (NAME=…); it should hold the token alone"
        }
        return nil
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
