import Foundation

/// How many times longer some work takes on eight times the input, for tests that guard a complexity without
/// a stopwatch: a slow or busy machine slows both sizes alike. Linear work grows about 8 times, quadratic work
/// 64 times or more, so a bound of 32 sits well between.
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
            for _ in 0..<7 {
                smallTime = min(smallTime, seconds(small))
                largeTime = min(largeTime, seconds(large))
            }
            ratio = largeTime / max(smallTime, 1e-6)
        }
        return ratio
    }

    private static func seconds(_ body: () -> Void) -> Double {
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds)
    }
}
