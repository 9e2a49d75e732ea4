import Foundation
import Testing

/// What gh-users reads or opens may block for as long as the other end pleases: a FIFO with no writer or no
/// reader, a pipe whose writer never closes it, stdin that never ends. The first signal must still stop it at
/// once (`timeout` sends only one), and stdin must never fill memory.
struct BlockingInputEndToEndTests {
    /// Each case blocks in open(2) or read(2). Fd 7 is a pipe whose writer stays open (a `sleep`): stdin that
    /// never ends.
    private static let cases = [
        "token-file FIFO": #""$GH_USERS" me --token-file tok"#,
        "token-file stdin": #""$GH_USERS" me --token-file /dev/stdin <&7"#,
        "output FIFO": #""$GH_USERS" list --all --output out --api-url http://127.0.0.1:9"#,
        "show -": #""$GH_USERS" show - --api-url http://127.0.0.1:9 <&7"#,
        "follow -": #""$GH_USERS" follow - --api-url http://127.0.0.1:9 <&7"#,
    ]

    /// `run` starts a case, waits until it blocks (the kernel's wchan shows two threads waiting on a pipe or a FIFO:
    /// the signal thread and the blocked call; at most 4 s), sends one signal, and kills it 20 s later if it is
    /// still there, which is the failure: a swallowed signal. It records the status and the milliseconds from
    /// the signal to the end. The killer takes its `sleep` with it when stopped: a sleep left behind would hold
    /// the test run's output open for its 20 s after the tests end. A script's background job starts with SIGINT ignored, which gh-users keeps (as
    /// `sleep` does, issue 38), so each case starts with every signal at its default, as a foreground job's are.
    private static let runner = #"""
        mkfifo tok out
        exec 7< <(exec sleep 12); sleeper=$!
        blocked() {
            for f in /proc/$1/task/*/wchan; do cat "$f" 2>/dev/null; echo; done | grep -cE 'pipe_read|wait_for_partner'
        }
        run() {
            local index=$1; shift
            eval "env --default-signal $* 2>err$index &"; local pid=$!
            local waited=0
            while [ "$(blocked $pid)" -lt 2 ] && [ $waited -lt 200 ]; do sleep 0.02; waited=$((waited + 1)); done
            local start=$(date +%s%N)
            kill -$SIG $pid
            (trap 'kill $nap 2>/dev/null; exit' TERM; sleep 20 & nap=$!; wait $nap; kill -9 $pid 2>/dev/null) &
            local killer=$!
            wait $pid; local status=$?
            kill $killer 2>/dev/null; wait $killer 2>/dev/null
            echo "$index $status $(( ($(date +%s%N) - start) / 1000000 )) $(grep -c 'gh-users: interrupted' err$index)" >> results
        }
        """#

    @Test(arguments: [("TERM", 143), ("INT", 130), ("HUP", 129)])
    func theFirstSignalStopsABlockedOpenOrRead(signal: String, status: Int) async throws {
        // Three rounds of every case at once: a stress test of the signal against the blocking call.
        let runs = (0..<3).flatMap { round in
            Self.cases.sorted { $0.key < $1.key }.map { ("\($0.key) #\(round)", $0.value) }
        }
        let script =
            Self.runner + "\nSIG=\(signal)\n"
            + runs.enumerated().map { index, run in "run \(index) '\(run.1)' &\n" }.joined()
            + "wait $(jobs -p); exec 7<&-; kill $sleeper; cat results\n"
        let result = try await BinaryRunner.shell(script, timeout: 90)
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ") }
        #expect(lines.count == runs.count, "\(result.stdout)\(result.stderr)")
        for line in lines where line.count == 4 {
            let name = runs[Int(line[0])!].0
            // A swallowed signal ends at 20 s by SIGKILL, exit 137: the status tells it, not a stopwatch.
            #expect(Int(line[1]) == status, "\(name): exit \(line[1]), \(line[2]) ms after the signal")
            #expect(line[3] == "1", "\(name): no 'interrupted' on stderr")
        }
    }

    /// `yes | tr -d '\n'` never sends a newline: the first 1 KiB is no login, so the run ends at once, under an
    /// address-space cap that reading it all would pass, and shows only a short prefix of the line.
    @Test(arguments: ["show", "follow", "unfollow"])
    func anEndlessLineIsRefusedAtOnceInBoundedMemory(command: String) async throws {
        let result = try await BinaryRunner.shell(
            #"ulimit -v 2000000; yes | tr -d '\n' | timeout -k 2 50 "$GH_USERS" "#
                + "\(command) - \(command == "show" ? "" : "--yes ")--api-url http://127.0.0.1:9; echo \"status $?\" >&2"
        )
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasSuffix("status 64\n"), "\(result.stderr)")
        #expect(result.stderr.contains("longer than 1024 bytes"), "\(result.stderr)")
        #expect(result.stderr.contains("stdin"))
        #expect(!result.stderr.contains(String(repeating: "y", count: 100)))
    }

    /// A 50 MB line after a good one: refused with a prefix, not echoed whole.
    @Test func aLongLineIsNamedByItsNumberAndAShortPrefix() async throws {
        let result = try await BinaryRunner.shell(
            #"(printf 'octocat\n\n'; head -c 50000000 /dev/zero | tr '\0' a; echo) | "#
                + #""$GH_USERS" show - --api-url http://127.0.0.1:9"#)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("line 3 of stdin"), "\(result.stderr)")
        #expect(result.stderr.count < 300, "\(result.stderr.prefix(300))")
    }

    /// Accounts and lines are capped, so an endless stream of valid logins ends too, before anything is sent:
    /// the same login again at the line cap, new ones at the cap of accounts.
    @Test(arguments: [
        ("yes octocat", "more than 100000 lines"), ("seq 1 1000000000", "more than 10000 logins"),
    ])
    func endlessLoginsAreCapped(source: String, saying: String) async throws {
        let result = try await BinaryRunner.shell(
            #"ulimit -v 2000000; "# + source
                + #" | timeout -k 2 20 "$GH_USERS" show - --api-url http://127.0.0.1:9"#)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(saying), "\(result.stderr)")
    }
}
