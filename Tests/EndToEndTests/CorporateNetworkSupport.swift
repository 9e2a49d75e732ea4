import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP proxy of a few lines, as a company runs one: `CONNECT host:port` opens a tunnel, and an
/// absolute-form `GET http://host:port/path` is forwarded. It keeps every request head it was sent and every
/// byte it relayed, so a test can say what the proxy could read. `refusing` answers every CONNECT with that
/// status instead, as a proxy does whose policy keeps a host out (403) or that wants credentials (407).
final class ConnectProxy: @unchecked Sendable {
    private var listener: LoopbackListener?
    private let lock = NSLock()
    private var seenHeads: [String] = []
    private var seenBytes: [UInt8] = []

    var port: UInt16 { listener?.port ?? 0 }
    var url: String { "http://127.0.0.1:\(port)" }
    /// Each request head the proxy read, in order: "CONNECT 127.0.0.1:8443 HTTP/1.1\r\nHost: …".
    var heads: [String] { lock.withLock { seenHeads } }
    /// The first line of each head.
    var requestLines: [String] { heads.map { ConnectProxy.requestLine($0) } }
    /// Everything the proxy saw: the heads and the bytes it relayed both ways.
    var everything: [UInt8] { lock.withLock { Array(seenHeads.joined().utf8) + seenBytes } }

    init(refusing status: Int? = nil) throws {
        listener = try LoopbackListener { [self] client in serve(client, refusing: status) }
    }

    func stop() {
        listener?.stop()
    }

    private func serve(_ client: Int32, refusing status: Int?) {
        defer { close(client) }
        guard let head = LoopbackListener.readHead(client) else { return }
        lock.withLock { seenHeads.append(head) }
        let parts = ConnectProxy.requestLine(head).split(separator: " ")
        guard parts.count == 3 else { return }
        if parts[0] == "CONNECT" {
            if let status {
                _ = ConnectProxy.send(client, Array("HTTP/1.1 \(status) Refused\r\nContent-Length: 0\r\n\r\n".utf8))
                return
            }
            guard let colon = parts[1].lastIndex(of: ":"), let port = UInt16(parts[1][parts[1].index(after: colon)...]),
                let upstream = ConnectProxy.connect(port: port)
            else { return }
            defer { close(upstream) }
            guard ConnectProxy.send(client, Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)) else { return }
            relay(client, upstream)
        } else {
            // An absolute-form request for a plain-http origin: forwarded in origin form.
            guard let target = URL(string: String(parts[1])), let port = target.port.map(UInt16.init),
                let upstream = ConnectProxy.connect(port: port)
            else { return }
            defer { close(upstream) }
            let path = target.path + (target.query.map { "?" + $0 } ?? "")
            let forwarded = head.replacingOccurrences(of: String(parts[1]), with: path.isEmpty ? "/" : path)
            guard ConnectProxy.send(upstream, Array(forwarded.utf8)) else { return }
            relay(client, upstream)
        }
    }

    /// Both directions until either side closes; every byte is kept.
    private func relay(_ client: Int32, _ upstream: Int32) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            copy(from: upstream, to: client)
            done.signal()
        }
        copy(from: client, to: upstream)
        done.wait()
    }

    private func copy(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = read(source, &buffer, buffer.count)
            if count <= 0 { break }
            let chunk = Array(buffer[0..<count])
            lock.withLock { seenBytes += chunk }
            if !ConnectProxy.send(destination, chunk) { break }
        }
        // The other direction's read ends too, so the relay is over for both.
        shutdown(destination, Int32(SHUT_RDWR))
        shutdown(source, Int32(SHUT_RDWR))
    }

    /// (A String's "\r\n" is one Character, so the line is cut at the pair.)
    private static func requestLine(_ head: String) -> String {
        head.components(separatedBy: "\r\n").first ?? head
    }

    private static func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// The tests' servers all listen on 127.0.0.1.
    private static func connect(port: UInt16) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// A private certificate authority and a certificate it signed for 127.0.0.1, made with the openssl command
/// line: what a company's TLS-inspecting proxy or GitHub Enterprise server presents.
struct PrivateCA {
    let folder: URL
    var certificate: URL { folder.appendingPathComponent("ca.pem") }
    var serverCertificate: URL { folder.appendingPathComponent("server.pem") }
    var serverKey: URL { folder.appendingPathComponent("server.key") }

    static func make() async throws -> PrivateCA {
        guard let openssl = TLSServer.openssl else { throw POSIXError(.ENOENT) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ca = PrivateCA(folder: folder)
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try await Subprocess.check(
            openssl,
            ["req", "-x509"] + curve + [
                "-keyout", path("ca.key"), "-out", ca.certificate.path, "-days", "1", "-subj",
                "/CN=gh-users test corporate CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
            ])
        try await Subprocess.check(
            openssl,
            ["req"] + curve + ["-keyout", ca.serverKey.path, "-out", path("server.csr"), "-subj", "/CN=127.0.0.1"])
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: path("server.ext"), atomically: true, encoding: .utf8)
        try await Subprocess.check(
            openssl,
            [
                "x509", "-req", "-in", path("server.csr"), "-CA", ca.certificate.path, "-CAkey", path("ca.key"),
                "-CAcreateserial", "-out", ca.serverCertificate.path, "-days", "1", "-extfile", path("server.ext"),
            ])
        return ca
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The system's bundle with this CA added, as `update-ca-certificates` would make it.
    func systemBundleWithCA() throws -> URL {
        let bundle = folder.appendingPathComponent("ca-certificates.crt")
        let system = try Data(contentsOf: URL(fileURLWithPath: SystemTrust.bundle))
        try (Data(contentsOf: certificate) + Data("\n".utf8) + system).write(to: bundle)
        return bundle
    }
}

/// Runs the binary as if the CA were in the system store, without touching the machine's store: in a user and
/// mount namespace of its own, the system bundle's path shows a copy with the CA added (a bind mount seen by
/// that process alone). It stands for the step docs/NETWORK.md asks of users (`update-ca-certificates`), which is
/// the only way gh-users can trust another CA; where namespaces are not allowed the tests that need it skip.
enum SystemTrust {
    /// Where swift-corelibs-foundation finds the bundle on Debian and Ubuntu (and libcurl's built-in default).
    static let bundle = "/etc/ssl/certs/ca-certificates.crt"
    static let unshare = ["/usr/bin/unshare", "/bin/unshare"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static let canSimulate: Bool = {
        guard let unshare, FileManager.default.fileExists(atPath: bundle) else { return false }
        let run = try? SpawnedProcess.run(
            unshare, ["-U", "-r", "-m", "/bin/sh", "-c", "mount --bind \(bundle) \(bundle)"])
        return run?.status == 0
    }()

    static func run(_ arguments: [String], trusting bundleWithCA: URL, environment: [String: String] = [:])
        async throws -> RunResult
    {
        guard let unshare else { throw POSIXError(.ENOENT) }
        var environment = environment
        environment["GH_USERS_TEST_BUNDLE"] = bundleWithCA.path
        let inner = "mount --bind \"$GH_USERS_TEST_BUNDLE\" \(bundle) && exec \"$GH_USERS\" \"$@\""
        let script = ([unshare, "-U", "-r", "-m", "/bin/sh", "-c", inner, "sh"] + arguments).map(quoted).joined(
            separator: " ")
        return try await BinaryRunner.shell("exec " + script, environment: environment)
    }

    private static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

enum Subprocess {
    /// Runs a command to its end without holding one of the test process's few threads; throws unless it exits 0.
    static func check(_ executable: String, _ arguments: [String]) async throws {
        // posix_spawn, not Foundation's Process, whose run() can crash the test process (see SpawnedProcess).
        guard try await SpawnedProcess.status(executable, arguments) == 0 else { throw POSIXError(.EINVAL) }
    }

    static func canConnect(_ port: UInt16) -> Bool {
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

/// A loopback port that refuses every connection for as long as this value lives: its socket is bound but never
/// listens, so a connect is refused, and no other test's server can be given the port meanwhile (a port probed
/// and then closed can be, and was: a "refused" test once reached another test's stand-in).
final class RefusingPort {
    let port: UInt16
    private let descriptor: Int32

    /// Any free port, or `port` (a server's just stopped, whose connections may linger in TIME_WAIT): a stopped
    /// server's port left free was once given to another test's server, and the run meant to find nothing
    /// listening there got "the response was cut short".
    init(port wanted: UInt16 = 0) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var enabled: Int32 = 1
        if wanted != 0 {
            _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &enabled, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = wanted.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }
}
