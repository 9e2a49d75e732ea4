#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One crawl at a time writes an output file: two would write each page twice, and cut each other's pages on a
/// rerun. A POSIX record lock on the whole file, held while the descriptor is open and dropped by the kernel when
/// the process ends, however it ends. A record lock rather than flock(2), so that a caller holding flock on the
/// file itself (`flock out.tsv gh-users list …`) is not taken for another crawl.
enum OutputLock {
    /// Takes the lock on the open file `descriptor`; false when another process holds it. Where the file system
    /// keeps no locks (ENOLCK), none is taken, and the crawl goes on as it did before there was one.
    static func take(_ descriptor: Int32) -> Bool {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        guard fcntl(descriptor, F_SETLK, &lock) != 0 else { return true }
        return errno != EACCES && errno != EAGAIN
    }

    static func refusal(_ shown: String) -> LocalFileError {
        LocalFileError(
            message: "another gh-users run is writing \(shown). Nothing was changed: wait for it to end, or give "
                + "each crawl its own output file")
    }
}
