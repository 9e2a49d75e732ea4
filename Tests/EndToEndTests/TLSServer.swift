import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// TLS on 127.0.0.1 with a certificate of the test's choosing, served by python3's ssl module (the stand-in speaks
/// plain HTTP/1.1 only, and `openssl s_server` cannot forward): in front of a plain-http server, the stand-in or
/// the replay server, it relays the bytes both ways and never answers by itself, so it is no GitHub of its own.
/// The certificate is self-signed for 127.0.0.1 (`selfSigned(relayingTo:)`) or one a private CA signed
/// (`start(ca:relayingTo:)`). Handshakes a client refused because it did not trust the certificate are counted
/// from its log.
final class TLSServer {
    static let openssl = ["/usr/bin/openssl", "/bin/openssl", "/usr/local/bin/openssl"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let python3 = ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    /// Whether certificates can be made (openssl) and TLS served (python3) here.
    static var available: Bool { openssl != nil && python3 != nil }

    let port: UInt16
    private let process: SpawnedProcess
    private let log: URL
    /// A folder of this server's own, removed when it stops.
    private let owned: URL?

    private init(port: UInt16, process: SpawnedProcess, log: URL, owned: URL?) {
        self.port = port
        self.process = process
        self.log = log
        self.owned = owned
    }

    /// A fresh self-signed certificate for 127.0.0.1, in a folder of its own; relaying to `upstream`, a plain-http
    /// port.
    static func selfSigned(relayingTo upstream: UInt16) async throws -> TLSServer {
        guard let openssl else { throw POSIXError(.ENOENT) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gh-users-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("key.pem")
        let certificate = folder.appendingPathComponent("cert.pem")
        do {
            try await Subprocess.check(
                openssl,
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                    key.path, "-out", certificate.path, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext",
                    "subjectAltName=IP:127.0.0.1",
                ])
            return try await start(certificate: certificate, key: key, in: folder, relayingTo: upstream, owned: true)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// The certificate `ca` signed for 127.0.0.1; relaying to `upstream`, a plain-http port.
    static func start(ca: PrivateCA, relayingTo upstream: UInt16) async throws -> TLSServer {
        try await start(
            certificate: ca.serverCertificate, key: ca.serverKey, in: ca.folder, relayingTo: upstream, owned: false)
    }

    private static func start(certificate: URL, key: URL, in folder: URL, relayingTo upstream: UInt16, owned: Bool)
        async throws -> TLSServer
    {
        guard let python3 else { throw POSIXError(.ENOENT) }
        let name = "tls-\(UUID().uuidString)"
        let script = folder.appendingPathComponent(name + ".py")
        let portFile = folder.appendingPathComponent(name + ".port")
        let log = folder.appendingPathComponent(name + ".log")
        try source.write(to: script, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { throw POSIXError(.EBADF) }
        defer { close(null) }
        let process = try SpawnedProcess(
            executable: python3,
            arguments: [script.path, certificate.path, key.path, String(upstream), portFile.path, log.path],
            environment: ProcessInfo.processInfo.environment, directory: folder.path, stdout: null, stderr: null)
        // Reaped as soon as it ends, so `isRunning` turns false then.
        process.onExit { _ in }
        // Waited for without holding one of the test process's few threads.
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: portFile.path) {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard let text = try? String(contentsOf: portFile, encoding: .utf8), let port = UInt16(text) else {
            process.send(SIGKILL)
            while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
            throw POSIXError(.ETIMEDOUT)
        }
        return TLSServer(port: port, process: process, log: log, owned: owned ? folder : nil)
    }

    /// Handshakes the server saw refused because the client did not trust its certificate.
    var refusedHandshakes: Int {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "ALERT_UNKNOWN_CA").count - 1
    }

    func stop() {
        process.send(SIGKILL)
        while process.isRunning { usleep(1_000) }
        if let owned { try? FileManager.default.removeItem(at: owned) }
    }

    /// The port is written to a file once it listens (renamed into place, so it is never read half-written); each
    /// failed handshake is a line of the log.
    private static let source = #"""
        import os, socket, ssl, sys, threading
        cert, key, upstream, port_file, log_file = sys.argv[1:6]
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        log_lock = threading.Lock()
        with open(port_file + ".tmp", "w") as f:
            f.write(str(listener.getsockname()[1]))
        os.rename(port_file + ".tmp", port_file)

        def pipe(source, destination):
            try:
                while True:
                    data = source.recv(65536)
                    if not data:
                        break
                    destination.sendall(data)
            except OSError:
                pass
            for s in (source, destination):
                try:
                    s.close()
                except OSError:
                    pass

        def serve(raw):
            try:
                client = context.wrap_socket(raw, server_side=True)
            except (OSError, ssl.SSLError) as error:
                with log_lock, open(log_file, "a") as log:
                    log.write(str(error) + "\n")
                raw.close()
                return
            upstream_socket = socket.create_connection(("127.0.0.1", int(upstream)))
            threading.Thread(target=pipe, args=(upstream_socket, client), daemon=True).start()
            pipe(client, upstream_socket)

        while True:
            raw, _ = listener.accept()
            threading.Thread(target=serve, args=(raw,), daemon=True).start()
        """#
}
