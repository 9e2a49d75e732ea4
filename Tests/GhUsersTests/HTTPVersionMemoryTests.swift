import Foundation
import Testing

@testable import gh_users

/// The API origins remembered as speaking HTTP/1.1 between runs (issue 38: W2 over HTTP/1.1 queued its first
/// four requests on one connection every run).
struct HTTPVersionMemoryTests {
    private func withFolder<T>(_ body: (URL) throws -> T) rethrows -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("memory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
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
            let text = try String(contentsOf: folder.appendingPathComponent("http1-origins"), encoding: .utf8)
            #expect(text == "https://ghe.example.com:8443\n")
        }
    }

    @Test func theFileStaysSmall() throws {
        try withFolder { folder in
            for index in 0..<40 { try memory(folder, "https://host\(index).example").record(speaksHTTP1: true) }
            let text = try String(contentsOf: folder.appendingPathComponent("http1-origins"), encoding: .utf8)
            #expect(text.split(separator: "\n").count == HTTPVersionMemory.maximumOrigins)
            #expect(try memory(folder, "https://host39.example").speaksHTTP1)
            #expect(!(try memory(folder, "https://host0.example").speaksHTTP1))
            // A file that is not ours (too large to be) is read as saying nothing.
            let big = String(repeating: "https://api.github.com:443\n", count: 1000)
            try big.write(to: folder.appendingPathComponent("http1-origins"), atomically: true, encoding: .utf8)
            #expect(!(try memory(folder, "https://api.github.com").speaksHTTP1))
        }
    }

    /// A FIFO where the file should be is never waited on: the run starts as if nothing were remembered.
    @Test func aFIFOInItsPlaceIsNotWaitedOn() throws {
        try withFolder { folder in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            #expect(mkfifo(folder.appendingPathComponent("http1-origins").path, 0o600) == 0)
            #expect(!(try memory(folder, "https://api.github.com").speaksHTTP1))
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
