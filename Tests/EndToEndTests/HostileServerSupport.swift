import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A zlib stream (`Content-Encoding: deflate`) that inflates to `prefix`, then `spaces` spaces, then `suffix`,
/// built by hand with fixed Huffman codes: each 258 spaces cost 13 bits, so 72 MiB of JSON whitespace fits in
/// about half a megabyte, the shape of a compression bomb.
enum DeflateBomb {
    static func zlib(prefix: String, spaces: Int, suffix: String) -> (body: [UInt8], inflatedSize: Int) {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        var adler = Adler32()
        for byte in Array(prefix.utf8) {
            bits.literal(byte)
            adler.add(byte, times: 1)
        }
        // One literal space, then copies of length 258 at distance 1: symbol 285 (code 11000101) and distance
        // code 0 (00000), 13 bits written at once, least significant first, so the test process (which shares
        // its few threads with every other test) spends milliseconds here, not seconds.
        let runs = max(0, spaces - 1) / 258
        let loose = max(0, spaces - 1) % 258
        if spaces > 0 { bits.literal(0x20) }
        let copy: UInt32 = 0b00000_10100011
        for _ in 0..<runs { bits.write(copy, count: 13) }
        for _ in 0..<loose { bits.literal(0x20) }
        adler.add(0x20, times: spaces)
        for byte in Array(suffix.utf8) {
            bits.literal(byte)
            adler.add(byte, times: 1)
        }
        bits.huffman(0, length: 7)  // end of block
        let checksum = adler.value
        let body =
            [0x78, 0x01] + bits.finish()
            + [
                UInt8(checksum >> 24), UInt8((checksum >> 16) & 0xFF), UInt8((checksum >> 8) & 0xFF),
                UInt8(checksum & 0xFF),
            ]
        return (body, prefix.utf8.count + spaces + suffix.utf8.count)
    }

    private struct BitWriter {
        private var bytes: [UInt8] = []
        private var buffer: UInt64 = 0
        private var filled = 0

        /// Plain values go least significant bit first.
        mutating func write(_ value: UInt32, count: Int) {
            buffer |= UInt64(value & ((1 << UInt32(count)) - 1)) << UInt64(filled)
            filled += count
            while filled >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                filled -= 8
            }
        }

        /// Huffman codes go most significant bit first.
        mutating func huffman(_ code: UInt32, length: Int) {
            var reversed: UInt32 = 0
            for index in 0..<length { reversed |= ((code >> UInt32(index)) & 1) << UInt32(length - 1 - index) }
            write(reversed, count: length)
        }

        /// Literals 0–143 have the 8-bit codes 0x30…; ASCII is all the tests need.
        mutating func literal(_ byte: UInt8) {
            precondition(byte < 144)
            huffman(0x30 + UInt32(byte), length: 8)
        }

        mutating func finish() -> [UInt8] {
            if filled > 0 { bytes.append(UInt8(buffer & 0xFF)) }
            return bytes
        }
    }

    /// Adler-32 in closed form per run, so tens of MiB of spaces cost nothing to sum.
    private struct Adler32 {
        private var a: UInt64 = 1
        private var b: UInt64 = 0
        private let modulus: UInt64 = 65_521

        mutating func add(_ byte: UInt8, times: Int) {
            let count = UInt64(times)
            let triangle = (count % (2 * modulus)) * ((count + 1) % (2 * modulus)) / 2 % modulus
            b = (b + (count % modulus) * a + UInt64(byte) * triangle) % modulus
            a = (a + (count % modulus) * UInt64(byte)) % modulus
        }

        var value: UInt32 { UInt32(b << 16 | a) }
    }
}

/// `openssl s_server` with a fresh self-signed certificate for 127.0.0.1, when openssl is installed.
final class SelfSignedTLSServer {
    static let openssl = ["/usr/bin/openssl", "/bin/openssl", "/usr/local/bin/openssl"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    let port: UInt16
    private let process: Process
    private let folder: URL
    private let log: URL

    /// Started with `start()`, which waits without holding one of the test process's few threads.
    private init(port: UInt16, process: Process, folder: URL, log: URL) {
        self.port = port
        self.process = process
        self.folder = folder
        self.log = log
    }

    static func start() async throws -> SelfSignedTLSServer {
        guard let openssl = SelfSignedTLSServer.openssl else { throw POSIXError(.ENOENT) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("key.pem").path
        let certificate = folder.appendingPathComponent("cert.pem").path
        try await SelfSignedTLSServer.run(
            openssl,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
                "-out", certificate, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        let port = try LoopbackListener.freePort()
        let log = folder.appendingPathComponent("s_server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key, "-www"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        try output.close()
        let server = SelfSignedTLSServer(port: port, process: process, folder: folder, log: log)
        for _ in 0..<250 where !canConnect(port) {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard canConnect(port) else {
            server.stop()
            throw POSIXError(.ETIMEDOUT)
        }
        return server
    }

    /// Handshakes the server refused because the client did not trust its certificate.
    var refusedHandshakes: Int {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "alert unknown ca").count - 1
    }

    /// SIGKILL: started from the test process, s_server ignored SIGTERM, and waiting for it never ended.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    private static func run(_ executable: String, _ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
        guard status == 0 else { throw POSIXError(.EINVAL) }
    }

    private static func canConnect(_ port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
