import Foundation
import Testing

@testable import gh_users

/// The API origins remembered as speaking HTTP/1.1 between runs (issue 38: W2 over HTTP/1.1 queued its first
/// four requests on one connection every run).
struct HTTPVersionMemoryTests {
    /// A cache folder whose response store the cache has made (private, as it makes it).
    private func withFolder<T>(store: Bool = true, _ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("memory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        if store {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("gh-users-responses"), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        return try body(folder)
    }

    private func file(_ folder: URL) -> URL {
        folder.appendingPathComponent("gh-users-responses/http1-origins")
    }

    private func memory(_ folder: URL, _ root: String) throws -> HTTPVersionMemory {
        let url = try #require(URL(string: root))
        return try #require(HTTPVersionMemory(cache: CacheLocation(directory: folder, limitBytes: 1), apiRoot: url))
    }

    @Test func whatOneRunLearnsTheNextRemembersUntilItLearnsOtherwise() throws {
        try withFolder { folder in
            let github = try memory(folder, "https://api.github.com")
            let enterprise = try memory(folder, "https://GHE.example.com:8443/api/v3")
            #expect(!github.speaksHTTP1)
            github.record(speaksHTTP1: true)
            enterprise.record(speaksHTTP1: true)
            #expect(try memory(folder, "https://api.github.com/").speaksHTTP1)
            #expect(try memory(folder, "https://ghe.example.com:8443/api/v3").speaksHTTP1)
            #expect(!(try memory(folder, "https://ghe.example.com/api/v3").speaksHTTP1), "another port")
            github.record(speaksHTTP1: false)
            #expect(!github.speaksHTTP1)
            #expect(enterprise.speaksHTTP1)
            let text = try String(contentsOf: file(folder), encoding: .utf8)
            #expect(text == "https://ghe.example.com:8443\n")
        }
    }

    @Test func theFileStaysSmall() throws {
        try withFolder { folder in
            for index in 0..<40 { try memory(folder, "https://host\(index).example").record(speaksHTTP1: true) }
            let text = try String(contentsOf: file(folder), encoding: .utf8)
            #expect(text.split(separator: "\n").count == HTTPVersionMemory.maximumOrigins)
            #expect(try memory(folder, "https://host39.example").speaksHTTP1)
            #expect(!(try memory(folder, "https://host0.example").speaksHTTP1))
            // A file that is not ours (too large to be) is read as saying nothing.
            let big = String(repeating: "https://api.github.com:443\n", count: 1000)
            try big.write(to: file(folder), atomically: true, encoding: .utf8)
            #expect(!(try memory(folder, "https://api.github.com").speaksHTTP1))
        }
    }

    /// A FIFO where the file should be is never waited on: the run starts as if nothing were remembered.
    @Test func aFIFOInItsPlaceIsNotWaitedOn() throws {
        try withFolder { folder throws in
            #expect(mkfifo(file(folder).path, 0o600) == 0)
            #expect(!(try memory(folder, "https://api.github.com").speaksHTTP1))
        }
    }

    /// Nothing is written outside the response store, nor into one that is not as the cache makes it (private):
    /// a shared `--cache-dir` (`/tmp`) gets no file another user could have planted a link at.
    @Test func onlyTheCachesOwnPrivateFolderIsWrittenTo() throws {
        try withFolder(store: false) { folder in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try memory(folder, "https://api.github.com").record(speaksHTTP1: true)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
            let store = folder.appendingPathComponent("gh-users-responses")
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: false)
            #expect(chmod(store.path, 0o777) == 0)
            try memory(folder, "https://api.github.com").record(speaksHTTP1: true)
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.path).isEmpty)
            #expect(chmod(store.path, 0o700) == 0)
            try memory(folder, "https://api.github.com").record(speaksHTTP1: true)
            #expect(try memory(folder, "https://api.github.com").speaksHTTP1)
        }
    }

    /// Plain http is HTTP/1.1 anyway, and without a cache folder there is nowhere to keep it.
    @Test func onlyHTTPSWithACacheFolderIsRemembered() throws {
        let http = try #require(URL(string: "http://127.0.0.1:8080"))
        let https = try #require(URL(string: "https://api.github.com"))
        #expect(
            HTTPVersionMemory(
                cache: CacheLocation(directory: URL(fileURLWithPath: "/tmp"), limitBytes: 1), apiRoot: http) == nil)
        #expect(HTTPVersionMemory(cache: CacheLocation(directory: nil, limitBytes: 1), apiRoot: https) == nil)
    }
}
