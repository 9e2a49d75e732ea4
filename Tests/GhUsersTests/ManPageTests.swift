import Foundation
import Testing

@testable import gh_users

/// The manual pages as the binary renders them (`help --man`): one per catalog command, each group once in
/// gh-users(1), and text escaped so that man prints it as typed.
struct ManPageTests {
    /// Every command and subcommand: `me edit` has gh-users-me-edit(1), as gh's subcommands have pages.
    private static let names = CommandCatalog.allSpecs.map(\.name)

    @Test(arguments: names)
    func everyCommandHasItsOwnPage(name: String) throws {
        let words = name.split(separator: " ").map(String.init)
        #expect(CommandRouter().route(["help", "--man"] + words) == .manual(command: name))
        let page = ManPageRenderer.render(name, version: "9.9", date: Date(timeIntervalSince1970: 0))
        let title = "GH-USERS-" + words.joined(separator: "-").uppercased()
        #expect(page.hasPrefix(#".TH "\#(title)" "1" "1970-01-01" "gh-users 9.9""#))
        let spec = try #require(CommandCatalog.spec(named: name))
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "SEE ALSO"] + spec.groups.map(\.title) {
            #expect(page.components(separatedBy: ".SH \"\(section)\"\n").count == 2, "\(name): \(section)")
        }
        #expect(page.contains(".SH \"FIELDS\"") == !spec.fields.isEmpty, "\(name)")
        #expect(
            page.contains(".SH \"NAME\"\ngh\\-users\\-\(Roff.escape(words.joined(separator: "-"))) \\- "), "\(name)")
        // A command's page points to its subcommands' pages, and a subcommand's to its command's, in SEE ALSO
        // too, as gh's pages do (helper-329: gh-users-me(1) named only gh-users(1) there).
        let seeAlso = page.components(separatedBy: ".SH \"SEE ALSO\"\n").last ?? ""
        for subcommand in spec.subcommands {
            #expect(seeAlso.contains(Roff.reference(ManPageRenderer.pageName(subcommand))), "\(name)")
        }
        if words.count > 1 { #expect(seeAlso.contains(Roff.reference("gh-users-" + words[0])), "\(name)") }
        #expect(seeAlso.hasSuffix(Roff.reference("gh-users") + "\n"), "\(name)")
        #expect(!Self.hasParagraphAfterHeading(page), "\(name)")
    }

    /// A heading starts a paragraph: a .PP after it is one `mandoc -Tlint` warns of (182 times before).
    @Test func noPageHasAParagraphBreakRightAfterAHeading() {
        let main = ManPageRenderer.render(nil, version: "9.9", date: Date(timeIntervalSince1970: 0))
        #expect(main.contains(".SH \"DESCRIPTION\""))
        #expect(!Self.hasParagraphAfterHeading(main))
        #expect(Self.hasParagraphAfterHeading(".SH \"X\"\n.PP\ntext\n"))
    }

    private static func hasParagraphAfterHeading(_ page: String) -> Bool {
        let lines = page.split(separator: "\n")
        return zip(lines, lines.dropFirst()).contains { $0.hasPrefix(".SH ") && $1 == ".PP" }
    }

    /// Pages built twice from one source are the same: SOURCE_DATE_EPOCH, as reproducible builds set it, dates
    /// them instead of the day they were built.
    @Test func sourceDateEpochDatesThePages() async {
        let (env, out, _) = AppEnvironment.test(environment: ["SOURCE_DATE_EPOCH": "86400"])
        #expect(await GhUsersApp(environment: env).run(["help", "--man", "list"]) == 0)
        #expect(out.text.hasPrefix(#".TH "GH-USERS-LIST" "1" "1970-01-02" "#), "\(out.text.prefix(80))")
    }

    /// An empty SOURCE_DATE_EPOCH is unset, as README says (helper-269 found README silent on it).
    @Test func anEmptySourceDateEpochIsUnset() async {
        let (env, out, err) = AppEnvironment.test(environment: ["SOURCE_DATE_EPOCH": ""])
        #expect(await GhUsersApp(environment: env).run(["help", "--man", "list"]) == 0)
        #expect(out.text.hasPrefix(#".TH "GH-USERS-LIST" "1" ""#), "\(out.text.prefix(80))")
        #expect(!out.text.hasPrefix(#".TH "GH-USERS-LIST" "1" "1970-01-0"#))
        #expect(err.text.isEmpty)
    }

    /// A SOURCE_DATE_EPOCH that is not whole seconds up to the year 9999 is exit 64, as the reproducible-builds
    /// specification asks: read as a Double, `inf` dated the pages 506713-02-07 and `abc` today.
    @Test(arguments: ["inf", "nan", "1e9", "0x10", "-5", "abc", "9223372036854775807", "253402300800", " 86400"])
    func aSourceDateEpochThatIsNoDateIsRefused(value: String) async {
        let (env, out, err) = AppEnvironment.test(environment: ["SOURCE_DATE_EPOCH": value])
        #expect(await GhUsersApp(environment: env).run(["help", "--man", "list"]) == 64)
        #expect(out.text.isEmpty)
        #expect(err.text.contains("invalid SOURCE_DATE_EPOCH"), "\(err.text)")
        #expect(GhUsersApp.sourceDate("253402300799") != nil)
    }

    @Test func ghUsersPageHoldsEachGroupOnceAndPointsToEveryCommand() {
        #expect(CommandRouter().route(["help", "--man"]) == .manual(command: nil))
        let page = ManPageRenderer.render(nil, version: "9.9", date: Date(timeIntervalSince1970: 0))
        let titles = Set(CommandCatalog.specs.flatMap { $0.groups.map(\.title) })
        #expect(titles.count >= 6)
        for title in titles {
            #expect(page.components(separatedBy: ".SH \"\(title)\"\n").count == 2, "\(title)")
        }
        // Each command once, under the section top-level help lists it in; every page, subcommands' too, in SEE ALSO.
        for (section, specs) in CommandCatalog.sections {
            let listed =
                page.components(separatedBy: ".SH \"\(section.rawValue)\"\n").last?
                .components(separatedBy: ".SH ").first ?? ""
            for spec in specs {
                #expect(listed.contains(".TP\n.BR gh\\-users\\-\(Roff.escape(spec.name)) (1)\n"), "\(spec.name)")
            }
        }
        let seeAlso = page.components(separatedBy: ".SH \"SEE ALSO\"\n").last ?? ""
        for spec in CommandCatalog.allSpecs {
            #expect(seeAlso.contains(Roff.reference(ManPageRenderer.pageName(spec))), "\(spec.name)")
        }
        let headings = CommandCatalog.sections.map(\.section.rawValue)
        for heading in headings + ["GLOBAL OPTIONS", "FIELDS", "FORMATS", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES"] {
            #expect(page.components(separatedBy: ".SH \"\(heading)\"\n").count == 2, "\(heading)")
        }
    }

    @Test func aGroupInGhUsersListsEveryOptionAnyCommandTakesAndWhoTakesIt() throws {
        let groups = ManPageRenderer.sharedGroups(CommandCatalog.specs)
        let cache = try #require(groups.first { $0.title == "CACHE OPTIONS" })
        // `cache` takes only --cache-dir, and says so (it refuses --offline); `list` all three.
        #expect(cache.options.map(\.name) == ["no-cache", "offline", "cache-dir"])
        #expect(cache.commands.contains("cache (--cache-dir)") && cache.commands.contains("list"))
        let output = try #require(groups.first { $0.title == "OUTPUT OPTIONS" })
        #expect(output.commands.contains("cache (--format, --json, --color)"), "\(output.commands)")
        let paging = try #require(groups.first { $0.title == "PAGING OPTIONS" })
        #expect(
            paging.options.map(\.help) == [
                "Stop after N items (N >= 1).", "Go on to the last page.", "Items per request, 1 to 100.",
            ])
        #expect(!paging.commands.contains("show"))
    }

    @Test func wordingsThatDifferShareTheirWordsAndSayItems() {
        #expect(ManPageRenderer.commonWording(["Same text.", "Same text."]) == "Same text.")
        #expect(
            ManPageRenderer.commonWording(["Stop after N accounts (N >= 1).", "Stop after N GPG keys (N >= 1)."])
                == "Stop after N items (N >= 1).")
        #expect(
            ManPageRenderer.commonWording(["Gists per request.", "Signing keys per request."])
                == "Items per request.")
        // One wording with words added (members' role changes) is not cut into "items": the shorter one is true.
        #expect(
            ManPageRenderer.commonWording([
                "Write who joined, who left since.", "Write who joined, who left and more since.",
            ])
                == "Write who joined, who left since.")
    }

    /// gh-users(1) names, under an option group, the commands that take one of its options among their own
    /// (`followers --changes`), so a reader of the group does not conclude they lack it.
    @Test func theMainPageNamesCommandsThatTakeAGroupsOptionAsTheirOwn() throws {
        let page = ManPageRenderer.mainPage(version: "1", date: "2026-01-01")
        let changes = try #require(page.range(of: ".SH \"CHANGES OPTIONS\""))
        let section = String(page[changes.upperBound...]).components(separatedBy: ".SH ").first ?? ""
        for command in ["followers (\\-\\-changes", "following (\\-\\-changes", "access (\\-\\-changes"] {
            #expect(section.contains(command), "\(section)")
        }
        #expect(!page.contains("more in the man page"))
        #expect(!page.contains("who left items"))
    }

    @Test func textPrintsAsTypedWhateverRoffWouldMakeOfIt() {
        #expect(Roff.escape("--per-page") == "\\-\\-per\\-page")
        #expect(Roff.escape(".hidden\n'quoted'") == "\\&.hidden\n\\(aqquoted\\(aq")
        #expect(Roff.escape(#"a\b ^~`"#) == #"a\eb \(ha\(ti\(ga"#)
        #expect(Roff.escape("cut…, 😀") == "cut\\[u2026], \\[u1F600]")
    }

    @Test func aTopicOrAnUnknownNameHasNoPage() {
        for arguments in [
            ["help", "--man", "formats"], ["help", "--man", "lsit"], ["help", "--man", "list", "show"],
        ] {
            guard case .usageError(let error) = CommandRouter().route(arguments) else {
                Issue.record("\(arguments) routed")
                continue
            }
            #expect(error.message.contains("man"), "\(arguments)")
        }
    }
}
