import Testing

@testable import Data

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder's entry names are read in place. glibc packs `readdir`'s entries by `d_reclen`, so the last one in its
/// buffer can end before a whole `dirent` would; copying its 256-byte `d_name` read past the buffer, and a cache
/// folder of a few hundred entries died of SIGSEGV (a review's find).
struct DirectoryEntryNameTests {
    /// An entry as glibc packs it, ending right before a page that may not be read: reading one byte past the
    /// name's NUL is SIGSEGV, so this test dies on the old copy.
    @Test func aPackedEntryAtTheEndOfReadableMemoryIsReadUpToItsName() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapped = try #require(
            mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), "mmap failed")
        #expect(mapped != MAP_FAILED)
        defer { munmap(mapped, 2 * page) }
        #expect(mprotect(mapped + page, page, PROT_NONE) == 0)
        let nameOffset = try #require(MemoryLayout<dirent>.offset(of: \dirent.d_name))
        let name = Array("a.json".utf8CString)
        // 8-byte aligned, as glibc's d_reclen is.
        let length = (nameOffset + name.count + 7) / 8 * 8
        let entry = mapped + page - length
        (entry + nameOffset).copyMemory(from: name, byteCount: name.count)
        #expect(FileInfo.entryName(entry.assumingMemoryBound(to: dirent.self)) == "a.json")
    }

    /// More names than one `getdents` buffer holds, so entries sit at its tail, are all listed.
    @Test func aFolderOfManyEntriesIsListedWhole() throws {
        var template = Array("/tmp/gh-users-entries-XXXXXX".utf8CString)
        let path = String(cString: try #require(mkdtemp(&template)))
        defer {
            for index in 0..<600 { unlink("\(path)/\(String(repeating: "e", count: 60))\(index)") }
            rmdir(path)
        }
        for index in 0..<600 {
            let descriptor = open("\(path)/\(String(repeating: "e", count: 60))\(index)", O_CREAT | O_WRONLY, 0o600)
            #expect(descriptor >= 0)
            close(descriptor)
        }
        let folder = open(path, O_RDONLY | O_DIRECTORY)
        #expect(folder >= 0)
        defer { close(folder) }
        let names = Set(FileInfo.names(in: folder))
        #expect(names == Set((0..<600).map { "\(String(repeating: "e", count: 60))\($0)" }))
    }
}
