import Foundation
import GitHubStandIn
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the end-to-end suites of the commands and of the local settings share: a stand-in for each test, the
/// option that points the binary at it, reading the output back, every record of a list under an account, and a
/// scratch folder.
protocol EndToEndSuite {
    /// How many accounts each test's stand-in serves unless the test asks for another number.
    var accounts: Int { get }
}

extension EndToEndSuite {
    /// Runs `body` against a stand-in started for it on 127.0.0.1 (port 0), stopped when it returns.
    func withServer<T>(
        users: Int? = nil,
        searchRateLimit: Int = 30,
        searchWindowSeconds: Int = 60,
        _ body: (StandInServer) async throws -> T
    ) async throws -> T {
        let server = try StandInServer(
            configuration: StandInConfiguration(
                userCount: users ?? accounts, searchRateLimit: searchRateLimit,
                searchWindowSeconds: searchWindowSeconds))
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }

    func api(_ server: StandInServer) -> [String] { ["--api-url", server.baseURL] }

    func column(_ tsv: String, _ index: Int = 0) -> [String] {
        tsv.lines().map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[index]) }
    }

    func ids(_ ndjson: String) throws -> [Int] {
        try ndjson.lines().map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["id"] as? Int)
        }
    }

    func user(_ server: StandInServer, _ login: String) throws -> StandInUser {
        try #require(server.population.user(login: login))
    }

    /// `--all --format ndjson` is GitHub's objects byte for byte, in order, paged 100 at a time.
    func expectEveryRecord(
        _ command: [String], _ expected: [String], server: StandInServer,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let result = try await BinaryRunner.run(command + ["--all", "--format", "ndjson"] + api(server))
        #expect(result.status == 0, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stdout.lines().map(String.init)
        #expect(lines.count == expected.count, "\(command)", sourceLocation: sourceLocation)
        #expect(lines == expected, "\(command)", sourceLocation: sourceLocation)
        #expect(
            server.requests.count == (expected.count + 99) / 100, "\(command): \(server.requests.map(\.target))",
            sourceLocation: sourceLocation)
    }

    func withFolder<T>(mode: Int? = nil, _ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gh-users-e2e-\(UUID().uuidString)")
        if let mode {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // After creation, so the umask cannot take the sticky or group bits away.
            #expect(chmod(folder.path, mode_t(mode)) == 0)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }
}

extension Trait where Self == ConditionTrait {
    /// For a test that runs the binary as `nobody` (`AnotherUser`): what root may do regardless of permissions,
    /// another user may not.
    static var asAnotherUser: Self {
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root and setpriv to run as another user: skipped")
    }
}

/// How a test runs a command as `nobody`, where `.asAnotherUser` lets it.
enum AnotherUser {
    /// Put before a command in a shell script.
    static let prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups"

    /// Makes `folder` and gives it to `nobody`; whether it could.
    static func give(_ folder: URL) throws -> Bool {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return chown(folder.path, 65_534, 65_534) == 0
    }
}
