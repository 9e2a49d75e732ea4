import TestSupport
import Testing

@testable import AtomicCore

struct DisplayWidthTests {
    @Test(arguments: [
        ("octocat", 7),
        ("山田太郎", 8),
        ("🦊 Fox", 6),
        // A ZWJ sequence counts as the sum of its parts: 2 + 0 + 2.
        ("👩\u{200D}💻", 4),
        // Combining marks take no column.
        ("Jose\u{0301}", 4),
        ("ＡＢ", 4),
        ("\u{1B}[31m", 4),
        ("", 0),
        // The emoji presentation selector makes a narrow symbol 2 wide, as terminals draw it: ❤️ ✔️.
        ("\u{2764}\u{FE0F}", 2), ("\u{2714}\u{FE0F} ok", 5), ("\u{2764}", 1),
        // A pictograph whose default is text is 1 column, as terminals, wcwidth and gh draw it, and 2 with the
        // selector (before: 2 alone); a letter has no emoji form, so the selector adds nothing (was 2);
        // a keycap is 2. 🤻 and 🥆 are no emoji: 1.
        ("\u{1F5A5}", 1), ("\u{1F54A} peace", 7), ("\u{1F321}", 1), ("\u{1F6E0}", 1), ("\u{1F5A5}\u{FE0F}", 2),
        ("a\u{FE0F}", 1), ("1\u{FE0F}\u{20E3}", 2), ("\u{1F93B}\u{1F946}", 2), ("\u{1F600}\u{1F680}\u{1F90C}", 6),
        // An emoji newer than the runtime's Unicode data is still 2 (helper-281: U+1F6D9, Unicode 17, counted 1).
        ("\u{1F6D9}", 2),
        // Wide blocks wcwidth tables list: Khitan, Kana Extended-B, circled ideographic symbols.
        ("\u{18D00}", 2), ("\u{1AFF0}", 2), ("\u{1F260}", 2),
        // A flag is two regional indicators, 2 columns on every terminal (before: 4, which misaligned a row).
        ("Berlin \u{1F1E9}\u{1F1EA}", 9), ("\u{1F1EB}\u{1F1F7}\u{1F1EA}\u{1F1FA}", 4),
    ])
    func widths(text: LoggedText, expected: Int) {
        #expect(DisplayWidth.of(text.text) == expected)
    }

    @Test func truncationKeepsWithinWidthAndMarksTheCut() {
        let cut = DisplayWidth.truncate("山田太郎さん", toWidth: 7)
        #expect(cut == "山田太…")
        #expect(DisplayWidth.of(cut) <= 7)
        #expect(DisplayWidth.truncate("short", toWidth: 10) == "short")
        #expect(DisplayWidth.truncate("abcdef", toWidth: 0) == "")
    }

    @Test func truncationNeverSplitsACombiningMarkFromItsBase() {
        let cut = DisplayWidth.truncate("e\u{0301}e\u{0301}e\u{0301}e\u{0301}", toWidth: 3)
        #expect(cut == "e\u{0301}e\u{0301}…")
    }

    /// Combining marks take no column: 400,000 of them on one letter passed a width of 300 whole, an 800 KB line
    /// of stderr from a server's message (helper-326). A column holds at most 8 scalars; a family emoji (7 scalars,
    /// 8 columns as the sum of its parts) and letters with an accent are kept whole.
    @Test func aRunOfZeroWidthMarksIsCut() {
        let zalgo = "x" + String(repeating: "\u{0301}", count: 400_000) + " tail"
        let cut = DisplayWidth.truncate(zalgo, toWidth: 300)
        #expect(cut.unicodeScalars.count <= 2_400)
        #expect(cut.hasSuffix("…"))
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"
        #expect(DisplayWidth.truncate(family, toWidth: 8) == family)
        #expect(DisplayWidth.truncate("Jose\u{0301} Mu\u{0308}ller", toWidth: 12) == "Jose\u{0301} Mu\u{0308}ller")
    }

    @Test func paddingCountsDisplayColumns() {
        #expect(DisplayWidth.pad("山", toWidth: 4) == "山  ")
        #expect(DisplayWidth.pad("abcd", toWidth: 2) == "abcd")
    }
}

/// libcurl quoted `HTTPS_PROXY='http://alice:s3cr3tPW@127.0.0.1:99999'` in full in its error, which gh-users
/// printed twice; a server's `Location` may hold a password too.
@Test(arguments: [
    (
        "Unsupported proxy syntax in 'http://alice:s3cr3tPW@127.0.0.1:99999'",
        "Unsupported proxy syntax in 'http://***@127.0.0.1:99999'"
    ),
    ("https://sso.corp.example/login?user=me@corp.example", "https://sso.corp.example/login?user=me@corp.example"),
    ("http://alice:pw@127.0.0.1:1/graphql?x=a@b", "http://***@127.0.0.1:1/graphql?x=a@b"),
    ("http://127.0.0.1:8080/users/octocat", "http://127.0.0.1:8080/users/octocat"),
    ("mail a@b.example", "mail a@b.example"),
    // A password holding `@` is masked up to the authority's last one (helper-327: the first one went unseen).
    ("Location: http://alice:p@ss@proxy.example:3128/x", "Location: http://***@proxy.example:3128/x"),
])
func urlUserInfoIsMasked(input: String, expected: String) {
    #expect(URLUserInfo.masked(in: input) == expected)
}

/// A proxy setting libcurl cannot read is quoted as given: no scheme, or a password with a space or a quote.
@Test(arguments: [
    (
        "Unsupported proxy syntax in 'alice:s3cr3tPW@127.0.0.1:99999'",
        "Unsupported proxy syntax in '***@127.0.0.1:99999'"
    ),
    ("Unsupported proxy syntax in 'http://alice:s3cr3t PW@h:1'", "Unsupported proxy syntax in 'http://***@h:1'"),
    ("Unsupported proxy syntax in 'http://alice:s3'cr/3tPW@h:1'", "Unsupported proxy syntax in 'http://***@h:1'"),
    ("Could not resolve proxy: proxy.corp", "Could not resolve proxy: proxy.corp"),
    // A `://` inside the password is no scheme's end (helper-338: `bob:hunter2://` was shown).
    ("Unsupported proxy syntax in 'bob:hunter2://x@proxy:99999'", "Unsupported proxy syntax in '***@proxy:99999'"),
    (
        "Unsupported proxy syntax in 'socks5h://bob:pw@proxy:99999'",
        "Unsupported proxy syntax in 'socks5h://***@proxy:99999'"
    ),
])
func aProxySettingsPasswordIsMasked(input: String, expected: String) {
    #expect(URLUserInfo.maskedSetting(in: input) == expected)
}

struct TerminalSanitizerTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("\u{1B}[31mred\u{1B}[0m", "\\e[31mred\\e[0m"),
        ("bell\u{07}", "bell\\a"),
        ("csi\u{9B}31m", "csi\\u{9b}31m"),
        ("rtl\u{202E}txt", "rtl\u{FFFD}txt"),
        // Every bidirectional control, the Arabic letter mark too (helper-324: only U+202E was tried here).
        ("a\u{061C}b\u{200E}c\u{200F}d\u{2066}e\u{2069}f", "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}f"),
        ("nul\u{0}del\u{7F}", "nul\\0del\\x7f"),
        ("line\nbreak\ttab\r", "line\\nbreak\\ttab\\r"),
        ("\u{1B}]8;;https://evil.example\u{07}click\u{1B}]8;;\u{07}", "\\e]8;;https://evil.example\\aclick\\e]8;;\\a"),
        ("山田 🦊 Jose\u{0301}", "山田 🦊 Jose\u{0301}"),
    ])
    func sanitizes(input: LoggedText, expected: String) {
        let output = TerminalSanitizer.sanitize(input.text)
        #expect(output == expected)
        #expect(!output.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test func backslashesAreDoubledOnlyWhenAsked() {
        #expect(TerminalSanitizer.sanitize("C:\\path") == "C:\\path")
        #expect(TerminalSanitizer.sanitize("C:\\path\n", escapeBackslash: true) == "C:\\\\path\\n")
    }
}

/// gh's `GH_FORCE_TTY`: a number is the width, a percentage a share of the terminal's, anything else no width.
struct ForcedTerminalTests {
    @Test(arguments: [
        ("100", 80, 100), ("1", 80, 1), ("50%", 200, 100), ("100%", 90, 90), ("250%", 90, 90), ("1%", 50, 1),
        ("70000", 80, 65_535), ("true", 80, nil), ("-5", 80, nil), ("0%", 80, nil), ("%", 80, nil),
    ])
    func aValueNamesAWidthOrNone(value: String, terminal: Int, width: Int?) {
        #expect(TerminalSize.forced(value, terminal: terminal) == width)
    }
}

struct ColorTests {
    @Test func environmentPolicy() {
        #expect(ColorPolicy(environment: [:]) == .auto)
        #expect(ColorPolicy(environment: ["NO_COLOR": "1"]) == .disabled)
        #expect(ColorPolicy(environment: ["CLICOLOR_FORCE": "1"]) == .forced)
        #expect(ColorPolicy(environment: ["CLICOLOR_FORCE": "0"]) == .auto)
        #expect(ColorPolicy(environment: ["NO_COLOR": "1", "CLICOLOR_FORCE": "1"]) == .disabled)
        // gh's `CLICOLOR`: "0" turns colour off (helper-284: it was not read); anything else leaves it to the
        // terminal, and CLICOLOR_FORCE still forces it.
        #expect(ColorPolicy(environment: ["CLICOLOR": "0"]) == .disabled)
        #expect(ColorPolicy(environment: ["CLICOLOR": "1"]) == .auto)
        #expect(ColorPolicy(environment: ["CLICOLOR": ""]) == .auto)
        #expect(ColorPolicy(environment: ["CLICOLOR": "0", "CLICOLOR_FORCE": "1"]) == .forced)
    }

    /// gh's rule: 256 colours when TERM or COLORTERM names them or true colour; else the 8 basic ones.
    @Test(arguments: [
        ([:], ColorDepth.basic), (["TERM": "linux"], .basic), (["TERM": "xterm"], .basic), (["TERM": "vt100"], .basic),
        (["TERM": "xterm-256color"], .extended), (["TERM": "tmux-256color"], .extended),
        (["TERM": "xterm", "COLORTERM": "truecolor"], .extended), (["COLORTERM": "24bit"], .extended),
        (["TERM": "XTERM-256COLOR"], .extended), (["TERM": "xterm-direct", "COLORTERM": "rxvt"], .basic),
    ])
    func depthFollowsTermAndColorterm(environment: [String: String], depth: ColorDepth) {
        #expect(ColorDepth(environment: environment) == depth)
    }

    @Test func choiceWinsOverPolicyAndTerminal() {
        #expect(ColorChoice.auto.isEnabled(policy: .auto, isTTY: true))
        #expect(!ColorChoice.auto.isEnabled(policy: .auto, isTTY: false))
        #expect(!ColorChoice.auto.isEnabled(policy: .disabled, isTTY: true))
        #expect(ColorChoice.auto.isEnabled(policy: .forced, isTTY: false))
        #expect(ColorChoice.always.isEnabled(policy: .disabled, isTTY: false))
        #expect(!ColorChoice.never.isEnabled(policy: .forced, isTTY: true))
    }

    @Test func schemeIsANoOpWhenDisabled() {
        #expect(ColorScheme(enabled: false).bold("x") == "x")
        #expect(ColorScheme(enabled: true).bold("x") == "\u{1B}[1mx\u{1B}[0m")
    }
}

struct CapturedOutputTests {
    @Test func closedReaderThrowsAfterTheLimit() throws {
        let sink = CapturedOutput()
        sink.closeAfter(bytes: 3)
        try sink.write(Array("abc".utf8))
        #expect(throws: OutputClosedError.self) { try sink.write(Array("d".utf8)) }
        #expect(sink.text == "abc")
    }
}
