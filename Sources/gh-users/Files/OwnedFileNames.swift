import AtomicCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension OwnedFile {
    /// What is no regular file is refused as what it is before it is read or its lock made beside it
    /// (`/dev/null`'s lock in /dev said "permission denied").
    func checkRegular() throws(LocalFileError) {
        var info = stat()
        guard lstat(target, &info) == 0, info.st_mode & S_IFMT != S_IFLNK,
            let what = FileDescriptorIO.nonRegularKind(info.st_mode)
        else { return }
        throw LocalFileError(
            message: "cannot read the \(kind) \(shown): it is \(what), not a regular file. It was left as it is: "
                + "give \(option) a file")
    }

    /// A file with more than one name (hard links) is refused before it is read or locked: the lock is
    /// `FILE.lock` beside one name, so a run through another name takes another lock on the same file, and a
    /// replacement parts the names. Two runs on two links of one snapshot both reported the same changes (a
    /// review's find).
    func checkSingleName() throws(LocalFileError) {
        // `/dev/fd/3` where the shell gave no 3 is gh-users's own (its signal pipe), no file of the user's.
        if let number = FileDescriptorIO.unopenedDescriptor(path, target) {
            throw LocalFileError(message: "cannot read the \(kind) \(shown): " + FileDescriptorIO.notGiven(number))
        }
        var info = stat()
        // `/dev/stdout` to a pipe (`resolve` leaves `/proc/PID/fd/N` a link): no file to lock, read or replace.
        if let text = FileDescriptorIO.pathlessLinkText(target) {
            let what = text.hasPrefix("pipe:") ? "a pipe" : text.hasPrefix("socket:") ? "a socket" : "an open file"
            throw LocalFileError(
                message: "the \(kind) \(shown) is \(what) (\(TerminalSanitizer.sanitize(text))), not a regular file. "
                    + "Nothing was read or changed: give \(option) a file")
        }
        guard lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink > 1 else { return }
        throw LocalFileError(
            message: "the \(kind) \(shown) has \(info.st_nlink) names (hard links), and a run locks and replaces it "
                + "under one name only. Nothing was read or changed: keep one name (copy it with cp where you need "
                + "another), or give \(option) another file")
    }

    /// Which of this file's own names `output` is, in words ("the state file 'a' itself", "the lock file 'a.lock'
    /// of the state file 'a'"), when output written there would be lost: the file is replaced after every save,
    /// and its lock and temporary files are removed or renamed over it. The same file where both exist (device
    /// and inode, so hard links and symbolic links count), else the same path once links are followed. nil when
    /// `output` is none of them, or either is reached through a link `resolve` refuses (refused for that).
    func ownName(of output: String) -> String? {
        let (other, link) = Self.resolve(output)
        guard untrustedLink == nil, link == nil else { return nil }
        let names = [
            (target, "the \(kind) \(shown) itself"),
            (lockPath, "the lock file \(TerminalSanitizer.quotedPath(lockPath)) of the \(kind) \(shown)"),
            (
                temporaryPath,
                "the temporary file \(TerminalSanitizer.quotedPath(temporaryPath)) of the \(kind) \(shown)"
            ),
        ]
        var outputInfo = stat()
        let outputExists = stat(other, &outputInfo) == 0
        for (candidate, words) in names {
            var info = stat()
            if outputExists, stat(candidate, &info) == 0 {
                if info.st_dev == outputInfo.st_dev, info.st_ino == outputInfo.st_ino { return words }
            } else if candidate == other {
                return words
            }
        }
        return nil
    }

    /// The refusal of a run whose output (`--output FILE`, or stdout when `output` is nil and `stdoutFile` is a
    /// file) is one of this file's own names, before anything is locked, asked or written; nil when it is none.
    func outputRefusal(output: String?, stdoutFile: String?, command: CommandSpec?) -> CommandOutcome? {
        let (named, given) =
            output.map { ($0, "--output \(TerminalSanitizer.quotedPath($0))") } ?? (stdoutFile, "stdout")
        guard let named, let words = ownName(of: named) else { return nil }
        return .usage(
            UsageError(
                message: "\(given) is \(words): gh-users replaces that file, so what it wrote there would be lost. "
                    + "Nothing was read or written: write the output to another file",
                command: command))
    }
}
