import Glibc

enum LoopbackSocket {
    /// Binds 127.0.0.1 only: the stand-in must never be reachable from other machines.
    static func makeListener(port: Int) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw StandInServerError.socketFailure(operation: "socket", errno: errno) }
        func failure(_ operation: String) -> StandInServerError {
            let code = errno
            close(descriptor)
            return .socketFailure(operation: operation, errno: code)
        }
        var enabled: Int32 = 1
        // Lets a restarted benchmark server reuse a port whose previous connections are still in TIME_WAIT.
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &enabled, socklen_t(MemoryLayout<Int32>.size))
        let bound = withLoopbackAddress(port: port) { bind(descriptor, $0, $1) }
        guard bound == 0 else { throw failure("bind 127.0.0.1:\(port)") }
        guard listen(descriptor, 128) == 0 else { throw failure("listen") }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw failure("getsockname") }
        return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
    }

    /// `body` (bind or connect) given 127.0.0.1:`port`.
    static func withLoopbackAddress(port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// Appends whatever arrives; returns false on EOF or error.
    static func receive(from descriptor: Int32, into buffer: inout [UInt8], scratch: inout [UInt8]) -> Bool {
        var count: Int
        repeat {
            count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        } while count < 0 && errno == EINTR
        buffer.append(contentsOf: scratch[0..<max(0, count)])
        return count > 0
    }

    /// Sends every byte, coping with partial writes; MSG_NOSIGNAL turns a vanished peer into EPIPE, not SIGPIPE.
    static func sendAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0, errno == EINTR { continue }
                guard sent >= 0 else { return false }
                offset += sent
            }
            return true
        }
    }
}
