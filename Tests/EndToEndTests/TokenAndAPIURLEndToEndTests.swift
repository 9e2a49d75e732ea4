import Foundation
import GitHubStandIn
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tokens, token files and API URLs through the built binary: what cannot be used is a usage error that says
/// why, never a request. stdout, stderr and the exit status are checked separately. A token with a line break,
/// a port out of range and a loopback GH_HOST are `ConnectionSettingsCommandTests`'.
struct TokenAndAPIURLEndToEndTests: EndToEndSuite {
    let accounts = 400

    /// A token file its user may not read says so, before any request. `TokenFileReaderTests`' case of it is
    /// skipped as root, who reads any file (helper-293): here the binary runs as `nobody`.
    @Test(.asAnotherUser)
    func aTokenFileItsUserCannotReadSaysPermissionDenied() async throws {
        try await withServer { server in
            try await withFolder(mode: 0o755) { folder in
                let token = folder.appendingPathComponent("token")
                try Data("ghp_rootsToken42\n".utf8).write(to: token)
                #expect(chmod(token.path, 0o600) == 0)
                let show =
                    AnotherUser.prefix + #" "$GH_USERS" show octocat --api-url "$API" --token-file "$TOKEN" --no-cache"#
                let result = try await BinaryRunner.shell(
                    show, environment: ["API": server.baseURL, "TOKEN": token.path])
                #expect(result.status == 64)
                #expect(result.stdout.isEmpty)
                #expect(
                    result.stderr.hasPrefix("Error: cannot read the token file '\(token.path)': permission denied\n"),
                    "\(result.stderr)")
                #expect(server.requests.isEmpty)
            }
        }
    }

    @Test func aTokenFileWithANulIsRefusedByNameAndOneWithAByteOrderMarkWorks() async throws {
        try await withServer { server in
            try await withFolder(mode: 0o700) { folder in
                let bad = folder.appendingPathComponent("bad-token")
                try Data("ghp_secret\u{0}value".utf8).write(to: bad)
                let refused = try await BinaryRunner.run(
                    ["show", "octocat", "--api-url", server.baseURL, "--token-file", bad.path])
                #expect(refused.status == 64)
                #expect(refused.stdout.isEmpty)
                #expect(refused.stderr.hasPrefix("Error: the token file '\(bad.path)' holds a control character"))
                #expect(!refused.stderr.contains("ghp_secret"))
                #expect(server.requests.isEmpty)

                let marked = folder.appendingPathComponent("bom-token")
                try Data([0xEF, 0xBB, 0xBF] + Array("ghp_bomToken77\r\n".utf8)).write(to: marked)
                #expect(chmod(marked.path, 0o600) == 0)
                let used = try await BinaryRunner.run(
                    ["show", "octocat", "--api-url", server.baseURL, "--token-file", marked.path, "--no-cache"])
                #expect(used.status == 0)
                #expect(used.stderr.isEmpty)
                #expect(server.requests.first?.header("authorization") == "Bearer ghp_bomToken77")
            }
        }
    }

    /// Foundation's own traces of URLSession print every header, the token's too (a reviewer's run with
    /// `URLSessionDebugLibcurl=1`): gh-users turns them off, and `--debug` is its trace.
    @Test func foundationsOwnTracesNeverRun() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.run(
                ["show", "octocat", "--api-url", server.baseURL, "--no-cache"],
                environment: ["GH_TOKEN": "ghp_traceToken9", "URLSessionDebugLibcurl": "1", "URLSessionDebug": "1"])
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            #expect(server.requests.first?.header("authorization") == "Bearer ghp_traceToken9")
        }
    }

    /// A crash (FoundationNetworking's fatalError on some malformed answers) must leave no core file holding the
    /// token: whatever `ulimit -c` it starts with, the process allows none. It is caught waiting for logins on
    /// stdin, and its limits read from /proc.
    @Test func theProcessAllowsNoCoreFile() async throws {
        let result = try await BinaryRunner.shell(
            """
            ulimit -c unlimited
            folder=$(mktemp -d) && trap 'rm -rf "$folder"' EXIT && cd "$folder" && mkfifo logins
            "$GH_USERS" show - --api-url http://127.0.0.1:9 < logins > /dev/null 2>&1 &
            pid=$!
            exec 3> logins
            for i in $(seq 200); do grep -q '^Max core file size *0 *0 ' /proc/$pid/limits && break; sleep 0.05; done
            grep '^Max core file size' /proc/$pid/limits
            exec 3>&-
            wait $pid
            """, timeout: 30)
        #expect(
            result.stdout.split(whereSeparator: \.isWhitespace) == ["Max", "core", "file", "size", "0", "0", "bytes"])
    }

    @Test(arguments: [
        ("stdin", #"printf 'ghp_pipedToken1\n' | "$GH_USERS" show octocat --token-file /dev/stdin"#),
        ("process substitution", #""$GH_USERS" show octocat --token-file <(printf 'ghp_pipedToken1')"#),
        (
            "fifo",
            #"mkfifo -m 600 token.fifo && { printf 'ghp_pipedToken1\n' > token.fifo & } && "#
                + #""$GH_USERS" show octocat --token-file token.fifo"#
        ),
        // stdin a FIFO whose writer has gone, what it wrote still in it: reopening /dev/stdin waited for another
        // writer for ever (a review's find).
        (
            "fifo on stdin, its writer gone",
            #"folder=$(mktemp -d) && trap 'rm -rf "$folder"' EXIT && cd "$folder" && mkfifo -m 600 t.fifo && "#
                + #"{ printf 'ghp_pipedToken1\n' > t.fifo & } && "#
                + #"exec < t.fifo && wait && "$GH_USERS" show octocat --token-file /dev/stdin"#
        ),
    ])
    func aTokenFileThatIsAPipeIsRead(kind: String, script: String) async throws {
        try await withServer { server in
            let result = try await BinaryRunner.shell(
                script + " --no-cache --api-url \(server.baseURL)", timeout: 30)
            #expect(result.status == 0, "\(kind)")
            #expect(result.stdout.hasPrefix("octocat\t"))
            #expect(result.stderr.isEmpty)
            #expect(server.requests.first?.header("authorization") == "Bearer ghp_pipedToken1")
        }
    }

    @Test func aTokenFileThatCannotBeReadSaysWhy() async throws {
        try await withServer { server in
            let result = try await BinaryRunner.run(
                ["show", "octocat", "--api-url", server.baseURL, "--token-file", "/nonexistent/token"])
            #expect(result.status == 64)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "Error: cannot read the token file '/nonexistent/token': no such file or directory\n"
                    + "See 'gh-users --help'.\n")
            #expect(server.requests.isEmpty)
        }
    }

    @Test func anUppercaseSchemeWorks() async throws {
        try await withServer { server in
            let upper = server.baseURL.replacingOccurrences(of: "http://", with: "HTTP://")
            let result = try await BinaryRunner.run(
                ["show", "octocat", "--api-url", upper, "--no-cache"], environment: ["GH_TOKEN": "ghp_token1234"])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("octocat\t"))
            #expect(result.stderr.isEmpty)
            #expect(server.requests.first?.header("authorization") == "Bearer ghp_token1234")
        }
    }
}
