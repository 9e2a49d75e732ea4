import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder in which nothing can be made by whoever runs the tests: mode 0500 for a user, and for root, whom modes
/// do not stop, the immutable attribute (`chattr +i`, from e2fsprogs).
package enum UnwritableFolder {
    static let chattr = "/usr/bin/chattr"

    /// Whether `lock` works here, tried once on a folder of its own: root without CAP_LINUX_IMMUTABLE (a container's
    /// default), or a file system without the attribute, cannot lock one, and a test that needs it is skipped and
    /// says why, rather than failing (helper-346's R4).
    package static let available: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-lock-\(UUID())")
        guard (try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)) != nil else {
            return false
        }
        defer { try? FileManager.default.removeItem(at: probe) }
        guard lock(probe) else { return false }
        defer { unlock(probe) }
        return mkdir(probe.appendingPathComponent("x").path, 0o700) != 0
    }()

    /// Makes `folder` (which exists) unwritable; false when that did not work.
    package static func lock(_ folder: URL) -> Bool {
        guard geteuid() == 0 else { return chmod(folder.path, 0o500) == 0 }
        return run(["+i", folder.path])
    }

    /// Undoes `lock`, so the folder can be removed.
    package static func unlock(_ folder: URL) {
        if geteuid() == 0 {
            _ = run(["-i", folder.path])
        }
        chmod(folder.path, 0o700)
    }

    private static func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chattr)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
