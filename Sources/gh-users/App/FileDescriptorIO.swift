import AtomicCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// read(2) and write(2) to the end, through EINTR and short counts, and strerror's words for messages: what the
/// token file, the crawl state and the crawl's output file share.
enum FileDescriptorIO {
    /// A failed read or write, with its errno.
    struct Failure: Error {
        let code: Int32
    }

    /// Everything up to the end, or a little more than `limit` bytes (a stream that never ends must not fill memory).
    static func readAll(_ descriptor: Int32, limit: Int) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= limit {
            let count = buffer.withUnsafeMutableBytes { raw in
                #if canImport(Glibc)
                    Glibc.read(descriptor, raw.baseAddress!, raw.count)
                #else
                    Darwin.read(descriptor, raw.baseAddress!, raw.count)
                #endif
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(code: errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(Failure) {
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                    let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                    let written = Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw Failure(code: failure) }
    }

    /// strerror's text, lowercased as the rest of a message is: "no such file or directory".
    static func reason(_ code: Int32) -> String {
        SystemError.reason(code)
    }
}
