import Foundation
import Testing

/// docs/HIGH_LEVEL_DESIGN.md describes the code as it is: its target tree names every target, every folder of the executable and every command folder
/// and only folders that exist, and its checklists for a new command name only files that exist.
struct DesignDocTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func document() throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/HIGH_LEVEL_DESIGN.md"), encoding: .utf8)
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    private static func subfolders(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(path).path).sorted()
            .filter { isFolder(path + $0 + "/") }
    }

    /// The text of a section, from its heading to the next heading of its level or above.
    static func section(_ heading: String, of document: String) throws -> String {
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == heading }, "no '\(heading)' in the design document")
        let level = heading.prefix { $0 == "#" }.count
        let end =
            lines[(start + 1)...].firstIndex { line in
                let marks = line.prefix { $0 == "#" }.count
                return marks > 0 && marks <= level && line.dropFirst(marks).hasPrefix(" ")
            } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    /// The folders the first code block of `## Targets` names: a word ending in `/` that starts with `Sources/` or
    /// `Tests/` is a target's folder; any other is under the target folder named last.
    static func namedFolders(in document: String) throws -> [String] {
        let targets = try section("## Targets", of: document)
        let block = try #require(targets.components(separatedBy: "```").dropFirst().first, "no target tree")
        var base = ""
        var folders: [String] = []
        for word in block.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let trimmed = word.trimmingCharacters(in: CharacterSet(charactersIn: ",:;()"))
            let isPath =
                trimmed.hasSuffix("/") && trimmed.first?.isLetter == true
                && trimmed.allSatisfy { $0.isLetter || $0.isNumber || "/-_".contains($0) }
            guard isPath else { continue }
            if trimmed.hasPrefix("Sources/") || trimmed.hasPrefix("Tests/") {
                base = trimmed
                folders.append(trimmed)
            } else {
                folders.append(base + trimmed)
            }
        }
        return folders
    }

    /// The repository paths the checklists name in backticks: a word with a `/` or a file name's extension.
    static func checklistPaths(in document: String) throws -> [String] {
        try ["### Adding a list command", "### Adding a write command"].flatMap { heading in
            let fenced = try section(heading, of: document).components(separatedBy: "```")
            let prose = fenced.enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            let spans = prose.replacingOccurrences(of: "\n", with: " ").components(separatedBy: "`").enumerated().filter
            { $0.offset % 2 == 1 }.map(\.element)
            return spans.filter { span in
                !span.contains(" ") && !span.hasPrefix("/") && !span.hasPrefix("-")
                    && (span.contains("/") || [".swift", ".json", ".md"].contains { span.hasSuffix($0) })
            }
        }
    }

    @Test func everyFolderTheTargetTreeNamesExists() throws {
        let folders = try Self.namedFolders(in: Self.document())
        #expect(folders.count > 20)
        for folder in folders {
            #expect(Self.isFolder(folder), "the target tree names \(folder), which does not exist")
        }
    }

    @Test func theTargetTreeNamesEveryTargetAndEveryCommandFolder() throws {
        let named = Set(try Self.namedFolders(in: Self.document()))
        var expected = try Self.subfolders("Sources/").map { "Sources/\($0)/" }
        expected += ["Tests/TestSupport/", "Tests/TestProcessSetup/"]
        for folder in ["Sources/gh-users/", "Sources/gh-users/Commands/"] {
            expected += try Self.subfolders(folder).map { folder + $0 + "/" }
        }
        #expect(expected.count > 20)
        for folder in expected {
            #expect(named.contains(folder), "the target tree in docs/HIGH_LEVEL_DESIGN.md does not name \(folder)")
        }
    }

    @Test func everyPathTheChecklistsNameExists() throws {
        let paths = try Self.checklistPaths(in: Self.document())
        #expect(paths.count > 20)
        for path in paths {
            #expect(
                FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path),
                "a checklist in docs/HIGH_LEVEL_DESIGN.md names \(path), which does not exist")
        }
    }
}
