import AtomicCore
import Domain
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads `--token-file PATH`: a regular file, or a pipe or FIFO such as `/dev/stdin` or `<(pass show gh)`.
/// FileManager cannot read those (it sizes the file first, and a pipe has no size), so this reads the
/// descriptor to its end. The text comes back as the token alone, or the error says what is wrong, naming
/// the file and never its contents.
enum TokenFileReader {
    /// Far more than any token; stops `--token-file /dev/zero` (or a stream that never ends) from filling memory.
    static let limitBytes = 64 * 1024

    static func read(_ path: String) throws(TokenFileError) -> AppEnvironment.TokenFile {
        // A token given where its file belongs (`--token-file ghp_…`, as for gh's `--with-token`) is not repeated
        // on the screen and into whatever log holds stderr.
        let name =
            looksLikeToken(path)
            ? "the token file given to --token-file (its name looks like a token itself, so it is not shown: give "
                + "the path of a file that holds the token, or the token in GH_TOKEN)"
            : "the token file \(TerminalSanitizer.quotedPath(path))"
        // A FIFO with no writer, or a pipe whose writer never closes it, blocks open(2) or read(2) for as long as
        // the other end pleases: a signal meanwhile must still stop the program.
        return try InterruptState.process.blocking { () throws(TokenFileError) in
            try read(path, name: name, resolved: OwnedFile.resolve(path))
        }
    }

    /// Whether `text` has the shape of a GitHub token: one of its prefixes (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`,
    /// `github_pat_`) and nothing a path usually holds (`/`).
    static func looksLikeToken(_ text: String) -> Bool {
        Login.tokenPrefixes.contains { text.hasPrefix($0) } && !text.contains("/")
    }

    /// Whether reading the file (`info`) to its end spent `input` (stdin): the same pipe or file. A terminal is not
    /// spent by the token's end of file: a person types the logins after it.
    static func spends(_ input: Int32, reading info: stat) -> Bool {
        var given = stat()
        return isatty(input) == 0 && fstat(input, &given) == 0 && given.st_dev == info.st_dev
            && given.st_ino == info.st_ino
    }

    /// `path` read, `resolved` being where its links lead (`OwnedFile.resolve`), found before it is opened.
    static func read(_ path: String, name: String, resolved: (target: String, untrustedLink: String?))
        throws(TokenFileError) -> AppEnvironment.TokenFile
    {
        // A link or a file another user made in a folder anyone may write to is no token of the runner's: it
        // would sign the run in as them, or send one of the runner's own files to the API as a token. Refused as
        // `--state` refuses them (`SharedFolder`).
        let (target, untrustedLink) = resolved
        // Not the signal pipe's read end, which waited for ever (helper-290).
        if let number = FileDescriptorIO.unopenedDescriptor(path, target) {
            throw TokenFileError(message: "cannot read \(name): " + FileDescriptorIO.notGiven(number, redirection: "<"))
        }
        if let link = untrustedLink {
            throw TokenFileError(
                message: OwnedFile.refusal(of: link, reaching: name, option: "--token-file").message)
        }
        // A system path (`/dev/stdin`, `<(…)`'s `/dev/fd/63`, `/proc/self/fd/0`) is opened as given: its links are
        // the kernel's, to this process's own descriptors, which may name no file (a pipe, zsh's deleted
        // here-string). Any other is opened by the name its links were resolved to, following none: a link put in
        // its place since is not followed (a review's race sent another file of the runner's as the token, 65
        // times in 300). O_NOCTTY: /dev/tty as a token file must not become the controlling terminal.
        // So is a link of the user's own to one (`tok -> /dev/stdin`), by the kernel's link it resolves to.
        let pathless = FileDescriptorIO.pathlessLinkText(target) != nil
        let system = pathless || ["/dev/", "/proc/"].contains { path.hasPrefix($0) }
        if !system, SharedFolder.refusesFIFO(at: target) {
            throw TokenFileError(message: SharedFolder.refusal(of: name, "--token-file").message)
        }
        // A system path opens without waiting: on a named FIFO whose writer has gone (`--token-file /dev/stdin <
        // fifo`) open(2) would wait for another one for ever, while what it wrote is still there to read. Reads
        // wait again once it is open.
        let descriptor = open(
            system && !pathless ? path : target,
            O_RDONLY | O_CLOEXEC | O_NOCTTY | (system ? O_NONBLOCK : O_NOFOLLOW))
        if system, descriptor >= 0 { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) }
        guard descriptor >= 0 else {
            let code = errno
            guard code == ELOOP, !system else { throw TokenFileError(message: "cannot read \(name): \(reason(code))") }
            throw TokenFileError(
                message: "\(name) was replaced by a link while gh-users opened it (another user's?): nothing was "
                    + "read. Give --token-file a file in a folder others cannot write to")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw TokenFileError(message: "cannot read \(name): \(reason(errno))")
        }
        guard SharedFolder.trusts(descriptor: descriptor, at: target, stillNamed: !system) else {
            throw TokenFileError(message: SharedFolder.refusal(of: name, "--token-file").message)
        }
        let kind = Int(info.st_mode) & Int(S_IFMT)
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptorIO.readAll(descriptor, limit: limitBytes)
        } catch {
            throw TokenFileError(message: "cannot read \(name): \(reason(error.code))")
        }
        guard bytes.count <= limitBytes else {
            throw TokenFileError(
                message: "\(name) is larger than \(limitBytes / 1024) KiB; it should hold the token alone")
        }
        let token = ConnectionSettings.tokenText(String(decoding: bytes, as: UTF8.self))
        guard !token.isEmpty else {
            throw TokenFileError(message: "\(name) is empty")
        }
        if let problem = ConnectionSettings.tokenProblem(token) {
            throw TokenFileError(message: "\(name) \(problem)")
        }
        // Only a file or a named FIFO keeps its mode; a terminal's or an anonymous pipe's says nothing about
        // who could read the token.
        let keepsMode = kind == Int(S_IFREG) || kind == Int(S_IFIFO)
        return AppEnvironment.TokenFile(
            contents: token, readableByOthers: keepsMode && Int(info.st_mode) & 0o077 != 0,
            isStandardInput: spends(STDIN_FILENO, reading: info))
    }

    private static func reason(_ code: Int32) -> String {
        FileDescriptorIO.reason(code)
    }
}
