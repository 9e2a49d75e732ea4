import Foundation
import Testing

@testable import gh_users

/// A file gh-users owns (`--state`, `--changes`, `http1-origins`) is reached through symbolic links as the kernel
/// would reach it with Linux's `protected_symlinks`: a link another user planted in a sticky folder anyone may
/// write to (`/tmp`) is not followed, so it cannot turn gh-users's write into one of the runner's own files.
struct OwnedFileLinkTests {
    /// A folder anyone may write to, sticky as /tmp is, made at `path` (another user's, given `owner`).
    private func stickyFolder(_ path: String, owner: uid_t? = nil) throws -> String {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(chmod(path, 0o1777) == 0)
        if let owner { #expect(chown(path, owner, owner) == 0) }
        return path
    }

    private func file(_ path: String) -> OwnedFile {
        OwnedFile(path: path, kind: "state file", option: "--state", limitBytes: 1 << 16)
    }

    /// A name ending in " (deleted)", as Linux's /proc ends a deleted file's, can be a live file's: such a file open on
    /// a descriptor has a path; a deleted one has none, even where another file now bears the name /proc gives it
    /// (helper-331's mutations F3 and F5 went unseen).
    @Test func aLiveFileNamedAsDeletedIsToldFromADeletedOne() throws {
        let folder = try Folder()
        defer { folder.remove() }
        #expect(FileManager.default.createFile(atPath: folder("live (deleted)"), contents: Data()))
        let live = open(folder("live (deleted)"), O_RDONLY)
        try #require(live >= 0)
        defer { close(live) }
        let link = "/proc/self/fd/\(live)"
        let text = try #require(FileDescriptorIO.readLink(link))
        #expect(!FileDescriptorIO.isPathlessDescriptorLink(link, text: text))
        #expect(FileManager.default.createFile(atPath: folder("gone"), contents: Data()))
        let gone = open(folder("gone"), O_RDONLY)
        try #require(gone >= 0)
        defer { close(gone) }
        #expect(unlink(folder("gone")) == 0)
        #expect(FileManager.default.createFile(atPath: folder("gone (deleted)"), contents: Data()))
        #expect(FileDescriptorIO.regularFilePath(of: gone) == nil)
        #expect(FileDescriptorIO.regularFilePath(of: live).map { $0.hasSuffix("/live (deleted)") } == true)
    }

    /// `/dev/stdout` and its kin name a descriptor as `/dev/fd/1` does, so one closed at the start is refused as
    /// not given, rather than reopened as the /dev/null that holds it.
    @Test func theStandardStreamsNamesAreTheirDescriptors() {
        for (path, number) in [("/dev/stdin", 0), ("/dev/stdout", 1), ("/dev/stderr", 2), ("/dev/fd/1", 1)] {
            let named = FileDescriptorIO.descriptor(namedBy: path)
            #expect(named?.number == Int32(number) && named?.own == true, "\(path)")
        }
        #expect(FileDescriptorIO.descriptor(namedBy: "/dev/stdoutx") == nil)
        #expect(FileDescriptorIO.descriptor(namedBy: "/dev/null") == nil)
    }

    /// Links of one's own, relative or absolute, through a folder or to a file yet to be made, are followed.
    @Test func ownLinksAreFollowedNameByName() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder("real"), withIntermediateDirectories: true)
        #expect(symlink("real", folder("through")) == 0)
        #expect(symlink(folder("real/state.json"), folder("real/link.json")) == 0)
        let resolved = OwnedFile.resolve(folder("through/../through/link.json"))
        #expect(resolved.target == FileDescriptorIO.realPath(folder("real")).map { $0 + "/state.json" })
        #expect(resolved.untrustedLink == nil)
        try file(folder("through/link.json")).replace(with: Array("{}".utf8))
        #expect(FileManager.default.contents(atPath: folder("real/state.json")) == Data("{}".utf8))
        #expect(FileDescriptorIO.readLink(folder("real/link.json")) != nil, "the link stays a link")
    }

    /// A file that cannot be made for want of its folder names the folder to make, as the open reached it: through
    /// a link to a folder not there, the link's target (helper-282: `mkdir -p -- d` failed on the link `d`). No
    /// hint where it would be wrong: a name ending in a slash, a folder that is there; a `~` the shell left is said.
    @Test func aMissingFolderIsNamedAsTheOpenReachedIt() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let missing = " (a folder on its path is not there: mkdir -p -- "
        #expect(
            FileDescriptorIO.reason(ENOENT, creating: folder("state/gh-users/f.json"))
                == "no such file or directory" + missing + ShellWord.quote(folder("state/gh-users")) + ")")
        #expect(symlink(folder("nowhere"), folder("d")) == 0)
        #expect(
            FileDescriptorIO.reason(ENOENT, creating: folder("d/f.json"))
                == "no such file or directory" + missing + ShellWord.quote(folder("nowhere")) + ")")
        for plain in [folder("newdir/"), folder("f.json")] {
            #expect(FileDescriptorIO.reason(ENOENT, creating: plain) == "no such file or directory", "\(plain)")
        }
        #expect(FileDescriptorIO.reason(EACCES, creating: folder("x/f.json")) == "permission denied")
        #expect(
            FileDescriptorIO.reason(ENOENT, creating: "~/.local/state/f.json")
                == "no such file or directory (the shell did not expand this ~: it does so only at a word's start; "
                + "write $HOME)")
    }

    /// A file with a second name (a hard link) is refused before it is read or locked, left as it was: a run
    /// through each name took its own lock (before, two runs on two links of one snapshot both ran and both
    /// reported the same changes), and a replacement parted the names.
    @Test func aFileWithTwoNamesIsNeitherReadNorLocked() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder("one.json")))
        #expect(link(folder("one.json"), folder("two.json")) == 0)
        for name in ["one.json", "two.json"] {
            let owned = file(folder(name))
            for attempt in [{ _ = try owned.read() }, { _ = try owned.lock() }] {
                #expect {
                    try attempt()
                } throws: { error in
                    "\(error)".contains("has 2 names (hard links), and a run locks and replaces it under one name")
                }
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder("one.json.lock")))
        #expect(FileManager.default.contents(atPath: folder("two.json")) == Data("{}".utf8))
        #expect(unlink(folder("two.json")) == 0)
        let single = file(folder("one.json"))
        #expect(try single.read() == Array("{}".utf8))
        _ = try single.lock()
    }

    /// What is no regular file is refused as what it is before a lock is made beside it (helper-283: `/dev/null`
    /// said the lock's "permission denied" to a user who may not write in /dev, a socket "no such device or
    /// address"); a lock file that cannot be made is named as the open tried it, beside the file a link leads to,
    /// with what to do where something else holds its name (before: "cannot create the lock beside the state
    /// file 'F': is a directory", naming neither).
    @Test func whatIsNoFileIsSaidAsSuchAndALockThatCannotBeMadeIsNamed() throws {
        let folder = try Folder()
        defer { folder.remove() }
        #expect(mkfifo(folder("fifo.json"), 0o600) == 0)
        for (path, what) in [("/dev/null", "a device"), (folder("fifo.json"), "a FIFO (named pipe)")] {
            let owned = file(path)
            #expect {
                _ = try owned.lock()
            } throws: { error in
                "\(error)" == "cannot read the state file '\(path)': it is \(what), not a regular file. It was left as "
                    + "it is: give --state a file"
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder("fifo.json.lock")))
        try FileManager.default.createDirectory(atPath: folder("real/s.json.lock"), withIntermediateDirectories: true)
        #expect(symlink(folder("real/s.json"), folder("s.json")) == 0)
        #expect {
            _ = try file(folder("s.json")).lock()
        } throws: { error in
            let lock = folder("real/s.json.lock")
            return "\(error)"
                == "cannot create the lock beside the state file '\(folder("s.json"))': '\(lock)': is a directory. "
                + "Nothing was changed: move that away, or give --state another file"
        }
    }

    /// Another user's temporary file in a sticky folder is refused before anything is asked, named as the
    /// temporary file (helper-283: after the run's requests, "cannot remove the snapshot file 'F.tmp': operation
    /// not permitted", naming it as the snapshot, with no way out, and `list --state` left an empty output).
    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func anotherUsersTemporaryFileIsRefusedBeforeTheRun() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let shared = try stickyFolder(folder("shared"))
        try Data().write(to: URL(fileURLWithPath: shared + "/s.json.tmp"))
        #expect(chown(shared + "/s.json.tmp", 65_534, 65_534) == 0)
        #expect {
            _ = try file(shared + "/s.json").read()
        } throws: { error in
            let named = "the temporary file '\(shared)/s.json.tmp' of the state file '\(shared)/s.json' "
            return "\(error)".hasPrefix(named + "belongs to another user and is in a folder anyone may write to")
        }
    }

    /// Another user's link in a sticky folder anyone may write to is refused, the file it names untouched;
    /// the folder owner's link there is followed, as the kernel's rule has it.
    @Test(.enabled(if: geteuid() == 0, "only root can give a link to another user"))
    func anotherUsersLinkInASharedStickyFolderIsNotFollowed() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let shared = try stickyFolder(folder("shared"), owner: 65_533)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder("victim")))
        #expect(symlink(folder("victim"), shared + "/planted.json") == 0)
        #expect(lchown(shared + "/planted.json", 65_534, 65_534) == 0)
        let planted = file(shared + "/planted.json")
        #expect(planted.untrustedLink == shared + "/planted.json")
        // Refused for the link, not named as `--output`'s own file (before: "--output … is the state file itself").
        #expect(planted.ownName(of: shared + "/planted.json") == nil)
        for attempt in [{ _ = try planted.read() }, { try planted.replace(with: Array("{}".utf8)) }] {
            #expect {
                try attempt()
            } throws: { error in
                "\(error)".contains("which another user made in a folder anyone may write to")
            }
        }
        #expect(throws: LocalFileError.self) { _ = try planted.lock() }
        #expect(FileManager.default.contents(atPath: folder("victim")) == Data("mine".utf8))
        #expect(FileDescriptorIO.readLink(shared + "/planted.json") != nil)
        // `--output`, which a rerun cuts back to the state's length, is reached by the same rule.
        #expect {
            try CrawlOutputFile(path: shared + "/planted.json", cut: .tsv(0), resumable: true)
        } throws: { error in
            "\(error)".contains("the output file '\(shared)/planted.json' is reached through the symbolic link")
        }
        #expect(FileManager.default.contents(atPath: folder("victim")) == Data("mine".utf8))
        // `--cache-dir` too: a planted link to a folder is not filled with the cache (before: it was, silently).
        try FileManager.default.createDirectory(atPath: folder("victim-folder"), withIntermediateDirectories: true)
        #expect(
            symlink(folder("victim-folder"), shared + "/cache") == 0 && lchown(shared + "/cache", 65_534, 65_534) == 0)
        #expect {
            try CacheLocation.resolve(cacheDir: shared + "/cache", environment: [:])
        } throws: { error in
            (error as? UsageError)?.message.contains("the cache folder '\(shared)/cache' is reached through the")
                == true
        }
        #expect(try CacheLocation.resolve(cacheDir: folder("victim-folder"), environment: [:]).directory != nil)
        // From XDG_CACHE_HOME, the message says so, since --cache-dir was not given.
        #expect(symlink(folder("victim-folder"), shared + "/xdg") == 0 && lchown(shared + "/xdg", 65_534, 65_534) == 0)
        #expect {
            try CacheLocation.resolve(cacheDir: nil, environment: ["XDG_CACHE_HOME": shared + "/xdg"])
        } throws: { error in
            (error as? UsageError)?.message.hasSuffix("(this one comes from XDG_CACHE_HOME)") == true
        }
        // Nor a cache folder another user made there, which they could move the store out of, away from `cache
        // clear` (helper-353's P-3: it was used, saying nothing); the runner's own folder there is used.
        let theirs = shared + "/gh-users"
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true)
        #expect(chown(theirs, 65_534, 65_534) == 0 && chmod(theirs, 0o777) == 0)
        for (cacheDir, xdg) in [(nil, shared), (theirs, "")] {
            #expect {
                try CacheLocation.resolve(cacheDir: cacheDir, environment: ["XDG_CACHE_HOME": xdg])
            } throws: { error in
                (error as? UsageError)?.message.hasPrefix(
                    "the cache folder '\(theirs)' was made by another user in a folder anyone may write to") == true
            }
        }
        #expect(chown(theirs, geteuid(), getegid()) == 0)
        #expect(try CacheLocation.resolve(cacheDir: nil, environment: ["XDG_CACHE_HOME": shared]).directory != nil)
        #expect(lchown(shared + "/planted.json", 65_533, 65_533) == 0)
        #expect(file(shared + "/planted.json").untrustedLink == nil, "the folder owner's link")
        // Without the sticky bit anyone may have put any link there: the folder owner's is refused too.
        #expect(chmod(shared, 0o777) == 0 && file(shared + "/planted.json").untrustedLink == shared + "/planted.json")
    }

    /// The race a review ran: another user swaps the runner's file for their link to another of the runner's files
    /// and back, as fast as they can, while the name is resolved. The link is never followed (before: 10 runs in
    /// 300 sent the other file as `--token-file`'s token; this loop followed it in 8,000 of its 20,000).
    @Test(.enabled(if: geteuid() == 0, "only root can give a link to another user"))
    func aLinkSwappedInAndOutIsNeverFollowed() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (mine, away, evil) = (folder("shared/mine"), folder("shared/away"), folder("shared/evil"))
        try FileManager.default.createDirectory(atPath: folder("shared"), withIntermediateDirectories: true)
        #expect(chmod(folder("shared"), 0o777) == 0)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: mine))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: folder("secret")))
        #expect(symlink(folder("secret"), evil) == 0 && lchown(evil, 65_534, 65_534) == 0)
        var followed = 0
        Self.swapping(mine, for: evil, by: away) {
            for _ in 0..<20_000 {
                let resolved = OwnedFile.resolve(mine)
                if resolved.untrustedLink == nil, resolved.target.hasSuffix("/secret") { followed += 1 }
            }
        }
        #expect(followed == 0)
    }

    /// A folder on the way that another user made in a folder anyone may write to is not gone through: they put
    /// what they like in it (a review's forged state started a crawl at 901, its token file signed a run in as
    /// them). In a sticky folder and in one without the bit; a folder of the runner's or root's there is used.
    @Test(.enabled(if: geteuid() == 0, "only root can give a folder to another user"), arguments: [0o1777, 0o777])
    func anotherUsersFolderInASharedFolderIsNotGoneThrough(mode: Int) throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder("shared/theirs"), withIntermediateDirectories: true)
        #expect(chmod(folder("shared"), mode_t(mode)) == 0 && chown(folder("shared/theirs"), 65_534, 65_534) == 0)
        try Data(#"{"since":900}"#.utf8).write(to: URL(fileURLWithPath: folder("shared/theirs/s.json")))
        #expect(chown(folder("shared/theirs/s.json"), 65_534, 65_534) == 0)
        #expect {
            _ = try file(folder("shared/theirs/s.json")).read()
        } throws: { "\($0)".contains("is reached through the folder '\(folder("shared/theirs"))', which another user") }
        #expect(chown(folder("shared/theirs"), 0, 0) == 0 && chown(folder("shared/theirs/s.json"), 0, 0) == 0)
        #expect(try file(folder("shared/theirs/s.json")).read() == Array(#"{"since":900}"#.utf8))
    }

    /// The same race on a folder: another user swaps the runner's folder in a 0777 one for their link to their
    /// own folder, which holds a forged state, and back, while the state is read. The forged state is never read
    /// (a review's racer: 19 runs in 300 of `list --state` started at its 901).
    @Test(.enabled(if: geteuid() == 0, "only root can give a link to another user"))
    func aFolderSwappedForALinkIsNeverGoneThrough() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (mine, away, evil) = (folder("shared/d"), folder("shared/away"), folder("shared/evil"))
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder("theirs"), withIntermediateDirectories: true)
        #expect(chmod(folder("shared"), 0o777) == 0 && chown(folder("theirs"), 65_534, 65_534) == 0)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: mine + "/s.json"))
        try Data("forged".utf8).write(to: URL(fileURLWithPath: folder("theirs/s.json")))
        #expect(chown(folder("theirs/s.json"), 65_534, 65_534) == 0)
        #expect(symlink(folder("theirs"), evil) == 0 && lchown(evil, 65_534, 65_534) == 0)
        var (forged, read) = (0, 0)
        Self.swapping(mine, for: evil, by: away) {
            for _ in 0..<5_000 {
                let bytes = try? file(mine + "/s.json").read()
                forged += bytes == Array("forged".utf8) ? 1 : 0
                read += bytes == Array("mine".utf8) ? 1 : 0
            }
        }
        #expect(forged == 0 && read > 0, "\(forged) forged, \(read) read as the runner's")
    }

    /// Swaps `name` with `other` (through `spare`) on another thread, as fast as it can, while `body` runs.
    private static func swapping(_ name: String, for other: String, by spare: String, while body: () -> Void) {
        final class Stop: @unchecked Sendable {
            let lock = NSLock()
            var asked = false
            let done = DispatchSemaphore(value: 0)
            var isAsked: Bool { lock.withLock { asked } }
        }
        let stop = Stop()
        Thread {
            while !stop.isAsked {
                _ = (rename(name, spare), rename(other, name), rename(name, other), rename(spare, name))
            }
            stop.done.signal()
        }.start()
        body()
        stop.lock.withLock { stop.asked = true }
        stop.done.wait()
    }

    /// A file another user made first in a sticky folder anyone may write to (a forged state or snapshot, a lock
    /// that blocks every run, an output they can read) is neither read nor written, as Linux's
    /// `protected_regular` would not let it be opened to write; the folder owner's and the runner's own are used.
    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func anotherUsersFileInASharedStickyFolderIsNeitherReadNorWritten() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let shared = try stickyFolder(folder("shared"), owner: 65_533)
        let forged = Data(#"{"since":500}"#.utf8)
        // An empty lock file, as gh-users makes them: not refused for what it holds.
        let planted = ["state.json": forged, "locked.json.lock": Data(), "out.tsv": forged]
        for (name, bytes) in planted {
            try bytes.write(to: URL(fileURLWithPath: shared + "/" + name))
            #expect(chown(shared + "/" + name, 65_534, 65_534) == 0)
        }
        let refused = "belongs to another user and is in a folder anyone may write to"
        #expect { _ = try file(shared + "/state.json").read() } throws: { "\($0)".contains(refused) }
        #expect { _ = try file(shared + "/locked.json").lock() } throws: { "\($0)".contains(refused) }
        #expect {
            try CrawlOutputFile(path: shared + "/out.tsv", cut: nil, resumable: false)
        } throws: { "\($0)".contains("the output file '\(shared)/out.tsv' " + refused) }
        for (name, bytes) in planted {
            #expect(FileManager.default.contents(atPath: shared + "/" + name) == bytes, "\(name) is left as it was")
        }
        // The folder owner's file, and one's own, are used.
        #expect(chown(shared + "/state.json", 65_533, 65_533) == 0)
        #expect(try file(shared + "/state.json").read() == Array(forged))
        #expect(chown(shared + "/out.tsv", geteuid(), getegid()) == 0)
        #expect(throws: Never.self) { try CrawlOutputFile(path: shared + "/out.tsv", cut: nil, resumable: false) }
        // Without the sticky bit anyone may have put any file there (a review forged a snapshot in such a folder
        // its maker owned): the folder owner's is refused too, one's own used.
        #expect(chmod(shared, 0o777) == 0)
        #expect { _ = try file(shared + "/state.json").read() } throws: { "\($0)".contains(refused) }
        #expect(throws: Never.self) { try CrawlOutputFile(path: shared + "/out.tsv", cut: nil, resumable: false) }
    }
}
