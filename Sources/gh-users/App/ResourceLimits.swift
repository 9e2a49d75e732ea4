import Data

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a run needs of `ulimit`, checked before anything starts. Below it the toolchain's own code fails where no
/// error can be caught: libdispatch waits forever for a thread it cannot start (`ulimit -v 250000` hung, and
/// SIGTERM never ended it), and a pipe or a socket that cannot be opened traps (`ulimit -n 8`: SIGILL, exit 132,
/// nothing said). Both are review finds. Files a parent left open count against the limit too: with 57 of them
/// (`exec 3<… 59<…`) a limit of 64 trapped as well.
enum ResourceLimits {
    /// Open files besides those open when the run starts: libdispatch's, the signal pipe, the cache, a state and
    /// its lock, and a connection for each of up to 10 requests at once, with room to spare.
    static let openFiles: rlim_t = 64
    /// Address space: the binary and its libraries, a stack for each thread, and answers up to their cap.
    static let addressSpace: rlim_t = 384 << 20
    /// Threads besides the first, alive at once: the cooperative pool's, libdispatch's, URLSession's and the signal
    /// reader's. A `list` took 5, and under a process limit of 8 (`ulimit -u`, a container's pids limit)
    /// libdispatch retried a thread it could not start forever, with SIGTERM pending and unseen (helper-334).
    static let threads = 10

    /// Nil when a run can go on; else why not, in one line. A soft limit of open files below the need is raised
    /// toward the hard one first, as Go's runtime raises it: the hard limit is the one the administrator set. An
    /// address space limit is left as it is, since one is set to keep a program small.
    static func problem() -> String? {
        var files = rlimit()
        if getrlimit(resource(RLIMIT_NOFILE), &files) == 0, case let open = openNow(below: files.rlim_cur),
            files.rlim_cur < open + openFiles
        {
            var raised = files
            raised.rlim_cur = min(files.rlim_max, max(1024, open + openFiles))
            if raised.rlim_cur > files.rlim_cur, setrlimit(resource(RLIMIT_NOFILE), &raised) == 0 {
                files = raised
            }
            if files.rlim_cur < open + openFiles {
                return "gh-users: it needs \(openFiles) open files besides the \(open) open when it started, and its "
                    + "limit is \(files.rlim_cur) (ulimit -n); nothing was done"
            }
        }
        var space = rlimit()
        if getrlimit(resource(RLIMIT_AS), &space) == 0, space.rlim_cur < addressSpace {
            return "gh-users: it needs at least \(addressSpace >> 20) MiB of address space, and its limit is "
                + "\(space.rlim_cur >> 20) MiB (ulimit -v \(space.rlim_cur >> 10)); nothing was done"
        }
        return threadProblem(startable: startableThreads(threads))
    }

    /// Why a run that could start only `startable` threads besides its own may not go on; nil where it may.
    static func threadProblem(startable: Int) -> String? {
        guard startable < threads else { return nil }
        return "gh-users: it needs to start \(threads) threads, and could start \(startable) (ulimit -u, or a "
            + "container's pids limit); nothing was done"
    }

    /// How many of `wanted` threads start and stay at once: each waits on a pipe, then all end and are joined. Their
    /// stacks are small, so that an address space limit is not what stops them. `wanted` where it cannot be told.
    static func startableThreads(_ wanted: Int) -> Int {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return wanted }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 64 << 10)
        var started: [pthread_t] = []
        for _ in 0..<wanted {
            var thread = pthread_t()
            // The descriptor rides in the argument's bits: a C function can capture nothing.
            let argument = UnsafeMutableRawPointer(bitPattern: Int(ends[0]) + 1)
            let made = pthread_create(
                &thread, &attributes,
                { argument in
                    var byte: UInt8 = 0
                    _ = read(Int32(Int(bitPattern: argument) - 1), &byte, 1)
                    return nil
                }, argument)
            guard made == 0 else { break }
            started.append(thread)
        }
        pthread_attr_destroy(&attributes)
        close(ends[1])
        for thread in started { pthread_join(thread, nil) }
        close(ends[0])
        return started.count
    }

    /// Under an address space limit, glibc's malloc keeps at most two arenas. It reserves 64 MiB of address space
    /// for each thread that meets another in malloc, up to 8 a core: 383 MiB of a run's 561 MiB. A 1,000,000-person
    /// snapshot read under `ulimit -v 400000`, which gh-users accepts, then aborted ("failed to allocate") in 5
    /// runs of 5; with two arenas its peak is 299 MiB, and it ran in 5 of 5. Without a limit nothing is changed.
    /// `mallopt` is in glibc's malloc.h, which the Glibc module leaves out: it is looked up by name, and
    /// `M_ARENA_MAX` is that header's -8.
    static func fitMallocToTheLimit() {
        var space = rlimit()
        guard getrlimit(resource(RLIMIT_AS), &space) == 0, space.rlim_cur != rlim_t.max else { return }
        #if canImport(Glibc)
            typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(nil, "mallopt") else { return }
            _ = unsafeBitCast(symbol, to: MallocOption.self)(-8, 2)
        #endif
    }

    /// The files open below `limit` now: /dev/fd's entries (Linux's /proc/self/fd, the BSDs' and macOS's
    /// fdescfs) less the descriptor that reads it; where it cannot be read, the descriptors below `limit` asked
    /// one by one, at most 1,024 of them (counting /proc alone once took three where it could not be read, and
    /// 57 inherited files trapped; a regression review's find).
    private static func openNow(below limit: rlim_t) -> rlim_t {
        guard let folder = opendir("/dev/fd") else {
            return (0..<Int32(min(limit, 1024))).reduce(0) { open, descriptor in
                open + (fcntl(descriptor, F_GETFD) == -1 ? 0 : 1)
            }
        }
        defer { closedir(folder) }
        // Only those below the limit: a new file takes the lowest free number, so one above it takes no room.
        var entries: rlim_t = 0
        while let entry = readdir(folder) {
            if let descriptor = rlim_t(FileInfo.entryName(entry)), descriptor < limit { entries += 1 }
        }
        return max(entries, 1) - 1
    }

    #if canImport(Glibc)
        private static func resource(_ resource: __rlimit_resource) -> Int32 { Int32(resource.rawValue) }
    #else
        private static func resource(_ resource: Int32) -> Int32 { resource }
    #endif
}
