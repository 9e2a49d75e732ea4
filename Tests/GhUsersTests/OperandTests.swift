import Domain
import Testing

@testable import gh_users

/// A command that takes one ORG, OWNER/REPO, ORG/TEAM or LOGIN declares it in its spec, and the scanner checks it
/// before the options are read, so the command's `init` takes it as a value and the first error is the argument's.
struct OperandTests {
    /// The specs whose usage names exactly one required argument of those kinds, and the kind each should declare.
    private static let oneArgument: [(spec: CommandSpec, operand: Operand)] = CommandCatalog.allSpecs.compactMap {
        spec in
        let words = spec.usage.split(separator: " ")
        guard words.count > 2 else { return nil }
        let kinds: [Substring: Operand] = [
            "ORG": .login, "LOGIN": .login, "OWNER/REPO": .repository, "ORG/TEAM": .team,
        ]
        return kinds[words[2]].map { (spec, $0) }
    }

    private static func sample(_ operand: Operand) -> String {
        switch operand {
        case .login: "octocat"
        case .repository: "octocat/Hello-World"
        case .team: "github/justice-league"
        }
    }

    @Test func everyCommandOfOneArgumentDeclaresItsKind() {
        #expect(Self.oneArgument.count >= 20)
        for (spec, operand) in Self.oneArgument {
            #expect(spec.operand == operand, "\(spec.name)")
        }
        // And none declares one that its usage does not name.
        let declared = CommandCatalog.allSpecs.filter { $0.operand != nil }.map(\.name)
        #expect(declared.sorted() == Self.oneArgument.map(\.spec.name).sorted())
    }

    @Test func theScannerReadsTheArgumentAsItsKind() throws {
        for (spec, operand) in Self.oneArgument {
            let parsed = try ArgumentScanner.scan([Self.sample(operand)], spec: spec)
            switch (operand, parsed.operand) {
            case (.login, .login(let login)?): #expect(login.value == "octocat")
            case (.repository, .repository(let name)?): #expect(name.description == "octocat/Hello-World")
            case (.team, .team(let name)?): #expect(name.description == "github/justice-league")
            default: Issue.record("\(spec.name) read \(String(describing: parsed.operand))")
            }
        }
    }

    /// Missing, extra and malformed arguments are the scanner's usage errors, said before a bad option value;
    /// `--help` still wins over a missing argument.
    @Test func aMissingExtraOrBadArgumentIsTheFirstError() throws {
        for (spec, operand) in Self.oneArgument {
            #expect(throws: UsageError.self, "\(spec.name)") { try ArgumentScanner.scan([], spec: spec) }
            #expect(throws: UsageError.self, "\(spec.name)") {
                try ArgumentScanner.scan([Self.sample(operand), "extra"], spec: spec)
            }
            #expect(throws: UsageError.self, "\(spec.name)") { try ArgumentScanner.scan(["-bad-"], spec: spec) }
            #expect(try ArgumentScanner.scan(["--help"], spec: spec).has(CommandSpec.help), "\(spec.name)")
        }
        let route = CommandRouter().route(["members", "--limit", "0"])
        #expect(route == .usageError(UsageError(message: "members needs an ORG", command: MembersCommand.spec)))
    }
}
