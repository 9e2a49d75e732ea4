import AtomicCore
import Domain
import Foundation
import TestSupport
import Testing

@testable import gh_users

private func route(_ arguments: String) -> Route {
    CommandRouter().route(arguments.split(separator: " ").map(String.init))
}

/// argv to route for several commands at once: their routes, their usage errors, and help for every command.
struct CommandRoutesTests {
    @Test func rateLimitAndShowByID() {
        #expect(route("rate-limit") == .rateLimit(CommonOptions()))
        #expect(route("show --id 583231") == .showUsers(ShowUsersOptions(references: [.id(583231)]), CommonOptions()))
    }

    @Test(arguments: [
        ("repos", "repos needs a LOGIN"), ("repos a b", "unexpected argument 'b'"),
        ("repos a --type private", "invalid value 'private' for '--type'"),
        ("repos a --sort stars", "invalid value 'stars' for '--sort'"),
        ("repos a --direction up", "invalid value 'up' for '--direction'"),
        ("repos a --sources --forks", "--sources and --forks cannot be used together"),
        ("repos ../a", "invalid login '../a'"),
        ("followers a b", "unexpected argument 'b'"), ("following a --limit 0", "invalid value '0' for '--limit'"),
        ("search", "search needs a QUERY"), ("search x --sort stars", "invalid value 'stars' for '--sort'"),
        ("search x --order up", "invalid value 'up' for '--order'"), ("rate-limit now", "unexpected argument 'now'"),
        ("show --id 0", "invalid value '0' for '--id'"), ("show --id x", "invalid value 'x' for '--id'"),
        ("show octocat --id 1", "give either LOGINs or --id, not both"),
        // `- -` is no mix of LOGINs and - (helper-287: it said "not both").
        ("show - -", "give - once: stdin is read once"), ("show octocat -", "give LOGINs or -, not both"),
    ])
    func usageErrors(arguments: String, messageStart: String) throws {
        guard case .usageError(let error) = route(arguments) else {
            Issue.record("expected a usage error for \(arguments)")
            return
        }
        #expect(error.message.hasPrefix(messageStart), "got: \(error.message)")
    }

    @Test func everyCommandHasHelpWithExamples() {
        for command in CommandCatalog.specs {
            guard let text = route("\(command.name) --help").helpText else {
                Issue.record("no help for \(command.name)")
                continue
            }
            #expect(text.contains("USAGE"), "\(command.name)")
            #expect(text.contains("EXAMPLES"), "\(command.name)")
            #expect(route("help \(command.name)").helpText == text)
        }
    }
}
