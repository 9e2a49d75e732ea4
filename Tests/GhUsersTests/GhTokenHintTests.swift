import Domain
import Foundation
import Testing

@testable import gh_users

/// A missing token's message offers `gh auth token` when GitHub CLI is on PATH, found by looking, never by
/// running it.
struct GhTokenHintTests {
    /// A folder for PATH, holding a file named `gh` with the given permissions (none: no such file).
    private func folder(gh permissions: Int?) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("path-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let permissions {
            let gh = folder.appendingPathComponent("gh").path
            #expect(FileManager.default.createFile(atPath: gh, contents: Data("#!/bin/sh\nexit 1\n".utf8)))
            try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: gh)
        }
        return folder
    }

    private func meWithoutAToken(path: String, host: String? = nil) async -> (status: Int32, stderr: String) {
        var variables = ["PATH": path]
        variables["GH_HOST"] = host
        let (env, _, err) = AppEnvironment.test(environment: variables)
        let status = await GhUsersApp(environment: env).run(["me"])
        return (status, err.text)
    }

    @Test func anExecutableGhOnPathAddsTheHint() async throws {
        let empty = try folder(gh: nil)
        let withGh = try folder(gh: 0o755)
        defer {
            try? FileManager.default.removeItem(at: empty)
            try? FileManager.default.removeItem(at: withGh)
        }
        let (status, stderr) = await meWithoutAToken(path: "\(empty.path)::\(withGh.path)")
        #expect(status == 4)
        #expect(
            stderr == "gh-users: me needs a token: set GH_TOKEN or GITHUB_TOKEN, or give --token-file PATH\n"
                + "Logged in with gh? Then: export GH_TOKEN=$(gh auth token)\n")
    }

    /// A GitHub Enterprise host reads the enterprise variables alone, as gh does, so the message names them, and
    /// gh's hint asks for its token for that host.
    @Test func anEnterpriseHostNamesItsOwnVariables() async throws {
        let (status, stderr) = await meWithoutAToken(path: "", host: "ghe.example.com")
        #expect(status == 4)
        #expect(
            stderr == "gh-users: me needs a token: set GH_ENTERPRISE_TOKEN or GITHUB_ENTERPRISE_TOKEN, or give "
                + "--token-file PATH\n")
        let withGh = try folder(gh: 0o755)
        defer { try? FileManager.default.removeItem(at: withGh) }
        let hinted = await meWithoutAToken(path: withGh.path, host: "ghe.example.com")
        #expect(
            hinted.stderr.hasSuffix("Then: export GH_ENTERPRISE_TOKEN=$(gh auth token --hostname ghe.example.com)\n"))
    }

    /// A github.com token is never sent to a GitHub Enterprise host (`GH_HOST` exported for gh): the run goes on
    /// without it, and says so.
    @Test func aGitHubDotComTokenIsNotSentToAnEnterpriseHost() async {
        let (env, _, err) = AppEnvironment.test(environment: [
            "PATH": "", "GH_HOST": "ghe.example.com", "GH_TOKEN": "g",
        ])
        #expect(await GhUsersApp(environment: env).run(["me"]) == 4)
        #expect(
            err.text.hasPrefix(
                "gh-users: warning: GH_TOKEN is a github.com token, and is not sent to ghe.example.com (a GitHub "
                    + "Enterprise host); set GH_ENTERPRISE_TOKEN for it, as gh reads it\n"), "\(err.text)")
    }

    /// The other way round: an enterprise token with no GH_HOST (gh reads it only with one) is not sent to
    /// github.com, and the run says so (before: silently anonymous, showing github.com's account of that login).
    @Test(arguments: ["GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"])
    func anEnterpriseTokenWithoutGHHostIsNotSentToGitHubDotCom(variable: String) async {
        let (env, _, err) = AppEnvironment.test(environment: ["PATH": "", variable: "e"])
        #expect(await GhUsersApp(environment: env).run(["me"]) == 4)
        #expect(
            err.text.hasPrefix(
                "gh-users: warning: \(variable) is a GitHub Enterprise token, and is not sent to api.github.com; set "
                    + "GH_HOST to its host, as gh reads it\n"), "\(err.text)")
        let (both, _, quiet) = AppEnvironment.test(environment: ["PATH": "", variable: "e", "GH_TOKEN": "g"])
        _ = await GhUsersApp(environment: both).run(["me", "--offline"])
        #expect(!quiet.text.contains("warning"), "\(quiet.text)")
    }

    /// A ghe.com host (GitHub Enterprise Cloud with data residency) takes GH_TOKEN, as gh reads it: an
    /// enterprise token alone is not sent, and the run says which it takes (before: silently anonymous).
    @Test func anEnterpriseTokenIsNotSentToAGHEComHostAndTheRunSaysSo() async {
        let (env, _, err) = AppEnvironment.test(
            environment: ["PATH": "", "GH_HOST": "acme.ghe.com", "GH_ENTERPRISE_TOKEN": "e"])
        #expect(await GhUsersApp(environment: env).run(["me", "--offline"]) == 4)
        #expect(
            err.text.hasPrefix(
                "gh-users: warning: GH_ENTERPRISE_TOKEN is a GitHub Enterprise token, and is not sent to "
                    + "api.acme.ghe.com; that host takes GH_TOKEN or GITHUB_TOKEN, as gh reads them\n"), "\(err.text)")
        // Written with a final dot, it is the same host, with the same words.
        let (dotted, _, said) = AppEnvironment.test(environment: ["PATH": "", "GH_ENTERPRISE_TOKEN": "e"])
        _ = await GhUsersApp(environment: dotted).run(["me", "--offline", "--api-url", "https://api.acme.ghe.com./"])
        #expect(said.text.contains("that host takes GH_TOKEN or GITHUB_TOKEN"), "\(said.text)")
    }

    @Test func noGhOrOneThatCannotRunAddsNothing() async throws {
        let notExecutable = try folder(gh: 0o644)
        let ghFolder = try folder(gh: nil)
        try FileManager.default.createDirectory(
            at: ghFolder.appendingPathComponent("gh"), withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: notExecutable)
            try? FileManager.default.removeItem(at: ghFolder)
        }
        for path in ["\(notExecutable.path):\(ghFolder.path)", ""] {
            let (status, stderr) = await meWithoutAToken(path: path)
            #expect(status == 4)
            #expect(!stderr.contains("gh auth token"), "\(path)")
        }
    }

    @Test func aRefusedRequestWithoutATokenOffersItTooButNotWithOne() {
        let refused = DomainError.unauthorized(status: 401, message: "Requires authentication", problem: .unstated)
        let now = Date(timeIntervalSince1970: 0)
        let anonymous = ErrorPresenter(now: now, hasToken: false, ghOnPath: true).present(refused).message
        #expect(
            anonymous.hasSuffix(
                "This needs a token: set GH_TOKEN or GITHUB_TOKEN.\n" + ErrorPresenter.ghTokenHint + "\n"))
        let withToken = ErrorPresenter(now: now, hasToken: true, ghOnPath: true).present(refused).message
        #expect(!withToken.contains("gh auth token"))
    }

    @Test func helpEnvironmentSaysIt() throws {
        let text = try #require(HelpTopics.text("environment", width: 200))
        #expect(text.contains("export GH_TOKEN=$(gh auth token)"))
    }
}
