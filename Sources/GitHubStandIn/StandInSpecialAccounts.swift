/// Hand-written accounts among the first few dozen ordinals, each named by an end-to-end test or a script.
///
/// They exist to break naive clients: wide characters for column alignment, terminal control sequences for output
/// sanitising, quotes and backslashes for JSON and CSV escaping, empty and blank strings. Ordinals ending in 7 are
/// skipped because those are always Organizations.
struct StandInSpecialAccount: Sendable {
    var login: String
    var type: String = "User"
    var name: String?
    var company: String?
    var blog: String = ""
    var location: String?
    var email: String?
    var hireable: Bool?
    var bio: String?
    var twitterUsername: String?
    /// public_repos, public_gists, followers, following; nil keeps the generated values.
    var counts: (Int, Int, Int, Int)?

    /// The profile's text fields are the account's, wholly; its numbers are `StandInProfileNumbers`'.
    func apply(to profile: inout StandInUserProfile) {
        (profile.name, profile.company, profile.blog, profile.location) = (name, company, blog, location)
        (profile.email, profile.hireable, profile.bio, profile.twitterUsername) = (
            email, hireable, bio, twitterUsername
        )
    }
}

enum StandInSpecialAccounts {
    static let byOrdinal: [Int: StandInSpecialAccount] = [
        // Values from GitHub's `public-user-default-response` example.
        1: StandInSpecialAccount(
            login: "octocat", name: "monalisa octocat", company: "GitHub", blog: "https://github.com/blog",
            location: "San Francisco", email: "octocat@github.com", hireable: false, bio: "There once was...",
            twitterUsername: "monatheoctocat", counts: (2, 1, 20, 0)),
        2: StandInSpecialAccount(
            login: "Yamada-Taro", name: "山田太郎", company: "株式会社サンプル", location: "東京都",
            bio: "東京在住のソフトウェアエンジニアです。", counts: (42, 3, 1_234, 56)),
        3: StandInSpecialAccount(login: "dependabot[bot]", type: "Bot", counts: (0, 0, 0, 0)),
        4: StandInSpecialAccount(login: "kitsune-fox", name: "🦊 Fox", bio: "Nine tails: 🦊🦊🦊🦊🦊🦊🦊🦊🦊"),
        9: StandInSpecialAccount(
            login: "ansi-red", name: "Ansi Red", bio: "I am \u{1B}[31mred\u{1B}[0m and \u{1B}[1;5mblinking\u{1B}[0m"),
        10: StandInSpecialAccount(login: "bell-ringer", name: "Bell\u{07} Ringer", bio: "Ding\u{07}dong\u{07}"),
        11: StandInSpecialAccount(login: "c1-csi", name: "C1 Control", bio: "C1 \u{9B}31mred\u{9B}0m via U+009B"),
        12: StandInSpecialAccount(
            login: "bidi-override", name: "\u{202E}gnirts desrever",
            bio: "abc\u{202E}fed\u{202C}ghi \u{2067}isolate\u{2069}"),
        13: StandInSpecialAccount(
            login: "osc8-link", name: "Hyperlink",
            bio: "\u{1B}]8;;https://evil.example\u{07}click\u{1B}]8;;\u{07} and \u{1B}]0;pwned title\u{07}"),
        14: StandInSpecialAccount(
            login: "tabby-newline", name: "Tab\tName", location: "Line\nBreak",
            bio: "line one\nline two\r\n\tindented\u{0B}vtab\u{0C}formfeed\u{08}backspace"),
        15: StandInSpecialAccount(login: "nul-byte", name: "Nul\u{0}Name", bio: "before\u{0}after"),
        16: StandInSpecialAccount(login: "del-char", name: "Del Char", bio: "rub\u{7F}out"),
        18: StandInSpecialAccount(
            login: "Quote-Backslash", name: "\"Quoted\" \\ Name", company: "\\\\server\\share",
            bio: "C:\\Users\\me said \"hi\" / </script> \\u0041 is not an escape"),
        21: StandInSpecialAccount(
            login: "u2028-sep", name: "Line\u{2028}Separator", bio: "para\u{2028}line\u{2029}end"),
        24: StandInSpecialAccount(login: "empty-strings", name: "", company: "", location: "", bio: ""),
        25: StandInSpecialAccount(login: "spaces-only", name: "   ", bio: " \u{A0}\u{2003} "),
    ]
}
