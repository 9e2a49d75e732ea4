import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads `--token-file PATH`: a regular file, or a pipe or FIFO such as `/dev/stdin` or `<(pass show gh)`.
/// FileManager cannot read those (it sizes the file first, and a pipe has no size), so this reads the
/// descriptor to its end. The text comes back as the token alone, or the error says what is wrong, naming
/// the file and never its contents.
enum TokenFileReader {
    /// Far more than any token; stops `--token-file /dev/zero` (or a stream that never ends) from filling memory.
    static let limitBytes = 64 * 1024

    static func read(_ path: String) throws(TokenFileError) -> AppEnvironment.TokenFile {
        let name = "the token file '\(path)'"
        // O_NOCTTY: /dev/tty as a token file must not become the controlling terminal.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            throw TokenFileError(message: "cannot read \(name): \(reason(errno))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw TokenFileError(message: "cannot read \(name): \(reason(errno))")
        }
        let kind = Int(info.st_mode) & Int(S_IFMT)
        let (bytes, code) = readToEnd(descriptor)
        if let code {
            throw TokenFileError(message: "cannot read \(name): \(reason(code))")
        }
        guard bytes.count <= limitBytes else {
            throw TokenFileError(
                message: "\(name) is larger than \(limitBytes / 1024) KiB; it should hold the token alone")
        }
        let token = ConnectionSettings.tokenFileText(String(decoding: bytes, as: UTF8.self))
        guard !token.isEmpty else {
            throw TokenFileError(message: "\(name) is empty")
        }
        if let problem = ConnectionSettings.tokenProblem(token) {
            throw TokenFileError(message: "\(name) \(problem)")
        }
        // Only a file or a named FIFO keeps its mode; a terminal's or an anonymous pipe's says nothing about
        // who could read the token.
        let keepsMode = kind == Int(S_IFREG) || kind == Int(S_IFIFO)
        return AppEnvironment.TokenFile(
            contents: token, readableByOthers: keepsMode && Int(info.st_mode) & 0o077 != 0)
    }

    /// Everything up to the end, or a little more than the limit; the errno of a failed read.
    private static func readToEnd(_ descriptor: Int32) -> ([UInt8], Int32?) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= limitBytes {
            let count = buffer.withUnsafeMutableBytes { raw in
                #if canImport(Glibc)
                    Glibc.read(descriptor, raw.baseAddress!, raw.count)
                #else
                    Darwin.read(descriptor, raw.baseAddress!, raw.count)
                #endif
            }
            if count < 0 {
                if errno == EINTR { continue }
                return (bytes, errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return (bytes, nil)
    }

    /// strerror's text, lowercased as the rest of a message is: "no such file or directory".
    private static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
