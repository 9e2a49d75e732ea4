import Foundation
import Testing

/// What `Scripts/bench --network` counts and refuses, checked without root: its `WireCounts` fed frames built
/// here, and its port probe against real sockets. The bench's numbers in docs/PERFORMANCE.md rest on both.
struct NetworkBenchScriptTests {
    private static let scripts = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts").path
    private static let needsPython = Testing.ConditionTrait.enabled(
        if: Tool.find("python3") != nil, "needs python3 (the bench is a Python script)")

    /// Runs `body` after `import bench_network as b`; its stdout, which must be one JSON value.
    private func python(_ body: String) async throws -> Any {
        let script = "import json, socket, sys\nsys.path.insert(0, sys.argv[1])\nimport bench_network as b\n" + body
        let result = try await BinaryRunner.shell(
            #"python3 -c "$SCRIPT" "$SCRIPTS""#, environment: ["SCRIPT": script, "SCRIPTS": Self.scripts])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
    }

    /// A client frame to the HTTP/2 port: Ethernet, IPv4 (20 bytes), TCP (20 bytes), from `port`.
    private static let frame = """
        def frame(port, flags, payload=b""):
            ethernet = bytes(12) + b"\\x08\\x00"
            ip = bytes([0x45]) + bytes(8) + bytes([6]) + bytes(10)
            tcp = port.to_bytes(2, "big") + b.H2_PORT.to_bytes(2, "big") + bytes(8) + bytes([0x50, flags]) + bytes(6)
            return ethernet + ip + tcp + payload
        SYN, ACK, FIN, RST = 0x02, 0x10, 0x01, 0x04

        """

    /// The last run's FIN can reach the relay after the next run began: it is not that run's close, so the
    /// next run's first connection is no reopen. (Counted as one, a W8 run once showed "1 reopened".)
    @Test(needsPython) func aCloseOfTheRunBeforeIsNotAReopen() async throws {
        let counts = try await python(
            Self.frame + """
                w = b.WireCounts()
                w.begin_run()
                w.count(frame(40000, SYN))
                w.begin_run()
                w.count(frame(40000, FIN | ACK))
                w.count(frame(40001, SYN))
                print(json.dumps(w.counts()))
                """)
        #expect(counts as? [Int] == [2, 0, 0])
    }

    /// A connection the run itself closed, then a new one: reopened, once; a ClientHello is counted apart.
    @Test(needsPython) func aRunsOwnCloseThenAConnectionIsAReopen() async throws {
        let counts = try await python(
            Self.frame + """
                w = b.WireCounts()
                w.begin_run()
                w.count(frame(40000, SYN))
                w.count(frame(40000, ACK, bytes([0x16, 3, 1, 0, 200, 0x01])))
                w.count(frame(40000, RST))
                w.count(frame(40002, SYN))
                print(json.dumps(w.counts()))
                """)
        #expect(counts as? [Int] == [2, 1, 1])
    }

    /// A bench without its network, for what it decides before anything runs: a compared build and curl beside
    /// this build, and curl's W2 URLs in a config file, as `workloads()` writes them.
    private static let bench = """
        n = object.__new__(b.NetworkBench)
        n.gh, n.curl, n.home, n.runs = "/new/gh-users", "/usr/bin/curl", "/home", 2
        n.compared = [("old", ["/old/gh-users", "--flag"])]
        n.h1_files = {"/w/w2.curl": "/w/w2-h1.curl"}
        n.network = type("N", (), {"cert": "/w/bench.crt"})()
        peers = [("gh-users", ["/new/gh-users", "show", "a"], 1),
                 ("curl", ["/usr/bin/curl", "-K", "/w/w2.curl", "https://api.bench.test/users?per_page=100"], 0)]

        """

    /// `--compare`: another build runs the very same arguments over the same three cells, and curl runs over
    /// HTTP/1.1 too, once trusting the bench's certificate alone, so a cell shows what the CA bundle costs.
    @Test(needsPython) func aComparedBuildRunsTheSameCellsAndCurlRunsOverHTTP1() async throws {
        let answer = try await python(
            Self.bench + """
                print(json.dumps([[cell, argv, env["GH_USERS_API_URL"], cold]
                                  for cell, argv, env, _, cold in n.jobs(peers)]))
                """)
        let jobs = try #require(answer as? [[Any]])
        let h2 = "https://api.bench.test"
        let h1 = "https://api.bench.test:8443"
        let expected: [(String, [String], String, Bool)] = [
            ("gh-users h2", ["/new/gh-users", "show", "a"], h2, false),
            ("gh-users h1", ["/new/gh-users", "show", "a"], h1, false),
            ("gh-users h1 first run", ["/new/gh-users", "show", "a"], h1, true),
            ("old h2", ["/old/gh-users", "--flag", "show", "a"], h2, false),
            ("old h1", ["/old/gh-users", "--flag", "show", "a"], h1, false),
            ("old h1 first run", ["/old/gh-users", "--flag", "show", "a"], h1, true),
            ("curl h2", ["/usr/bin/curl", "-K", "/w/w2.curl", "\(h2)/users?per_page=100"], h2, false),
            ("curl h1", ["/usr/bin/curl", "-K", "/w/w2-h1.curl", "\(h1)/users?per_page=100"], h1, false),
            (
                "curl h1 bench CA only",
                ["/usr/bin/curl", "--cacert", "/w/bench.crt", "-K", "/w/w2-h1.curl", "\(h1)/users?per_page=100"], h1,
                false
            ),
        ]
        #expect(jobs.map { $0.first as? String } == expected.map(\.0))
        for (job, want) in zip(jobs, expected) {
            #expect(job.dropFirst().first as? [String] == want.1, "\(want.0)")
            #expect(job.dropFirst(2).first as? String == want.2, "\(want.0)")
            #expect(job.last as? Bool == want.3, "\(want.0)")
        }
    }

    /// Every cell's runs take turns within each round, so a machine that slows down midway slows them all
    /// alike; each cell keeps its own runs after the warm-up, with their CPU time.
    @Test(needsPython) func cellsTakeTurnsWithinEachRound() async throws {
        let answer = try await python(
            Self.bench + """
                ran = []
                class Runner:
                    def run(self, argv, env):
                        ran.append(argv[0])
                        return {"status": 0, "seconds": 0.5, "cpu": 0.25, "lines": 1, "stderr": ""}
                n.runner = Runner()
                n.network.relay = type("R", (), {"wire": b.WireCounts()})()
                n.forget_protocols = lambda: ran.append("forget")
                jobs = [("a", ["a"], {}, 1, False), ("b", ["b"], {}, 1, True)]
                results = n.measure("W2", jobs)
                print(json.dumps([ran, {cell: [list(run) for run in runs] for cell, runs in results.items()}]))
                """)
        let values = try #require(answer as? [Any])
        #expect(
            values.first as? [String] == ["a", "forget", "b", "a", "forget", "b", "a", "forget", "b"])
        let results = try #require(values.last as? [String: [[Double]]])
        #expect(results["a"] == [[0.5, 0, 0, 0, 0.25], [0.5, 0, 0, 0, 0.25]])
        #expect(results["b"]?.count == 2)
    }

    /// A listener holds the port (an nginx a killed bench left); a connection in TIME_WAIT does not, as it does
    /// not stop nginx's own bind.
    @Test(needsPython) func thePortProbeSeesListenersNotTimeWait() async throws {
        let answers = try await python(
            """
            listener = socket.socket()
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", 0))
            listener.listen()
            port = listener.getsockname()[1]
            held = b.port_taken("127.0.0.1", port)
            client = socket.create_connection(("127.0.0.1", port))
            accepted, _ = listener.accept()
            accepted.close()
            client.recv(1)
            client.close()
            listener.close()
            plain = socket.socket()
            try:
                plain.bind(("127.0.0.1", port))
                waiting = False
            except OSError:
                waiting = True
            plain.close()
            print(json.dumps([held, waiting, b.port_taken("127.0.0.1", port)]))
            """)
        let values = try #require(answers as? [Any])
        #expect(values.count == 3)
        #expect(values.first as? String == "Address already in use")
        // The server's side closed first: its end is in TIME_WAIT, which a plain bind would take for taken.
        #expect(values.dropFirst().first as? Bool == true)
        #expect(values.last is NSNull)
    }
}
