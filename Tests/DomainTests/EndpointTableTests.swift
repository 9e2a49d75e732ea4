import Foundation
import JSONBytes
import Testing

@testable import Domain

/// One operation as GitHub documents it, in the documented list or in the project's supplement.
private struct DocumentedOperation: Decodable {
    struct Parameter: Decodable {
        let name: String?
        let `in`: String?
        let component: String?
        let notRead: Bool?

        enum CodingKeys: String, CodingKey {
            case name
            case `in`
            case component
            case notRead = "not_read"
        }
    }

    let operationId: String
    let method: String
    let path: String
    let docs: String?
    let parameters: [Parameter]?
    /// Where the supplement's entry was checked; the documented list has none.
    let source: String?
    /// The documented list's example of each answer, by the reference copy's file name (`users-list.json`).
    let exampleFiles: [String: String]?

    enum CodingKeys: String, CodingKey {
        case operationId, method, path, docs, parameters, source
        case exampleFiles = "example_files"
    }
}

/// A query parameter of a documented operation whose definition the documented list names but did not read.
private struct SupplementParameter: Decodable {
    let operationId: String
    let component: String
    let name: String
    let `in`: String
    let docs: String
    let source: String
}

private struct SharedList: Decodable {
    let operations: [DocumentedOperation]
}

private struct Supplement: Decodable {
    let operations: [DocumentedOperation]
    let parameters: [SupplementParameter]
}

/// GitHub's own list of operations (`Tests/Documented/operations.json`, copied from GitHub's REST
/// description with its licence) and the project's supplement (`Tests/Recorded/operations.supplement.json`).
private enum OperationLists {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func shared() throws -> [DocumentedOperation] {
        let url = packageRoot.appendingPathComponent("Tests/Documented/operations.json")
        return try JSONDecoder().decode(SharedList.self, from: Data(contentsOf: url)).operations
    }

    /// The example a 200 answer's `default` gives written inline (`{"value": …}`) rather than as a component
    /// (`activity/get-stargazer-count-for-repo`'s `{"count": 42}`), as its exact bytes in the documented list.
    static func inlineExample(_ operation: DocumentedOperation) throws -> [UInt8]? {
        let url = packageRoot.appendingPathComponent("Tests/Documented/operations.json")
        let list = try Array(Data(contentsOf: url))
        let entry = JSONText.elements(at: ["operations"], in: list).first {
            JSONText.text(of: "operationId", in: $0) == operation.operationId
        }
        return entry.flatMap { JSONText.value(at: ["responses", "200", "examples", "default", "value"], in: $0) }
    }

    static func supplement() throws -> Supplement {
        let url = packageRoot.appendingPathComponent("Tests/Recorded/operations.supplement.json")
        return try JSONDecoder().decode(Supplement.self, from: Data(contentsOf: url))
    }
}

/// Issue 21, item 1: the endpoint table is the client's and the stand-in's single source of truth, so each row
/// is pinned to GitHub's documentation rather than to either of them.
struct EndpointTableTests {
    /// The operation a row names, from the documented list or else the supplement.
    private func documented(_ row: Endpoint) throws -> DocumentedOperation {
        let shared = try OperationLists.shared()
        let supplement = try OperationLists.supplement()
        let found = try #require(
            (shared + supplement.operations).first { $0.operationId == row.operationID },
            "\(row.operationID) (\(row)) is in neither GitHub's list nor operations.supplement.json")
        return found
    }

    @Test(arguments: Endpoint.all)
    func everyRowIsTheOperationGitHubDocuments(_ row: Endpoint) throws {
        let operation = try documented(row)
        #expect(operation.method == row.method.rawValue)
        #expect(operation.path == row.path)
        #expect(operation.docs == row.docs)
        let pathParameters = (operation.parameters ?? []).filter { $0.in == "path" }.compactMap(\.name)
        #expect(pathParameters == row.parameters)
    }

    @Test(arguments: Endpoint.all)
    func everyQueryKeyARowMaySendIsOneGitHubDocuments(_ row: Endpoint) throws {
        let operation = try documented(row)
        let supplement = try OperationLists.supplement()
        let read = (operation.parameters ?? []).filter { $0.in == "query" }.compactMap(\.name)
        let added = supplement.parameters.filter { $0.operationId == row.operationID && $0.in == "query" }.map(\.name)
        let documented = Set(read + added)
        for key in row.query + ["per_page", "page"] where row.accepts(queryKey: key) {
            #expect(documented.contains(key), "\(row) may send '\(key)', which GitHub does not document for it")
        }
    }

    @Test func theSupplementAddsOnlyWhatGitHubsListLacksAndEveryEntryIsUsed() throws {
        let shared = try OperationLists.shared()
        let supplement = try OperationLists.supplement()
        let rows = Dictionary(uniqueKeysWithValues: Endpoint.all.map { ($0.operationID, $0) })
        for entry in supplement.operations {
            #expect(
                !shared.contains { $0.operationId == entry.operationId }, "\(entry.operationId) is in GitHub's list")
            #expect(
                !shared.contains { $0.method == entry.method && $0.path == entry.path },
                "\(entry.method) \(entry.path) is in GitHub's list")
            #expect(rows[entry.operationId] != nil, "no row uses \(entry.operationId)")
            #expect(entry.docs?.hasPrefix("https://docs.github.com/") == true, "\(entry.operationId)")
            #expect(entry.source?.isEmpty == false, "\(entry.operationId) names no source")
        }
        for entry in supplement.parameters {
            let operation = try #require(
                shared.first { $0.operationId == entry.operationId },
                "a parameter for \(entry.operationId), which GitHub's list lacks: add the operation instead")
            let parameters = operation.parameters ?? []
            #expect(
                parameters.contains { $0.component == entry.component && $0.notRead == true },
                "GitHub's list reads \(entry.component) of \(entry.operationId) already, or does not name it")
            #expect(!parameters.contains { $0.name == entry.name }, "\(entry.name) is in GitHub's list")
            #expect(rows[entry.operationId]?.query.contains(entry.name) == true, "no row sends \(entry.name)")
            #expect(entry.docs == operation.docs)
            #expect(!entry.source.isEmpty)
        }
    }

    /// A body the stand-in and the command tests answer with, named after a documented operation and not listed
    /// in the bodies' NOTICE.md, is that operation's documented example: the body of the example the documented
    /// list names, byte for byte (`orgs/list-public-members` answers with `simple-user-items`, `users-list.json`),
    /// or the example the list writes inline, laid out as the bodies are (two spaces a level, a newline at the
    /// end: `activity-get-stargazer-count-for-repo.json` is `{"count": 42}`). So a new list's documented body
    /// needs no line in NOTICE.md, and no other body can pass for one.
    @Test func aBodyNoticeDoesNotListIsTheOperationsDocumentedExample() throws {
        let bodies = OperationLists.packageRoot.appendingPathComponent("Sources/GitHubStandIn/Bodies")
        let notice = try String(contentsOf: bodies.appendingPathComponent("NOTICE.md"), encoding: .utf8)
        for operation in try OperationLists.shared() {
            let name = operation.operationId.replacing("/", with: "-") + ".json"
            guard let body = FileManager.default.contents(atPath: bodies.appendingPathComponent(name).path),
                !notice.contains("`\(name)`")
            else { continue }
            if operation.exampleFiles?["default"] == nil, let inline = try OperationLists.inlineExample(operation) {
                var laidOut: [UInt8] = []
                JSONText.pretty(inline, into: &laidOut)
                #expect(body == Data(laidOut + [10]), "\(name) is not in NOTICE.md, and differs from GitHub's example")
                continue
            }
            let example = try #require(
                operation.exampleFiles?["default"], "\(name) is not in NOTICE.md, and GitHub documents no example")
            let documented = try #require(
                FileManager.default.contents(atPath: bodies.appendingPathComponent(example).path),
                "\(name) is not in NOTICE.md, and the example it would be (\(example)) is no body")
            #expect(body == documented, "\(name) is not in NOTICE.md, and differs from \(example)")
        }
    }

    @Test func everyRowIsListedOnceAndNamesOneOperation() {
        #expect(Set(Endpoint.all.map(\.operationID)).count == Endpoint.all.count)
        #expect(Set(Endpoint.all.map(\.description)).count == Endpoint.all.count)
    }

    @Test func aPathsPlaceholdersAreItsParametersInOrder() {
        #expect(Endpoint.checkFollowing.parameters == ["username", "target_user"])
        #expect(Endpoint.userByID.parameters == ["account_id"])
        #expect(Endpoint.listUsers.parameters.isEmpty)
    }

    @Test func aPathIsItsTemplateWithEachPlaceholderFilledInOrder() {
        #expect(Endpoint.checkFollowing.path("mona", "hubot") == "/users/mona/following/hubot")
        #expect(Endpoint.publicEvents.path("mona%2E") == "/users/mona%2E/events/public")
        #expect(Endpoint.rateLimitStatus.path() == "/rate_limit")
        #expect(Endpoint.follow.path(["octo cat"]) == "/user/following/octo cat")
    }

    @Test func aListTakesItsPageSizeAndOnlyThePagingItDocuments() {
        #expect(Endpoint.followers.accepts(queryKey: "per_page") && Endpoint.followers.accepts(queryKey: "page"))
        #expect(Endpoint.listUsers.accepts(queryKey: "since") && !Endpoint.listUsers.accepts(queryKey: "page"))
        #expect(!Endpoint.user.accepts(queryKey: "per_page"))
        #expect(!Endpoint.keys.accepts(queryKey: "sort"))
        #expect(Endpoint.publicEvents.itemCap == 300 && Endpoint.searchUsers.itemCap == 1000)
        #expect(Endpoint.followers.itemCap == nil)
    }
}
