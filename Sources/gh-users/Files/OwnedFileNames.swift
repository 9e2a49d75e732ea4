#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension OwnedFile {
    /// A file with more than one name (hard links) is refused before it is read or locked: the lock is
    /// `FILE.lock` beside one name, so a run through another name takes another lock on the same file, and a
    /// replacement parts the names. Two runs on two links of one snapshot both reported the same changes (a
    /// review's find).
    func checkSingleName() throws(LocalFileError) {
        var info = stat()
        guard lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink > 1 else { return }
        throw LocalFileError(
            message: "the \(kind) \(shown) has \(info.st_nlink) names (hard links), and a run locks and replaces it "
                + "under one name only. Nothing was read or changed: keep one name (copy it with cp where you need "
                + "another), or give \(option) another file")
    }
}
