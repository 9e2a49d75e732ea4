import Foundation
import Testing

@testable import gh_users

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--token-file` from files, pipes and FIFOs, with the reason when it cannot be read.
struct TokenFileReaderTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-token-\(UUID().uuidString)").path
    }

    private func file(_ contents: [UInt8], mode: Int = 0o600) throws -> String {
        let path = temporaryPath()
        #expect(FileManager.default.createFile(atPath: path, contents: Data(contents)))
        #expect(chmod(path, mode_t(mode)) == 0)
        return path
    }

    private func message(_ path: String) -> String? {
        do {
            _ = try TokenFileReader.read(path)
            return nil
        } catch {
            return error.message
        }
    }

    /// A link another user made in a folder anyone may write to (sticky or not), to one of the runner's own files,
    /// is not followed: it would send that file to the API as a token; a token file another user made there is
    /// not read: it would sign the run in as them. The runner's own file there is read.
    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"), arguments: [0o1777, 0o777])
    func anotherUsersTokenFileOrLinkInASharedFolderIsRefused(mode: Int) throws {
        // In a folder of the runner's: another user's folder in /tmp is refused itself (`OwnedFileLinkTests`).
        let base = temporaryPath()
        let folder = base + "/shared"
        #expect(mkdir(base, 0o700) == 0 && mkdir(folder, 0o700) == 0)
        #expect(chmod(folder, mode_t(mode)) == 0 && chown(folder, 65_533, 65_533) == 0)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let secret = try file(Array("my-own-secret".utf8))
        defer { unlink(secret) }
        #expect(symlink(secret, folder + "/link") == 0 && lchown(folder + "/link", 65_534, 65_534) == 0)
        let link = message(folder + "/link") ?? ""
        #expect(link.contains("is reached through the symbolic link") && !link.contains("my-own-secret"), "\(link)")
        #expect(FileManager.default.createFile(atPath: folder + "/tok", contents: Data("their-token".utf8)))
        #expect(chmod(folder + "/tok", 0o600) == 0 && chown(folder + "/tok", 65_534, 65_534) == 0)
        #expect(message(folder + "/tok")?.contains("belongs to another user") == true)
        #expect(chown(folder + "/tok", geteuid(), getegid()) == 0)
        #expect(try TokenFileReader.read(folder + "/tok").contents == "their-token")
    }

    /// A link of the user's own to a pipe through /proc (`tok -> /dev/stdin`, here `/proc/self/fd/N`) is read
    /// as the pipe it leads to: since file options resolve such a link to the kernel's `pipe:[…]` link, it was
    /// taken for a link put in place of the file ("replaced by a link … another user's?": a review's find).
    @Test func aLinkOfOnesOwnToAPipeIsReadAsThePipe() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let token = Array("gho_throughalink\n".utf8)
        #expect(write(ends[1], token, token.count) == token.count)
        close(ends[1])
        let link = temporaryPath()
        #expect(symlink("/proc/self/fd/\(ends[0])", link) == 0)
        defer { unlink(link) }
        #expect(try TokenFileReader.read(link).contents == "gho_throughalink")
    }

    /// The same through a deleted file (zsh's `<<<` gives stdin so), whose /proc link reads "/tmp/x (deleted)":
    /// taken as a path, it named no file (helper-289).
    @Test func aLinkOfOnesOwnToADeletedFileIsReadAsTheFile() throws {
        let path = try file(Array("gho_deleted\n".utf8))
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0 && unlink(path) == 0)
        defer { close(descriptor) }
        let link = temporaryPath()
        #expect(symlink("/proc/self/fd/\(descriptor)", link) == 0)
        defer { unlink(link) }
        #expect(try TokenFileReader.read(link).contents == "gho_deleted")
    }

    /// A name swapped for a link between its resolution and its opening (a race another user can run in a folder
    /// anyone may write to) is refused: the file the link leads to is not read as the token, though it is the
    /// runner's own. Left as it was, the same resolution reads the file.
    @Test func aNameSwappedForALinkAfterItWasResolvedIsRefused() throws {
        let folder = temporaryPath()
        #expect(mkdir(folder, 0o700) == 0)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mine = folder + "/mine.tok"
        #expect(FileManager.default.createFile(atPath: mine, contents: Data("my-token".utf8)))
        #expect(FileManager.default.createFile(atPath: folder + "/secret", contents: Data("my-secret".utf8)))
        let resolved = OwnedFile.resolve(mine)
        #expect(rename(mine, folder + "/away") == 0 && symlink(folder + "/secret", mine) == 0)
        do {
            let token = try TokenFileReader.read(mine, name: "the token file", resolved: resolved)
            Issue.record("read \(token.contents)")
        } catch {
            #expect(error.message.contains("was replaced by a link while gh-users opened it"), "\(error.message)")
        }
        #expect(unlink(mine) == 0 && rename(folder + "/away", mine) == 0)
        #expect(try TokenFileReader.read(mine, name: "the token file", resolved: resolved).contents == "my-token")
    }

    /// A deleted file behind a descriptor (zsh's here-string on `/dev/stdin`, `exec 4<f; rm f`) is read: its
    /// `/proc/self/fd` link names no file (a review saw both refused as "replaced").
    @Test func aDeletedFileBehindADescriptorIsRead() throws {
        let path = try file(Array("tok-deleted".utf8))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        #expect(unlink(path) == 0)
        #expect(try TokenFileReader.read("/proc/self/fd/\(descriptor)").contents == "tok-deleted")
        #expect(try TokenFileReader.read("/dev/fd/\(descriptor)").contents == "tok-deleted")
    }

    @Test func aFileIsReadAsItsTokenAloneWithoutByteOrderMark() throws {
        let path = try file([0xEF, 0xBB, 0xBF] + Array("tok-1234\r\n".utf8))
        defer { unlink(path) }
        let token = try TokenFileReader.read(path)
        #expect(token == AppEnvironment.TokenFile(contents: "tok-1234", readableByOthers: false))
    }

    /// The token given where its file belongs (`--token-file ghp_…`, as gh's `--with-token` habit has it) is not
    /// repeated in the message: before, "cannot read the token file 'ghp_…'" put it on the screen and in any log.
    @Test(arguments: ["ghp_SECRETSECRET1234", "github_pat_11SECRET_x", "gho_SECRETSECRET1234"])
    func aTokenGivenAsThePathIsNotShown(token: String) throws {
        let said = try #require(message(token))
        #expect(said.hasPrefix("cannot read the token file given to --token-file (its name looks like a token"))
        #expect(!said.contains("SECRET"), "\(said)")
        // A path with a folder is a path, shown as given.
        #expect(message("/nonexistent/ghp_file")?.contains("'/nonexistent/ghp_file'") == true)
    }

    @Test(arguments: [(0o600, false), (0o640, true), (0o604, true), (0o400, false)])
    func aFileOthersCanReadIsSaidToBe(mode: Int, readable: Bool) throws {
        let path = try file(Array("tok-1234".utf8), mode: mode)
        defer { unlink(path) }
        #expect(try TokenFileReader.read(path).readableByOthers == readable)
    }

    @Test func anAnonymousPipeIsRead() throws {
        // What `--token-file /dev/stdin` and `--token-file <(pass show gh)` hand over: /dev/fd/N of a pipe.
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let text = Array("tok-from-pipe\n".utf8)
        #expect(write(ends[1], text, text.count) == text.count)
        close(ends[1])
        let token = try TokenFileReader.read("/dev/fd/\(ends[0])")
        #expect(token == AppEnvironment.TokenFile(contents: "tok-from-pipe", readableByOthers: false))
    }

    /// stdin is spent by a token file that is stdin's own pipe (`--token-file /dev/stdin`), so `-` has nothing
    /// left; a terminal is not (a person types the logins after the token's end of file), nor another file.
    @Test func onlyAPipeOrFileThatIsStdinIsSpentByTheToken() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        defer { close(ends[1]) }
        var piped = stat()
        try #require(fstat(ends[0], &piped) == 0)
        #expect(TokenFileReader.spends(ends[0], reading: piped))
        let path = try file(Array("tok".utf8))
        defer { unlink(path) }
        var other = stat()
        try #require(stat(path, &other) == 0)
        #expect(!TokenFileReader.spends(ends[0], reading: other))
        // A pseudo-terminal's master side is a terminal too (isatty), the one a test can open without one.
        let terminal = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(terminal >= 0 && isatty(terminal) == 1)
        defer { close(terminal) }
        var typed = stat()
        try #require(fstat(terminal, &typed) == 0)
        #expect(!TokenFileReader.spends(terminal, reading: typed))
    }

    /// A named FIFO of `mode` at a new path, and a thread that writes `tok-from-fifo` into it once it is opened.
    private func fifoWithToken(mode: mode_t) throws -> String {
        let path = temporaryPath()
        try #require(mkfifo(path, mode) == 0)
        try #require(chmod(path, mode) == 0)
        Thread {
            let descriptor = open(path, O_WRONLY)
            let text = Array("tok-from-fifo\n".utf8)
            _ = write(descriptor, text, text.count)
            close(descriptor)
        }.start()
        return path
    }

    @Test func aNamedFIFOIsRead() async throws {
        let path = try fifoWithToken(mode: 0o600)
        defer { unlink(path) }
        #expect(try TokenFileReader.read(path).contents == "tok-from-fifo")
    }

    @Test func whyAFileCannotBeReadIsSaid() throws {
        let missing = temporaryPath()
        #expect(message(missing) == "cannot read the token file '\(missing)': no such file or directory")
        let directory = FileManager.default.temporaryDirectory.path
        #expect(message(directory) == "cannot read the token file '\(directory)': is a directory")
        let plain = try file(Array("tok-1234".utf8))
        defer { unlink(plain) }
        #expect(message(plain + "/x") == "cannot read the token file '\(plain)/x': not a directory")
    }

    @Test(.enabled(if: geteuid() != 0, "root may read any file"))
    func aFileWithoutReadPermissionSaysSo() throws {
        let path = try file(Array("tok-1234".utf8), mode: 0o200)
        defer { unlink(path) }
        #expect(message(path) == "cannot read the token file '\(path)': permission denied")
    }

    @Test(arguments: [
        ("tok-1234\nX-Injected: 1\n", "holds a line break"), ("tok-1234\u{0}5678", "holds a control character"),
        ("tok-1234 5678", "holds more than one word"), (" \n", "is empty"),
        // A line of a .env file (helper-315: sent whole, and refused by GitHub with exit 4).
        ("GH_TOKEN=tok-1234\n", "holds a variable's assignment (NAME=…); it should hold the token alone"),
        // A crawl's state given as the token file was sent as the token (helper-341's M3).
        (#"{"version":1,"api_url":"https://api.github.com","since":1234}"#, "holds JSON, which no token is"),
        ("\"tok-1234\"\n", "holds the token in quotes"),
    ])
    func aFileThatCannotHoldATokenIsRefusedByName(contents: String, problem: String) throws {
        let path = try file(Array(contents.utf8))
        defer { unlink(path) }
        let text = try #require(message(path))
        #expect(text.hasPrefix("the token file '\(path)' \(problem)"))
        // The path aside: a random one held "1234" once ("…-312342ACE07B") and failed a run.
        #expect(!text.replacing(path, with: "").contains("1234"))
    }

    @Test func anEndlessFileIsRefusedWithoutReadingItAll() throws {
        #expect(
            message("/dev/zero") == "the token file '/dev/zero' is larger than 64 KiB; it should hold the token alone")
        // What is read stops one buffer past the limit (helper-331's mutation F1: 16 times it went unseen).
        let zero = open("/dev/zero", O_RDONLY)
        try #require(zero >= 0)
        defer { close(zero) }
        let read = try FileDescriptorIO.readAll(zero, limit: 10_000)
        #expect(read.count > 10_000 && read.count <= 10_000 + 4096)
    }
}

/// Edges of `--token-file` no test reached (mutation round 11).
extension TokenFileReaderTests {
    /// A relative path in a folder whose name starts like a token (`ghp_tokens/work`) is a path: the message
    /// names it, where a token alone is hidden (M11-48).
    @Test func aFolderNamedLikeATokenIsShownAsAPath() throws {
        let path = "ghp_tokens-\(UUID().uuidString)/work"
        #expect(message(path) == "cannot read the token file '\(path)': no such file or directory")
    }

    /// 64 KiB is the most a token file may hold, and a file of exactly that size is read (M11-49).
    @Test func aFileOfExactlySixtyFourKiBIsRead() throws {
        let token = Array("tok-1234".utf8)
        let path = try file(token + Array(repeating: 0x0A, count: TokenFileReader.limitBytes - token.count))
        defer { unlink(path) }
        #expect(try TokenFileReader.read(path).contents == "tok-1234")
        let larger = try file(token + Array(repeating: 0x0A, count: TokenFileReader.limitBytes + 1 - token.count))
        defer { unlink(larger) }
        #expect(message(larger) == "the token file '\(larger)' is larger than 64 KiB; it should hold the token alone")
    }

    /// A named FIFO keeps its mode, as a file does: one others may open is said to be readable by them
    /// (M11-52).
    @Test func aNamedFIFOOthersCanOpenIsSaidToBeReadable() async throws {
        let path = try fifoWithToken(mode: 0o644)
        defer { unlink(path) }
        let token = try TokenFileReader.read(path)
        #expect(token.contents == "tok-from-fifo")
        #expect(token.readableByOthers)
    }
}
