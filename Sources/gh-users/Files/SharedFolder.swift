import AtomicCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Linux's rules for a sticky folder anyone may write to (`/tmp`): `protected_symlinks` follows a link there,
/// and `protected_regular` lets a file there that already exists be opened to write, only when it is the
/// runner's own or the folder owner's. gh-users applies the first itself, and the second to every file it
/// keeps there, read or written, whatever the machine's settings say: a state, snapshot, lock, output or token
/// file that another user made there first (a forged state skips accounts, a forged snapshot reports changes
/// that never happened, a world-readable output is read by its maker) is neither read nor written. In a folder
/// anyone may write to without the sticky bit, anyone may have replaced any file, so only the runner's own pass.
enum SharedFolder {
    /// Where a refused link or file is, and by which rule, for every refusal's words.
    static let linkRule =
        "which another user made in a folder anyone may write to: gh-users does not follow it, as Linux's "
        + "protected_symlinks does not in a sticky one such as /tmp"
    static let fileRule =
        "belongs to another user and is in a folder anyone may write to: gh-users neither reads nor writes it, as "
        + "Linux's protected_regular opens none to write in a sticky one such as /tmp"

    /// A folder on the way to a file, refused by the same rule.
    static let folderRule =
        "which another user made in a folder anyone may write to: gh-users does not go through it, as another "
        + "user's link there is not followed"

    /// A refused link or folder on the way, named with the rule that refuses it ("symbolic link 'x', which …").
    static func refused(_ path: String) -> String {
        let link = FileDescriptorIO.readLink(path) != nil
        return (link ? "symbolic link " : "folder ") + TerminalSanitizer.quotedPath(path) + ", "
            + (link ? linkRule : folderRule)
    }

    /// Whether the link or folder at `path`, whose `lstat` is `info`, passes that rule.
    static func trusts(_ info: stat, at path: String) -> Bool {
        passes(owner: info.st_uid, folderOf: path)
    }

    /// Whether the file open on `descriptor`, which was at `path`, passes that rule. Asked of the open file, not
    /// of the name before it is opened: another user could put a file there in between. `stillNamed`: a regular
    /// file must also be the one `path` leads to now, through links and folders the rule trusts, so that a
    /// folder on the way swapped for another user's link while it was opened is not used (a review's race).
    static func trusts(descriptor: Int32, at path: String, stillNamed: Bool = false) -> Bool {
        var own = stat()
        guard fstat(descriptor, &own) == 0 else { return true }
        guard passes(owner: own.st_uid, folderOf: path) else { return false }
        // A deleted file (zsh's here-string behind /dev/stdin) has no name to lead to.
        guard stillNamed, own.st_mode & S_IFMT == S_IFREG, own.st_nlink > 0 else { return true }
        // Another user's file, under a folder anyone may swap a folder in (no sticky bit): the folder it was
        // opened in may have been their link for that moment.
        if own.st_uid != geteuid(), own.st_uid != 0, swappable(above: OwnedFile.directory(of: path)) { return false }
        let (target, link) = OwnedFile.resolve(path)
        var named = stat()
        return link == nil && lstat(target, &named) == 0 && named.st_dev == own.st_dev && named.st_ino == own.st_ino
    }

    /// Whether `path` is a FIFO (named pipe) that fails the rule, asked before it is opened: open(2) would wait
    /// for its other end, for as long as the user who made it likes. (One swapped in after this is still refused
    /// once opened; it can hold the run until Ctrl-C, never be used.)
    static func refusesFIFO(at path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
            && !passes(owner: info.st_uid, folderOf: path)
    }

    private static func passes(owner: uid_t, folderOf path: String) -> Bool {
        var folder = stat()
        guard stat(OwnedFile.directory(of: path), &folder) == 0 else { return true }
        guard folder.st_mode & S_IWOTH != 0, owner != geteuid(), owner != 0 else { return true }
        return folder.st_mode & S_ISVTX != 0 && owner == folder.st_uid
    }

    /// Whether a folder above `folder` is one anyone may write to without the sticky bit.
    private static func swappable(above folder: String) -> Bool {
        var current = folder
        while current != "/", current != "." {
            current = OwnedFile.directory(of: current)
            var info = stat()
            if stat(current, &info) == 0, info.st_mode & S_IWOTH != 0, info.st_mode & S_ISVTX == 0 { return true }
        }
        return false
    }

    /// The refusal of `file`, which another user made in a shared folder; nothing was read or changed.
    static func refusal(of file: String, _ option: String) -> LocalFileError {
        LocalFileError(message: "\(file) \(fileRule). Nothing was read or changed: give \(option) another file")
    }
}
