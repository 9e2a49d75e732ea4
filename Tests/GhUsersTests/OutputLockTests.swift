import Foundation
import Testing

@testable import gh_users

#if canImport(Glibc)
    import Glibc
#endif

/// `OutputLock.take`: a crawl takes its output file alone. Another holder is played in process by an open file
/// description lock (`F_OFD_SETLK`), which conflicts with the POSIX record lock `take` asks for as another
/// process's lock would, though both are this process's.
struct OutputLockTests {
    /// Linux's `F_OFD_SETLK` (fcntl.h), which Glibc's module does not export.
    private static let setOpenFileDescriptionLock: Int32 = 37

    /// A new file in the temporary folder, opened twice: one description holds the other run's lock, the
    /// other is the crawl's.
    private static func twoDescriptions() throws -> (holder: Int32, crawl: Int32, path: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-lock-\(UUID())").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("records\n".utf8)))
        let holder = open(path, O_RDWR | O_CLOEXEC)
        let crawl = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
        try #require(holder >= 0 && crawl >= 0)
        return (holder, crawl, path)
    }

    private static func hold(_ descriptor: Int32, type: Int32) -> Bool {
        var lock = flock()
        (lock.l_type, lock.l_whence, lock.l_pid) = (Int16(type), Int16(SEEK_SET), 0)
        return fcntl(descriptor, setOpenFileDescriptionLock, &lock) == 0
    }

    @Test(arguments: [F_WRLCK, F_RDLCK])
    func aFileAnotherHolderLocksIsNotTaken(type: Int32) throws {
        let (holder, crawl, path) = try Self.twoDescriptions()
        defer {
            close(crawl)
            close(holder)
            unlink(path)
        }
        try #require(Self.hold(holder, type: type))
        // A writer excludes readers too: a crawl never starts while another run reads or writes the file.
        #expect(OutputLock.take(crawl) == false)
    }

    @Test func aFileNoOneLocksIsTakenAndThenExcludesOthers() throws {
        let (holder, crawl, path) = try Self.twoDescriptions()
        defer {
            close(crawl)
            close(holder)
            unlink(path)
        }
        #expect(OutputLock.take(crawl))
        // What it took is a write lock: another that only reads is refused while it is held.
        #expect(Self.hold(holder, type: F_RDLCK) == false)
    }
}
