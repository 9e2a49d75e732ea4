import TestProcessSetup

/// The heap blocks some work allocates on this thread, and their bytes: for tests that guard a complexity by the
/// work done, not by how long it took. A text or list built by copying itself once per step allocates bytes
/// quadratic in its length; one built in place, linear. The count is the same on a busy machine as on an idle
/// one, so a bound can sit far from both. Counted by the test executable's own malloc, calloc and realloc
/// (Tests/TestProcessSetup/AllocationCount.c), which every Swift object, array and string goes through; nothing
/// another thread allocates meanwhile is counted.
package struct AllocationCount: Sendable, Equatable, CustomStringConvertible {
    package let blocks: Int
    package let bytes: Int

    /// Nothing can be counted here: not glibc, or its malloc was not replaced.
    package struct Unavailable: Error, CustomStringConvertible {
        package var description: String { "heap allocations cannot be counted in this process" }
    }

    /// What `body` allocates on the calling thread. `body` must do its work there: it is synchronous, and work it
    /// hands to another thread is not counted.
    package static func during(_ body: () throws -> Void) throws -> AllocationCount {
        // A known allocation first: counting that sees none of it would pass any bound.
        let probe = try counted { _ = [UInt8](repeating: 1, count: 4096) }
        guard probe.bytes >= 4096 else { throw Unavailable() }
        return try counted(body)
    }

    private static func counted(_ body: () throws -> Void) throws -> AllocationCount {
        gh_users_allocation_count_start()
        var blocks: UInt64 = 0
        var bytes: UInt64 = 0
        do {
            try body()
        } catch {
            _ = gh_users_allocation_count_stop(&blocks, &bytes)
            throw error
        }
        guard gh_users_allocation_count_stop(&blocks, &bytes) == 1 else { throw Unavailable() }
        return AllocationCount(blocks: Int(blocks), bytes: Int(bytes))
    }

    package var description: String { "\(blocks) blocks of \(bytes) bytes in all" }
}
