import Foundation

/// How many rounds a stress test runs: its own default, which is many times what ever found its bug and keeps
/// `Scripts/run-tests` within its minute, or `GH_USERS_STRESS_ROUNDS` for a longer hunt
/// (`GH_USERS_STRESS_ROUNDS=1000 Scripts/run-tests --filter Stress`).
package enum Stress {
    package static func rounds(_ standard: Int) -> Int {
        guard let text = ProcessInfo.processInfo.environment["GH_USERS_STRESS_ROUNDS"], let rounds = Int(text),
            rounds > 0
        else { return standard }
        return rounds
    }
}
