import Foundation
import Testing

/// `Scripts/install.sh --check`: where it looks for libcurl's headers, and what it would run to get them.
struct InstallScriptEndToEndTests {
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/install.sh").path
    /// The toolchain's folder, which the script's toolchain check needs on PATH.
    private static let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/bin"

    private func check(headers: [String], environment: [String: String] = [:], prefix: String = "")
        async throws -> RunResult
    {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("include-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for header in headers {
            let url = root.appendingPathComponent(header)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: url.path, contents: Data())
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var environment = environment
        environment["CURL_INCLUDE_ROOT"] = root.path
        environment["PATH"] = Self.path
        return try await BinaryRunner.shell(#"\#(prefix) bash "\#(Self.script)" --check"#, environment: environment)
    }

    /// `--uninstall` removes what an install put under the prefix, and nothing else beside it.
    @Test func uninstallRemovesWhatTheInstallPutThereAndNothingElse() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let environment = ["DESTDIR": root.path, "PREFIX": "/usr", "PATH": Self.path]
        let installed = try await BinaryRunner.shell(
            #"bash "\#(Self.script)" --binary="\#(BinaryRunner.binary.path)""#, environment: environment)
        #expect(installed.status == 0, "\(installed.stderr)")
        let usr = root.appendingPathComponent("usr")
        let pages = usr.appendingPathComponent("share/man/man1")
        let manPages = try FileManager.default.contentsOfDirectory(atPath: pages.path)
        #expect(manPages.contains("gh-users.1") && manPages.contains("gh-users-show.1"), "\(manPages)")
        // Another package's pages and binary beside them stay, a page named like gh-users's among them.
        let foreign = Data(".TH \"GH-USERS-OTHER\" \"1\" \"2026\" \"other 1.0\" \"Other Manual\"\n".utf8)
        _ = FileManager.default.createFile(atPath: pages.appendingPathComponent("gh.1").path, contents: Data())
        _ = FileManager.default.createFile(
            atPath: pages.appendingPathComponent("gh-users-other.1").path, contents: foreign)
        _ = FileManager.default.createFile(atPath: usr.appendingPathComponent("bin/gh").path, contents: Data())
        // --check says what it would remove, and removes nothing.
        let checked = try await BinaryRunner.shell(
            #"bash "\#(Self.script)" --uninstall --check"#, environment: environment)
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stderr.hasPrefix("Would remove \(manPages.count + 4) files of gh-users"), "\(checked.stderr)")
        #expect(FileManager.default.fileExists(atPath: usr.appendingPathComponent("bin/gh-users").path))
        let removed = try await BinaryRunner.shell(#"bash "\#(Self.script)" --uninstall"#, environment: environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stderr.hasPrefix("Removed \(manPages.count + 4) files of gh-users"), "\(removed.stderr)")
        let left = FileManager.default.enumerator(atPath: usr.path)?.compactMap { $0 as? String }.filter { path in
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: usr.appendingPathComponent(path).path, isDirectory: &folder)
                && !folder.boolValue
        }
        #expect(
            left?.sorted() == ["bin/gh", "share/man/man1/gh-users-other.1", "share/man/man1/gh.1"], "\(left ?? [])")
    }

    /// A user who cannot write under PREFIX is told so by --check and before any build, with what to do
    /// (helper-307: --check said "Ready", then the install built and failed in install -d on /usr/local).
    @Test(.asAnotherUser)
    func aPrefixTheUserCannotWriteIsRefusedBeforeAnything() async throws {
        let environment = ["PREFIX": "/usr/local/gh-users-not-there", "PATH": Self.path]
        for flags in ["--check", ""] {
            let run = try await BinaryRunner.shell(
                #"\#(AnotherUser.prefix) bash "\#(Self.script)" --binary="\#(BinaryRunner.binary.path)" \#(flags)"#,
                environment: environment)
            #expect(run.status == 1, "\(flags): \(run.stderr)")
            #expect(
                run.stderr == "error: cannot install into /usr/local/gh-users-not-there: /usr/local is not a folder "
                    + "nobody can write to; run it as root (sudo), or give PREFIX=$HOME/.local\n", "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/usr/local/gh-users-not-there"))
    }

    /// Debian and Ubuntu keep the headers only under the multiarch folder: that is enough, and nothing is run.
    @Test(arguments: ["x86_64-linux-gnu/curl/curl.h", "aarch64-linux-gnu/curl/curl.h", "curl/curl.h"])
    func headersInEitherPlaceAreFound(header: String) async throws {
        let result = try await check(headers: [header], environment: ["NO_APT": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Ready: swift build -c release --product gh-users --static-swift-stdlib"))
        #expect(!result.stderr.contains("missing"))
    }

    @Test func missingHeadersWithNoAptSayWhatToInstall() async throws {
        let result = try await check(headers: [], environment: ["NO_APT": "1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("libcurl4-openssl-dev"))
        #expect(!result.stderr.contains("Running:"))
    }

    /// A stand-in `apt-get` first on PATH: `-s` prints `plan` as apt's simulation does (its `Inst` lines), and
    /// a real install logs its arguments to `apt.log`, prints apt's chatter on stdout and makes the header. A
    /// stand-in `swift` stops the script right after, so no test builds anything.
    private func withFakeApt(plan: [String], arguments: String, prefix: String = "")
        async throws -> (result: RunResult, log: String)
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bin = folder.appendingPathComponent("bin")
        let include = folder.appendingPathComponent("include")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: include, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("apt.log")
        let aptGet = """
            #!/bin/bash
            case " $* " in
            *" -s "*) echo 'Reading package lists...'; printf '%s\\n' \(plan.map { "'\($0)'" }.joined(separator: " ")) ;;
            *) echo "$*" >>'\(log.path)'; echo 'Setting up libcurl4-openssl-dev'
               mkdir -p '\(include.path)/curl'; touch '\(include.path)/curl/curl.h' ;;
            esac
            """
        let swift = "#!/bin/bash\necho \"swift stand-in: $*\" >&2\nexit 7\n"
        for (name, text) in [("apt-get", aptGet), ("swift", swift)] {
            let url = bin.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        let result = try await BinaryRunner.shell(
            #"\#(prefix) bash "\#(Self.script)" \#(arguments) < /dev/null"#,
            environment: ["CURL_INCLUDE_ROOT": include.path, "PATH": bin.path + ":" + Self.path])
        return (result, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    private static let newOnly = ["Inst libcurl4-openssl-dev (7.88.1-10+deb12u15 Debian:12.15/oldstable [amd64])"]

    @Test(.enabled(if: getuid() == 0, "only root can check what root would run: skipped"))
    func rootIsToldTheCommandBeforeItRuns() async throws {
        let (result, log) = try await withFakeApt(plan: Self.newOnly, arguments: "--check")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("It will install: libcurl4-openssl-dev 7.88.1-10+deb12u15"))
        #expect(result.stderr.contains("Would run: apt-get install --no-upgrade -y libcurl4-openssl-dev"))
        #expect(log.isEmpty)
    }

    /// A real 2026 case: the development files apt offers belong to a newer libcurl, so installing them
    /// would upgrade curl and three libcurl packages. The script names them and installs nothing.
    @Test(.enabled(if: getuid() == 0, "only root runs apt-get without sudo: skipped"))
    func anInstallThatWouldUpgradeIsRefused() async throws {
        let plan =
            [
                "Inst curl [7.88.1-10+deb12u14] (7.88.1-10+deb12u15 Debian:12.15/oldstable [amd64]) []",
                "Inst libcurl4 [7.88.1-10+deb12u14] (7.88.1-10+deb12u15 Debian:12.15/oldstable [amd64])",
            ] + Self.newOnly
        let (result, log) = try await withFakeApt(plan: plan, arguments: "--yes")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("would upgrade packages that are installed"))
        #expect(result.stderr.contains("curl 7.88.1-10+deb12u14 → 7.88.1-10+deb12u15"))
        #expect(result.stderr.contains("libcurl4 7.88.1-10+deb12u14 → 7.88.1-10+deb12u15"))
        #expect(log.isEmpty, "apt-get ran: \(log)")
    }

    /// Root is asked too: without a terminal and without --yes nothing is installed.
    @Test(.enabled(if: getuid() == 0, "only root runs apt-get without sudo: skipped"))
    func withoutATerminalNothingIsInstalledUnasked() async throws {
        let (result, log) = try await withFakeApt(plan: Self.newOnly, arguments: "")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("run this script again with --yes"))
        #expect(log.isEmpty, "apt-get ran: \(log)")
    }

    /// With --yes it installs with --no-upgrade, and apt's output goes to stderr, never into stdout.
    @Test(.enabled(if: getuid() == 0, "only root runs apt-get without sudo: skipped"))
    func yesInstallsWithoutUpgradingAndKeepsStdoutClean() async throws {
        let (result, log) = try await withFakeApt(plan: Self.newOnly, arguments: "--yes")
        #expect(log == "install --no-upgrade -y libcurl4-openssl-dev\n")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("Setting up libcurl4-openssl-dev"))
        // The stand-in swift ends the run once the headers are there: the build is what comes next.
        #expect(result.stderr.contains("swift stand-in: build -c release --product gh-users --static-swift-stdlib"))
        #expect(result.status == 7)
    }

    /// Another user is never sent through sudo unasked: without a terminal the script stops and names the command.
    @Test(.asAnotherUser)
    func anotherUserWithoutATerminalIsToldWhatToRun() async throws {
        // A PREFIX it may write under (/tmp's), which the script checks first; it is never made.
        let (result, log) = try await withFakeApt(
            plan: Self.newOnly, arguments: "--prefix=/tmp/gh-users-prefix-\(UUID().uuidString)",
            prefix: AnotherUser.prefix)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("'sudo apt-get install --no-upgrade -y libcurl4-openssl-dev'"))
        #expect(!result.stderr.contains("Running:"))
        #expect(log.isEmpty, "apt-get ran: \(log)")
    }
}
