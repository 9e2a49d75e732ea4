import Foundation
import Testing

/// The manual pages `Scripts/make-manpage` writes and `Scripts/install.sh` installs: gh-users(1) and one page per
/// command, rendered by the binary from the specs its help comes from. The pages are made and rendered once,
/// for all the tests, with a bound that a loaded machine does not reach; the tests wait for that one run
/// together.
struct ManPageEndToEndTests {
    private static let bound: TimeInterval = 300
    private static let scripts = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts")
    private static let hasMan = FileManager.default.isExecutableFile(atPath: "/usr/bin/man")
    private static let hasGroff = FileManager.default.isExecutableFile(atPath: "/usr/bin/groff")

    /// The commands `gh-users help` lists under its sections, one per line.
    private static let commands = #"$GH_USERS help | awk "# + listed

    /// The names listed under the headings that end in COMMANDS: the sections of `gh-users help`, and the
    /// subcommands in a command's help.
    private static let listed = #"'/COMMANDS$/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }'"#

    /// install.sh run once into `$HOME/root` (with `--binary`, so nothing is built: it writes the pages with
    /// make-manpage), and in its man1 folder, in the same shell: the file names, the commands help lists, each
    /// command's help unwrapped, and each page rendered by groff as man-db renders it for `MANWIDTH=80` (a line
    /// of 78 ens, text without overstriking), with roff's warnings (`-ww`, every one) from that same rendering;
    /// then what install.sh said, and the list page as man finds it through MANPATH. The tests below read this
    /// one run: making and rendering every page is most of the suite's cost.
    private static let pages = Task { () async throws -> [String: String] in
        let render =
            hasGroff
            ? #"for page in *.1; do echo "== page $page"; "#
                + #"groff -k -man -Tutf8 -ww -rLL=78n -rLT=78n -P-cbou "$page" 2>"$HOME/warned" || echo "FAILED"; "#
                + #"sed "s|^|$page: |" "$HOME/warned" >>"$HOME/roff"; done; echo "== roff"; cat "$HOME/roff"; "#
            : ""
        let man =
            hasMan ? #"echo "== man"; MANPATH="$HOME/root/usr/share/man" MANWIDTH=80 man -P cat gh-users-list"# : "true"
        let result = try await BinaryRunner.shell(
            #"DESTDIR="$HOME/root" PREFIX=/usr bash "\#(scripts.path)/install.sh" --binary="$GH_USERS" "#
                + #"2>"$HOME/installed" && cd "$HOME/root/usr/share/man/man1" && ls && "#
                + #"echo "== commands" && "# + commands + #" && for command in $("# + commands
                + #"); do echo "== help $command"; COLUMNS=4000 "$GH_USERS" help "$command"; done; "#
                + #"echo "== topic options"; COLUMNS=4000 "$GH_USERS" help options; "#
                + render + #"echo "== installed"; cat "$HOME/installed"; "# + man,
            timeout: bound)
        guard result.status == 0 else { throw PagesNotMade(stderr: result.stderr) }
        return sections(result.stdout)
    }

    private struct PagesNotMade: Error {
        let stderr: String
    }

    /// The output of `script`, split at lines `== NAME`, by name (a section with no lines is empty, not missing).
    private static func sections(_ output: String) -> [String: String] {
        var sections: [String: String] = [:]
        var name = ""
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("== ") {
                name = String(line.dropFirst(3))
                sections[name] = sections[name] ?? ""
            } else {
                sections[name, default: ""] += line + "\n"
            }
        }
        return sections
    }

    /// The commands help lists, each with its unwrapped help.
    private func helps(_ parts: [String: String]) -> [(name: String, help: String)] {
        parts.compactMap { key, help in key.hasPrefix("help ") ? (String(key.dropFirst(5)), help) : nil }
    }

    /// The names listed under a heading that ends in COMMANDS, up to the next empty line.
    private func listed(_ help: String) -> [String] {
        var on = false
        var names: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix("COMMANDS") {
                on = true
            } else if line.isEmpty {
                on = false
            } else if on, line.hasPrefix("  "), line.dropFirst(2).first?.isLowercase == true {
                names.append(String(line.split(separator: " ")[0]))
            }
        }
        return names
    }

    @Test func everyCommandHasItsPageAndNoOtherPageIsWritten() async throws {
        let parts = try await Self.pages.value
        let commands = try #require(parts["commands"]).split(separator: "\n").map(String.init)
        #expect(commands.count > 20)
        #expect(commands.contains("list") && commands.contains("help"))
        // A subcommand has its page, as gh's do: gh-users-me-edit.1.
        let subcommands = helps(parts).flatMap { command in listed(command.help).map { "\(command.name)-\($0)" } }
        #expect(subcommands.contains("me-edit") && subcommands.contains("cache-clear"))
        let expected = ["gh-users.1"] + (commands + subcommands).map { "gh-users-\($0).1" }
        #expect(try #require(parts[""]).split(separator: "\n").map(String.init).sorted() == expected.sorted())
    }

    @Test(.enabled(if: hasGroff, "groff is not installed (Scripts/test-tools installs groff-base): skipped"))
    func everyRenderedPageFitsEightyColumns() async throws {
        let pages = try await Self.pages.value.filter { $0.key.hasPrefix("page ") }
        #expect(pages.count > 20)
        for (page, text) in pages {
            let lines = text.split(separator: "\n")
            #expect(lines.count > 20 && !text.contains("FAILED"), "\(page)")
            let wide = lines.filter { $0.count > 80 }
            #expect(wide.isEmpty, "\(page): \(wide.prefix(3))")
        }
    }

    @Test(.enabled(if: hasGroff, "groff is not installed (Scripts/test-tools installs groff-base): skipped"))
    func noPageDrawsAWarningFromRoff() async throws {
        let warnings = try #require(try await Self.pages.value["roff"])
        #expect(warnings.trimmingCharacters(in: .newlines).isEmpty, "\(warnings.prefix(600))")
    }

    /// The old single page held every group once per command (NETWORK OPTIONS 19 times); gh-users(1) holds each
    /// once, with the commands, the topics and a pointer to each command's page; a command's page holds the
    /// groups its --help lists or names on its SHARED OPTIONS line (`paging, output: gh-users help options`),
    /// each once.
    @Test(.enabled(if: hasGroff, "groff is not installed (Scripts/test-tools installs groff-base): skipped"))
    func eachGroupIsDescribedOnceInGhUsersAndOnceInEachPageThatTakesIt() async throws {
        let parts = try await Self.pages.value
        let main = try #require(parts["page gh-users.1"]).split(separator: "\n").map(String.init)
        var titles: Set<String> = []
        for (name, help) in helps(parts) {
            let lines = help.split(separator: "\n").map(String.init)
            let listed = lines.filter { line in
                line != "OPTIONS" && line != "SHARED OPTIONS" && line.hasSuffix("OPTIONS")
                    && line.allSatisfy { $0.isUppercase || $0 == " " }
            }
            let named = lines.firstIndex(of: "SHARED OPTIONS").map { index in
                lines[index + 1].split(separator: ":")[0].split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces).uppercased() + " OPTIONS"
                }
            }
            let groups = listed + (named ?? [])
            titles.formUnion(groups)
            let page = try #require(parts["page gh-users-\(name).1"]).split(separator: "\n").map(String.init)
            for title in groups {
                #expect(page.filter { $0 == title }.count == 1, "\(name): \(title)")
            }
            #expect(main.contains { $0.contains("gh-users-\(name)(1)") }, "\(name)")
        }
        #expect(titles.isSuperset(of: ["OUTPUT OPTIONS", "NETWORK OPTIONS", "CACHE OPTIONS", "PAGING OPTIONS"]))
        for title in titles {
            #expect(main.filter { $0 == title }.count == 1, "\(title)")
        }
        let commandSections = [
            "PEOPLE COMMANDS", "YOUR ACCOUNT COMMANDS", "SEARCH AND CRAWL COMMANDS", "SETUP COMMANDS",
        ]
        for section in commandSections + ["GLOBAL OPTIONS", "FORMATS", "ENVIRONMENT", "EXIT STATUS", "SEE ALSO"] {
            #expect(main.filter { $0 == section }.count == 1, "\(section)")
        }
    }

    /// A command's page says what its --help says: its abstract and every option's text, word for word; and
    /// gh-users(1) says what `help options` says of each shared group, which a command's help only names.
    @Test(.enabled(if: hasGroff, "groff is not installed (Scripts/test-tools installs groff-base): skipped"))
    func eachPageSaysWhatHelpSays() async throws {
        let parts = try await Self.pages.value
        var checked = 0
        /// Unwrapped, each option is one line: its flags, then its text after the first run of two spaces.
        func options(_ help: String) -> [String] {
            help.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("-") }
                .compactMap { line in line.range(of: "  ").map { String(line[$0.upperBound...]) } }
        }
        for (name, help) in helps(parts) {
            let page = words(try #require(parts["page gh-users-\(name).1"]))
            let first = help.split(separator: "\n")[0]
            #expect(page.contains(words(first.dropLast())), "\(name): \(first)")
            for text in options(help) {
                #expect(page.contains(words(text)), "\(name): \(text)")
                checked += 1
            }
        }
        let main = words(try #require(parts["page gh-users.1"]))
        let shared = options(try #require(parts["topic options"]))
        #expect(shared.count > 15)
        for text in shared {
            #expect(main.contains(words(text)), "help options: \(text)")
        }
        #expect(checked > 80)
    }

    @Test(.enabled(if: hasMan, "man is not installed (Scripts/test-tools installs man-db): skipped"))
    func installedPagesAreFoundByManThroughManpath() async throws {
        let parts = try await Self.pages.value
        let page = try #require(parts["man"])
        #expect(page.contains("gh-users-list - "))
        #expect(page.contains("PAGING OPTIONS"))
        #expect(try #require(parts["installed"]).contains("Installed gh-users"))
    }

    /// Words separated by single spaces, so that text filled at two widths compares equal.
    private func words(_ text: some StringProtocol) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
