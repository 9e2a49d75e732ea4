import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How many times longer some work takes on eight times the input, for tests that guard a complexity without
/// a stopwatch: measured in the thread's CPU time, which a busy machine does not inflate. Linear work grows
/// about 8 times, quadratic work 64 times or more, so a bound of 32 sits well between.
package enum Growth {
    /// The shortest time of each size over interleaved rounds, so a burst of load on a busy machine (other tests
    /// run meanwhile) cannot land on one size only; measured again, up to three times, while the ratio is at or
    /// over `bound`: load comes and goes, while quadratic work is over the bound every time.
    package static func ratio(small: () -> Void, large: () -> Void, bound: Double = 32) -> Double {
        small()  // Warm up.
        var ratio = Double.infinity
        for _ in 0..<3 where ratio >= bound {
            var smallTime = Double.infinity
            var largeTime = Double.infinity
            for _ in 0..<3 {
                smallTime = min(smallTime, seconds(small))
                largeTime = min(largeTime, seconds(large))
            }
            ratio = largeTime / max(smallTime, 1e-6)
        }
        return ratio
    }

    /// The CPU time this thread spent on `body`: other processes and threads on a busy machine add nothing to it,
    /// where a wall clock counts every moment the thread waited for a core.
    private static func seconds(_ body: () -> Void) -> Double {
        let start = threadCPUTime()
        body()
        return threadCPUTime() - start
    }

    private static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
