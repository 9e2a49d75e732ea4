import Testing

@testable import gh_users

/// The threads a run needs, counted before anything starts (helper-334: under a process limit of 8, libdispatch
/// retried a thread forever and SIGTERM stayed pending).
struct ResourceLimitsTests {
    @Test func tooFewThreadsAreSaidAndEnoughAreNot() {
        #expect(
            ResourceLimits.threadProblem(startable: 3)
                == "gh-users: it needs to start 10 threads, and could start 3 (ulimit -u, or a container's pids "
                + "limit); nothing was done")
        #expect(ResourceLimits.threadProblem(startable: ResourceLimits.threads) == nil)
        // One short of the need is short (mutation round 11's M11-68).
        #expect(ResourceLimits.threadProblem(startable: ResourceLimits.threads - 1) != nil)
    }

    /// Without a limit, each thread asked for starts, stays until all have, and is joined.
    @Test func theProbeStartsEveryThreadAskedFor() {
        #expect(ResourceLimits.startableThreads(ResourceLimits.threads) == ResourceLimits.threads)
        #expect(ResourceLimits.startableThreads(0) == 0)
    }
}
