import Foundation
import TestSupport
import Testing

/// What a fresh clone holds: no path of one build machine, no build product, no file of the layers past the
/// design's size, and a changelog whose releases have dates.
struct RepositoryHygieneTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func trackedFiles() throws -> [URL] {
        let data = try SpawnedProcess.run("/usr/bin/git", ["-C", root.path, "ls-files"]).output
        return data.split(separator: "\n").map {
            root.appendingPathComponent(String($0))
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is not installed"))
    func noFileNamesAFolderOfOneBuildMachine() throws {
        // Spelled in pieces so that this file does not match itself.
        let machinePaths = ["/opt/" + "swift", "/work/" + "main", "/work/" + "shared", "/root/" + ".cache"]
        let files = try Self.trackedFiles()
        #expect(files.count > 50)
        for file in files {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for path in machinePaths where text.contains(path) {
                Issue.record("\(file.lastPathComponent) names \(path)")
            }
        }
    }

    /// What a build or a script run leaves behind is made anew on each machine, and can hold that machine's paths
    /// where the test above cannot read them (Python's compiled files name their source's full path).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is not installed"))
    func noBuildProductIsTracked() throws {
        let files = try Self.trackedFiles()
        #expect(files.count > 50)
        let root = Self.root.path + "/"
        for file in files {
            let path = file.path.hasPrefix(root) ? String(file.path.dropFirst(root.count)) : file.path
            let parts = path.split(separator: "/")
            if parts.contains("__pycache__") || parts.contains(".build") || parts.contains(".swiftpm")
                || [".pyc", ".o", ".swiftmodule"].contains(where: { path.hasSuffix($0) })
            {
                Issue.record("\(path) is a build product")
            }
        }
    }

    /// The design's limit (issues 40 and 41): no Swift file of the executable, Data or the stand-in over 400
    /// lines. OwnedFile.swift reached 401 unnoticed before this test.
    @Test(arguments: ["Sources/gh-users", "Sources/Data", "Sources/GitHubStandIn"])
    func noFileOfTheLayersPassesFourHundredLines(folder: String) throws {
        let base = Self.root.appendingPathComponent(folder)
        let files = try #require(FileManager.default.enumerator(atPath: base.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            #expect(lines <= 400, "\(folder)/\(file) is \(lines) lines")
        }
    }

    /// The project's rule: FoundationNetworking is the transport's alone, imported by one file of `Sources` (the
    /// transfer delegate had been split into a file of its own that imported it too).
    @Test func onlyTheTransportFileImportsFoundationNetworking() throws {
        let base = Self.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: base.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        let importing = try files.filter { file in
            try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
                .contains("import " + "FoundationNetworking")
        }
        #expect(importing == ["Networking/URLSessionTransport.swift"])
    }

    @Test func everyReleaseInTheChangelogHasADate() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let releases = text.split(separator: "\n").filter { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        #expect(!releases.isEmpty)
        for release in releases {
            #expect(release.wholeMatch(of: /## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}/) != nil, "\(release)")
        }
    }
}
