import AtomicCore
import Domain
import Foundation
import JSONBytes
import TestSupport
import Testing

@testable import gh_users

private func route(_ arguments: String) -> Route {
    CommandRouter().route(arguments.split(separator: " ").map(String.init))
}

private let raw = RawJSON(
    #"{"login":"a\"b","id":7,"type":"User","site_admin":false,"name":null,"bio":"line\nbreak \u00e9\ud83e\udd8a","plan":{"n":1}}"#
)
private let user = User(id: 7, login: "a\"b", raw: raw)

struct FieldsTests {
    private func context(_ format: OutputFormat, fields: [String]) -> RenderContext {
        RenderContext(format: format, isTTY: false, colorEnabled: false, width: 80, now: Date(), fields: fields)
    }

    @Test func validFieldsReachTheContext() {
        #expect(route("list --fields login,id,type").common?.fields == ["login", "id", "type"])
    }

    @Test(arguments: [
        ("list --fields login,nme", "unknown field 'nme' for list"),
        ("show x --fields nmae", "unknown field 'nmae' for show; did you mean 'name'?"),
        ("repos x --fields stars", "unknown field 'stars' for repos"),
        ("cache info --fields path", "option '--fields' does not apply to cache"),
        ("list --fields ,", "--fields needs comma-separated field names"),
        // A script counts its columns from what it gave: a field named twice is not one column quietly.
        ("list --fields login,id,login", "--fields names 'login' twice"),
        ("list --fields id,login,id", "--fields names 'id' twice"),
        // A second --fields would replace the first or add to it, as the reader guesses: neither quietly.
        ("list --fields login --fields id", "--fields is given more than once"),
        ("list --fields login --fields login", "--fields is given more than once"),
    ])
    func badFieldsAreUsageErrorsThatListTheValidOnes(arguments: String, messageStart: String) {
        guard case .usageError(let error) = route(arguments) else {
            Issue.record("expected a usage error for \(arguments)")
            return
        }
        #expect(error.message.hasPrefix(messageStart), "\(error.message)")
        if error.message.hasPrefix("unknown field") {
            #expect(error.message.contains("\nValid fields: "))
        }
    }

    /// `repos`' fields ran to 1,169 characters on one line, which the usage error cut mid-word at 1,000:
    /// "delete_branch_on_merge, subsc… (169 more characters)", hiding valid fields (helper-361). Each list is
    /// filled to 80 columns now, every field whole.
    @Test func aLongListOfValidFieldsIsWhole() {
        guard case .usageError(let error) = route("repos x --fields zzz") else {
            Issue.record("expected a usage error")
            return
        }
        let text = error.rendered
        #expect(!text.contains("more characters"), "\(text)")
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(text)")
        let listed = text.components(separatedBy: "Valid fields: ").last?.replacingOccurrences(of: "\n  ", with: " ")
        for field in ListReposCommand.spec.fields {
            #expect(listed?.contains(field) == true, "\(field)")
        }
        // A field keeps its note on its line, and --changes' list is filled too (helper-364).
        for arguments in ["contributors o/r --fields zzz", "access o --changes c --fields zzz"] {
            guard case .usageError(let error) = route(arguments) else {
                Issue.record("expected a usage error for \(arguments)")
                continue
            }
            let lines = error.rendered.split(separator: "\n")
            #expect(lines.allSatisfy { $0.count <= 80 }, "\(error.rendered)")
            #expect(!lines.contains { $0.hasPrefix("  (") || $0.hasSuffix(" (with") }, "\(error.rendered)")
        }
    }

    @Test func jsonKeepsOnlyTheFieldsInTheirOrderAndNullForMissingOnes() throws {
        var writer = RecordStreamWriter<User>(
            context: context(.ndjson, fields: ["id", "login", "name", "twitter_username"]), columns: [])
        let line = String(decoding: writer.render([user]), as: UTF8.self)
        #expect(line == #"{"id":7,"login":"a\"b","name":null,"twitter_username":null}"# + "\n")
    }

    @Test func tableCellsUnescapeStringsAndShowObjectsCompactly() {
        var writer = RecordStreamWriter<User>(
            context: context(.tsv, fields: ["login", "bio", "name", "plan", "site_admin"]), columns: [])
        let line = String(decoding: writer.render([user]), as: UTF8.self)
        #expect(line == "a\"b\tline\\nbreak é🦊\t\t{\"n\":1}\tfalse\n")
    }

    @Test func csvUsesTheFieldNamesAsItsHeader() {
        var writer = RecordStreamWriter<User>(context: context(.csv, fields: ["id", "login"]), columns: [])
        #expect(String(decoding: writer.render([user]), as: UTF8.self) == "id,login\r\n7,\"a\"\"b\"\r\n")
    }

    @Test(arguments: [
        (#""plain""#, "plain"), (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"), (#""\u00e9\u4e2d""#, "é中"),
        (#""\ud83e\udd8a""#, "🦊"), (#""\ud83e""#, "\u{FFFD}"), (#""\u12""#, "\u{FFFD}12"),
    ])
    func unescapesJSONStrings(literal: String, text: LoggedText) {
        #expect(JSONText.unescapeString(Array(literal.utf8)) == text.text)
    }

    @Test func everyListingCommandDeclaresItsFields() {
        for name in ["list", "show", "repos", "followers", "following", "search", "rate-limit"] {
            #expect(CommandCatalog.spec(named: name)?.fields.isEmpty == false, "\(name)")
        }
        guard let text = route("repos --help").helpText else {
            Issue.record("expected help")
            return
        }
        #expect(text.contains("FIELDS\n  id, node_id, name, full_name"))
    }
}

struct HelpTopicTests {
    @Test(arguments: ["exit-codes", "environment", "formats", "options"])
    func topicsAreHelp(topic: String) {
        guard let text = route("help \(topic)").helpText else {
            Issue.record("expected help for \(topic)")
            return
        }
        #expect(text == HelpTopics.text(topic))
        #expect(text.count > 200)
        #expect(text.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 80 })
    }

    /// Top-level help names every topic on its last line, at 80 columns.
    @Test func theTopLevelHelpNamesEveryTopicOnOneLine() throws {
        let last = try #require(HelpRenderer.topLevel(width: 80).split(separator: "\n").last)
        #expect(last.hasPrefix("More: gh-users help <command> | "))
        for topic in HelpTopics.names {
            #expect(last.contains(" \(topic)"), "\(topic)")
        }
    }

    /// `help options` gives each shared group in full, every option of it, which a command's help names on one
    /// line; `--limit` in the words every list shares.
    @Test func theOptionsTopicListsEverySharedGroupInFull() throws {
        let text = try #require(route("help options").helpText)
        for group in HelpRenderer.sharedGroups {
            #expect(text.contains("\n\(group.title)\n"), "\(group.title)")
            for option in group.options {
                #expect(text.contains("  " + option.flagText), "\(option.flagText)")
            }
        }
        #expect(text.contains("Stop after N items (N >= 1)."))
        #expect(route("--help options") == route("help options"))
        let collaborators = try #require(route("collaborators --help").helpText)
        #expect(
            collaborators.contains("\nSHARED OPTIONS\n  paging, profile, output, network, cache, logging: gh-users "))
        #expect(!collaborators.contains("--wait-on-rate-limit"))
        #expect(collaborators.contains("--affiliation AFFILIATION"))
    }

    @Test func exitCodesListEveryDocumentedStatus() throws {
        let text = try #require(HelpTopics.text("exit-codes"))
        for code in [
            ExitCode.success, ExitCode.failure, ExitCode.notFound, ExitCode.authentication, ExitCode.rateLimited,
            ExitCode.usage, ExitCode.interrupted,
        ] {
            #expect(text.contains("  \(code) "), "\(code)")
        }
        // Cases README's table gives that help and the man page left out (helper-344), and its "or resource",
        // which named nothing.
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for phrase in [
            "not UTF-8 or looks like a token", "--fields twice is 64", "another gh-users run is crawling into",
            "fewer than 10 threads",
        ] {
            #expect(flat.contains(phrase), "\(phrase)")
        }
        #expect(!flat.contains("or resource"))
    }

    @Test func aMisspelledTopicSuggestsTheRightOne() {
        guard case .usageError(let error) = route("help environmnet") else {
            Issue.record("expected a usage error")
            return
        }
        #expect(error.message.contains("Did you mean 'environment'?"))
    }
}
