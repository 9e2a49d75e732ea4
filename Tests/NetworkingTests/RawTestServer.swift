import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback HTTP server of a few lines, for what the GitHub stand-in will not do: stream a body without
/// end, send compressed bytes, redirect anywhere. Each connection reads one request head and hands the
/// socket to `respond`, which writes through `Connection` (which counts what the peer accepted).
final class RawTestServer: @unchecked Sendable {
    final class Connection {
        let descriptor: Int32
        let head: String
        fileprivate(set) var written = 0

        fileprivate init(descriptor: Int32, head: String) {
            self.descriptor = descriptor
            self.head = head
        }

        /// false once the peer has gone away.
        @discardableResult
        func write(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { return false }
                offset += sent
                written += sent
            }
            return true
        }

        func write(_ text: String) -> Bool {
            write(Array(text.utf8))
        }
    }

    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var heads: [String] = []
    private var bytesWritten = 0
    private var ended = 0

    var requests: [String] { lock.withLock { heads } }
    /// Bytes the clients accepted, over all connections that have ended.
    var written: Int { lock.withLock { bytesWritten } }

    /// Waits (up to a generous bound) until `count` connections have been answered and closed.
    func waitForConnectionsToEnd(_ count: Int) async {
        for _ in 0..<1_000 where lock.withLock({ ended }) < count {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// `readsHead: false` answers at once, for clients that never send an HTTP head (a TLS ClientHello).
    init(readsHead: Bool = true, respond: @escaping @Sendable (Connection) -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                Thread.detachNewThread { [self] in
                    defer { close(client) }
                    guard let head = readsHead ? RawTestServer.readHead(client) : "" else { return }
                    lock.withLock { heads.append(head) }
                    let connection = Connection(descriptor: client, head: head)
                    respond(connection)
                    lock.withLock {
                        bytesWritten += connection.written
                        ended += 1
                    }
                }
            }
        }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func readHead(_ descriptor: Int32) -> String? {
        // A byte at a time, so nothing after the head is consumed; heads are short.
        var byte: UInt8 = 0
        var head: [UInt8] = []
        while !head.ends(with: Array("\r\n\r\n".utf8)) {
            if read(descriptor, &byte, 1) != 1 { return nil }
            head.append(byte)
        }
        return String(decoding: head, as: UTF8.self)
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

/// A zlib stream (`Content-Encoding: deflate`) by hand: stored blocks only, since these tests need bytes that
/// libcurl must inflate, not a good ratio.
enum StoredDeflate {
    static func zlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let chunk = Array(data[offset..<min(offset + 65_535, data.count)])
            offset += chunk.count
            let final: UInt8 = offset >= data.count ? 1 : 0
            let length = UInt16(chunk.count)
            out += [final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += chunk
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = (b << 16) | a
        out += [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
        return out
    }
}
