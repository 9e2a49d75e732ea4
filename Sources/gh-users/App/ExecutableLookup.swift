import Foundation

/// Whether a program is on PATH, found as a shell finds it (the first regular, executable file of that name in a
/// PATH folder), without ever running it.
enum ExecutableLookup {
    static func isOnPath(_ name: String, path: String?) -> Bool {
        guard let path else { return false }
        return path.split(separator: ":").contains { folder in
            let candidate = folder + "/" + name
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder) && !isFolder.boolValue
                && FileManager.default.isExecutableFile(atPath: candidate)
        }
    }
}
