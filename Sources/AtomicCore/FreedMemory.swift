#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gives the system back the memory the process has freed but the allocator still holds.
///
/// glibc keeps what is freed for reuse, in an arena per thread that allocated it, and returns little of it on its
/// own: a list's page is made on whichever thread decodes it, so each big page left its records' memory behind in
/// another arena, and a run's peak RSS grew page after page though only one page was alive at a time (four 64 MiB
/// pages of short accounts: 206 MB held between pages after two, issue 38). `malloc_trim` hands back every arena's
/// free pages. glibc's `malloc.h` is not in Swift's Glibc module, so it is looked up by name; elsewhere, and where
/// it is missing, this does nothing.
package enum FreedMemory {
    #if canImport(Glibc)
        private typealias Trim = @convention(c) (Int) -> Int32

        private static let trim: Trim? = {
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: Trim.self)
        }()
    #endif

    /// `bytes` where that much can be allocated now, else 0: for a buffer made at a size a server announced, since
    /// `Data(capacity:)` traps where the allocation fails (a `Content-Length` past `ulimit -v`, or past the machine
    /// under a raised body limit: SIGILL, exit 132, helper-292). The probe is the allocator's own, freed at once:
    /// a mapping alone failed where the allocator could still give the memory from what it holds, and a body as
    /// long as it said then grew by doubling and trapped (helper-295). Unoptimized, since the optimizer removes a
    /// `malloc` and `free` pair and takes the allocation to succeed (measured: the release build still trapped).
    @inline(never) @_optimize(none)
    package static func obtainable(_ bytes: Int) -> Int {
        guard bytes > 0, let probe = malloc(bytes) else { return 0 }
        free(probe)
        return bytes
    }

    /// Returns the freed memory to the system: worth its cost (a walk of the allocator's free lists) only after
    /// something big was freed.
    package static func giveBack() {
        #if canImport(Glibc)
            _ = trim?(0)
        #endif
    }
}
