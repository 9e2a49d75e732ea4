"""Scripts/bench --network: gh-users as users reach GitHub, over TLS 1.3 (HTTP/2 and HTTP/1.1) across a real round
trip, with curl side by side in the same run.

The client runs in a network namespace of its own (ghb-client, 10.77.0.1). Its only link is a TAP device whose
other end is this process: every frame is held RTT/2 in each direction before it is passed to a second TAP device
in this namespace (10.77.0.2), so the round trip is real for every packet, TCP's and TLS's handshakes included
(this kernel has no netem). nginx (Debian's, installed with apt-get) terminates TLS 1.3 on 10.77.0.2: port 443
offers HTTP/2 and HTTP/1.1 by ALPN, port 8443 HTTP/1.1 alone; each proxies to a github-standin on loopback whose
Link URLs name it (--base-url). The client trusts the bench's certificate through its namespace's own /etc/ssl
(`ip netns exec` mounts /etc/netns/ghb-client/ over /etc), which is the system bundle plus that certificate, so
libcurl parses as many certificates as on a user's machine; /etc/hosts there names api.bench.test.

Connections and TLS handshakes are counted on the wire, by the relay: each TCP SYN to 443 or 8443, each TLS
ClientHello, and each SYN that follows a FIN or RST the client sent earlier in the same run (a connection closed
and opened again). Every workload's time is measured inside the client namespace around the process alone.

Needs root (namespaces, TAP devices, mounts), `ip`, and nginx; it says so and exits with status 2 otherwise.
"""

import collections
import fcntl
import json
import os
import select
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

CLIENT_NS = "ghb-client"
CLIENT_IP, SERVER_IP = "10.77.0.1", "10.77.0.2"
CLIENT_MAC, SERVER_MAC = "02:77:00:00:00:01", "02:77:00:00:00:02"
CLIENT_TAP, SERVER_TAP = "ghbc0", "ghbs0"
HOST = "api.bench.test"
# Linux's own default, which a server runs unless it was set otherwise (`--congestion-control`).
DEFAULT_CONGESTION_CONTROL = "cubic"
H2_PORT, H1_PORT = 443, 8443
TUNSETIFF = 0x400454CA
IFF_TAP, IFF_NO_PI = 0x0002, 0x1000

# Each workload's floor in round trips, as issue 29 counts them: W1 10 chained pages (TCP, TLS 1.3 and the first
# request: 3; then one a page, and the ones between); W2 50 profiles 8 at a time after the connection (7 rounds);
# W6 320 followers' profiles 8 at a time beside 4 pages; W8 10 pages and 11 GraphQL batches overlapped.
LIMIT_RTTS = {"W1": 12, "W2": 9, "W6": 43, "W8": 13}
# curl over HTTP/1.1 trusting the bench's certificate alone: a CA file of one certificate instead of the system's
# bundle, which libcurl 7.88 with OpenSSL 3.0 parses again for every connection. What the bundle costs, shown.
CURL_OWN_CA = "h1 bench CA only"


def log(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)


def run(command, **kwargs):
    return subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)


def open_tap(name):
    descriptor = os.open("/dev/net/tun", os.O_RDWR)
    fcntl.ioctl(descriptor, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TAP | IFF_NO_PI))
    return descriptor


class WireCounts:
    """What the client sent to the TLS ports, frame by frame: TCP SYNs, TLS ClientHellos, and connections opened
    after the client closed one of the run's own (reopened)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.syns = 0
        self.hellos = 0
        self.closed = 0
        self.reopened = 0
        # The client ports of the connections opened in this run.
        self.ports = set()

    def counts(self):
        with self.lock:
            return self.syns, self.hellos, self.reopened

    def begin_run(self):
        """A run starts: connections its predecessor closed at its exit are not this run's. (Their FINs can reach
        the relay after this call, so a close counts only on a connection this run opened.)"""
        with self.lock:
            self.closed = 0
            self.ports = set()

    def count(self, frame):
        # Ethernet, IPv4, TCP; the SYN that opens a connection, and a ClientHello at the start of a segment.
        if len(frame) < 54 or frame[12:14] != b"\x08\x00" or frame[23] != 6:
            return
        tcp = 14 + (frame[14] & 0x0F) * 4
        if len(frame) < tcp + 20 or int.from_bytes(frame[tcp + 2:tcp + 4], "big") not in (H2_PORT, H1_PORT):
            return
        flags = frame[tcp + 13]
        port = int.from_bytes(frame[tcp:tcp + 2], "big")
        payload = frame[tcp + (frame[tcp + 12] >> 4) * 4:]
        with self.lock:
            if flags & 0x02 and not flags & 0x10:
                self.syns += 1
                # A connection opened after the client closed one of this run's: closed and reopened.
                if self.closed:
                    self.reopened += 1
                self.ports.add(port)
            elif flags & 0x05:
                if port in self.ports:
                    self.closed += 1
            elif len(payload) > 5 and payload[0] == 0x16 and payload[5] == 0x01:
                self.hellos += 1


def port_taken(host, port):
    """Why `host:port` cannot be listened on (an nginx of a bench that was killed still holds it), or None.
    Bound as nginx binds, so a connection of the last run still in TIME_WAIT does not count."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            return error.strerror
    return None


class DelayRelay(threading.Thread):
    """Joins the two TAP devices, holding every frame `one_way` seconds, and counts what the client sends to the
    TLS ports (`WireCounts`)."""

    def __init__(self, one_way):
        super().__init__(daemon=True)
        self.one_way = one_way
        self.client = open_tap(CLIENT_TAP)
        self.server = open_tap(SERVER_TAP)
        os.set_blocking(self.client, False)
        os.set_blocking(self.server, False)
        self.wire = WireCounts()
        self.stopping = False

    def run(self):
        queues = {self.client: collections.deque(), self.server: collections.deque()}
        other = {self.client: self.server, self.server: self.client}
        while not self.stopping:
            now = time.monotonic()
            due = [queue[0][0] for queue in queues.values() if queue]
            timeout = max(0.0, min(due) - now) if due else 0.05
            readable, _, _ = select.select(list(queues), [], [], min(timeout, 0.05))
            arrived = time.monotonic()
            for descriptor in readable:
                # Every frame waiting, not one a wake-up: a page of 100 accounts is some 70 frames.
                while True:
                    try:
                        frame = os.read(descriptor, 65536)
                    except BlockingIOError:
                        break
                    if descriptor == self.client:
                        self.wire.count(frame)
                    queues[other[descriptor]].append((arrived + self.one_way, frame))
            now = time.monotonic()
            for descriptor, queue in queues.items():
                while queue and queue[0][0] <= now:
                    try:
                        os.write(descriptor, queue.popleft()[1])
                    except OSError:
                        pass

    def stop(self):
        self.stopping = True
        self.join(timeout=2)
        os.close(self.client)
        os.close(self.server)


class Network:
    """The client's namespace, the relay, the certificate, nginx and the two stand-ins; `close()` undoes it all."""

    def __init__(self, standin_binary, rtt_ms, workdir, users, congestion_control=DEFAULT_CONGESTION_CONTROL):
        self.workdir = workdir
        self.congestion_control = congestion_control
        self.etc = f"/etc/netns/{CLIENT_NS}"
        self.processes = []
        self.relay = None
        try:
            self._namespace(rtt_ms)
            self._certificate()
            self.standins = {port: self._standin(standin_binary, port, users) for port in (H2_PORT, H1_PORT)}
            self._nginx()
        except BaseException:
            self.close()
            raise

    def _namespace(self, rtt_ms):
        subprocess.run(["ip", "netns", "del", CLIENT_NS], stderr=subprocess.DEVNULL)
        run(["ip", "netns", "add", CLIENT_NS])
        self.relay = DelayRelay(rtt_ms / 2000)
        run(["ip", "link", "set", CLIENT_TAP, "netns", CLIENT_NS])
        inside = ["ip", "-n", CLIENT_NS]
        run(inside + ["link", "set", "lo", "up"])
        run(inside + ["link", "set", CLIENT_TAP, "address", CLIENT_MAC, "up"])
        run(inside + ["addr", "add", f"{CLIENT_IP}/24", "dev", CLIENT_TAP])
        run(inside + ["neigh", "add", SERVER_IP, "lladdr", SERVER_MAC, "dev", CLIENT_TAP, "nud", "permanent"])
        run(["ip", "link", "set", SERVER_TAP, "address", SERVER_MAC, "up"])
        run(["ip", "addr", "add", f"{SERVER_IP}/24", "dev", SERVER_TAP])
        run(["ip", "neigh", "add", CLIENT_IP, "lladdr", CLIENT_MAC, "dev", SERVER_TAP, "nud", "permanent"])
        # The TCP congestion control of both ends, set on the routes the bench's traffic takes, not taken from the
        # host's default: BBR paces every answer at the rate it has measured, on a connection of small answers
        # ~6.5 Mbit/s, so a page of 100 accounts (7 KB) leaves the server over 7.5 ms where CUBIC sends it at once.
        subnet = CLIENT_IP.rsplit(".", 1)[0] + ".0/24"
        for prefix, device, source in ((inside, CLIENT_TAP, CLIENT_IP), (["ip"], SERVER_TAP, SERVER_IP)):
            run(prefix + ["route", "replace", subnet, "dev", device, "proto", "kernel", "scope", "link", "src", source,
                          "congctl", self.congestion_control])
        self.relay.start()

    def _certificate(self):
        self.cert = os.path.join(self.workdir, "bench.crt")
        self.key = os.path.join(self.workdir, "bench.key")
        run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", self.key, "-out", self.cert, "-days", "2", "-subj", f"/CN={HOST}",
             "-addext", f"subjectAltName=DNS:{HOST}"])
        # The namespace's /etc/ssl: the system's, with the bench's certificate added to the bundle libcurl reads.
        shutil.rmtree(self.etc, ignore_errors=True)
        os.makedirs(self.etc)
        shutil.copytree("/etc/ssl", os.path.join(self.etc, "ssl"), symlinks=True)
        bundle = os.path.join(self.etc, "ssl", "certs", "ca-certificates.crt")
        system = open("/etc/ssl/certs/ca-certificates.crt", "rb").read()
        if os.path.lexists(bundle):
            os.remove(bundle)
        with open(bundle, "wb") as handle:
            handle.write(system + open(self.cert, "rb").read())
        with open(os.path.join(self.etc, "hosts"), "w") as handle:
            handle.write(f"127.0.0.1 localhost\n{SERVER_IP} {HOST}\n")

    def _standin(self, binary, port, users):
        base = f"https://{HOST}" + ("" if port == 443 else f":{port}")
        out = open(os.path.join(self.workdir, f"standin-{port}.out"), "w+")
        process = subprocess.Popen(
            [binary, "--users", str(users), "--port", "0", "--rate-limit", "1000000000", "--base-url", base],
            stdout=out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        self.processes.append(process)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            out.seek(0)
            line = out.readline()
            if "listening on" in line and line.endswith("\n"):
                return line.split("listening on ")[1].split()[0]
            if process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("github-standin did not start")

    def _nginx(self):
        # An nginx left by a bench that was killed keeps these ports; a new one would retry its bind for seconds
        # while the client talked to the old one, with another run's certificate.
        for port in self.standins:
            reason = port_taken(SERVER_IP, port)
            if reason:
                raise RuntimeError(f"{SERVER_IP}:{port} is taken ({reason}): an nginx of a bench that was killed "
                                   "may still run (`pgrep -a nginx`)")
        prefix = os.path.join(self.workdir, "nginx")
        os.makedirs(os.path.join(prefix, "logs"))
        self.access_log = os.path.join(prefix, "logs", "access.log")
        servers = []
        for port, upstream in self.standins.items():
            http2 = " http2" if port == H2_PORT else ""
            servers.append(f"""
    upstream standin{port} {{ server {upstream.removeprefix('http://')}; keepalive 64; }}
    server {{
        listen {SERVER_IP}:{port} ssl{http2};
        server_name {HOST};
        ssl_certificate {self.cert};
        ssl_certificate_key {self.key};
        ssl_protocols TLSv1.3;
        keepalive_timeout 300s;
        keepalive_requests 100000;
        location / {{
            proxy_pass http://standin{port};
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            # GitHub sends an answer as a whole once it is made; nginx streaming the stand-in's writes as they
            # come sent many small segments, and a page of 100 accounts paid a round trip more for it.
            proxy_buffering on;
        }}
    }}""")
        config = os.path.join(prefix, "nginx.conf")
        with open(config, "w") as handle:
            handle.write(f"""
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/logs/error.log;
events {{ worker_connections 4096; }}
http {{
    log_format bench '$connection $connection_requests $server_protocol $status $request_method $request_uri';
    access_log {self.access_log} bench;
    client_body_temp_path {prefix}/body; proxy_temp_path {prefix}/proxy; fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi; scgi_temp_path {prefix}/scgi;
    # GitHub compresses its JSON for a client that accepts it (github3.py's cassettes record `Content-Encoding:
    # gzip` on 437 answers); URLSession and `curl --compressed` send Accept-Encoding.
    gzip on; gzip_proxied any; gzip_types application/json; gzip_min_length 256; gzip_comp_level 1;
{''.join(servers)}
}}
""")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        process = subprocess.Popen([nginx, "-p", prefix, "-c", config, "-g", "daemon off;"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.processes.append(process)
        time.sleep(0.5)
        if process.poll() is not None:
            raise RuntimeError("nginx did not start: " + process.stderr.read().decode(errors="replace"))

    def close(self):
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        if self.relay is not None:
            self.relay.stop()
        subprocess.run(["ip", "netns", "del", CLIENT_NS], stderr=subprocess.DEVNULL)
        shutil.rmtree(self.etc, ignore_errors=True)


# Runs inside the client's namespace, started once: reads one JSON command a line, runs it with its output to
# /dev/null (or counted), and answers its status, time, CPU time (user and system) and lines. `ip netns exec` costs
# a few milliseconds a call, which this keeps out of the times.
RUNNER = r"""
import json, resource, subprocess, sys, time
for line in sys.stdin:
    job = json.loads(line)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(job["argv"], env=job["env"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime
    print(json.dumps({"status": done.returncode, "seconds": elapsed, "cpu": cpu, "lines": done.stdout.count(b"\n"),
                      "stdout": done.stdout.decode(errors="replace") if job.get("capture") else "",
                      "stderr": done.stderr.decode(errors="replace")[-2000:]}), flush=True)
"""


class ClientRunner:
    def __init__(self):
        self.process = subprocess.Popen(
            ["ip", "netns", "exec", CLIENT_NS, sys.executable, "-c", RUNNER],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, argv, env, capture=False):
        self.process.stdin.write(json.dumps({"argv": argv, "env": env, "capture": capture}) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


class NetworkBench:
    def __init__(self, gh, standin, curl, rtt_ms, runs, workdir, workloads,
                 congestion_control=DEFAULT_CONGESTION_CONTROL, compared=()):
        self.gh, self.curl, self.rtt, self.runs, self.workdir = gh, curl, rtt_ms / 1000, runs, workdir
        self.wanted = workloads
        # (label, command) of other gh-users builds measured beside this one (`Scripts/bench --compare`).
        self.compared = list(compared)
        self.network = Network(standin, rtt_ms, workdir, users=1000, congestion_control=congestion_control)
        self.runner = ClientRunner()
        self.home = tempfile.mkdtemp(prefix="home.", dir=workdir)
        self.rows = []

    def close(self):
        self.runner.close()
        self.network.close()

    def env(self, port):
        url = f"https://{HOST}" + ("" if port == H2_PORT else f":{port}")
        return {"PATH": "/usr/bin:/bin", "HOME": self.home, "GH_TOKEN": "ghp_networkbench", "GH_USERS_API_URL": url,
                "LC_ALL": "C.UTF-8"}

    def forget_protocols(self):
        """Removes what earlier runs learned of the hosts' HTTP versions (gh-users's `http1-origins` in its cache
        folder, kept under --no-cache too), so the next run starts as a first run on a machine does."""
        try:
            os.remove(os.path.join(self.home, ".cache", "gh-users", "http1-origins"))
        except FileNotFoundError:
            pass

    def measure(self, workload, jobs):
        """Runs every job (cell, argv, env, expected lines, cold) once to warm up, then `self.runs` times, the jobs
        taking turns within each round so that a machine that slows down midway slows them all alike; returns
        each cell's times and the connections and handshakes of each run. A `cold` job forgets the hosts' HTTP
        versions before each of its runs."""
        results = {cell: [] for cell, *_ in jobs}
        for index in range(self.runs + 1):
            for cell, argv, env, expect_lines, cold in jobs:
                if cold:
                    self.forget_protocols()
                self.network.relay.wire.begin_run()
                before = self.network.relay.wire.counts()
                result = self.runner.run(argv, env)
                after = self.network.relay.wire.counts()
                if result["status"] != 0 or (expect_lines is not None and result["lines"] != expect_lines):
                    raise RuntimeError(f"{workload} {cell}: status {result['status']}, {result['lines']} lines: "
                                       + result["stderr"])
                if index > 0:
                    results[cell].append((result["seconds"], after[0] - before[0], after[1] - before[1],
                                          after[2] - before[2], result["cpu"]))
        return results

    def ask(self, argv):
        """What gh-users writes for `argv`, asked in the client's namespace as the workloads are."""
        result = self.runner.run([self.gh, *argv, "--no-cache"], self.env(H2_PORT), capture=True)
        if result["status"] != 0:
            raise RuntimeError(f"gh-users {' '.join(argv)}: {result['stderr']}")
        return [line.split("\t") for line in result["stdout"].splitlines()]

    def logins(self, count):
        rows = self.ask(["list", "--limit", str(count * 2), "--format", "tsv", "--fields", "login,type"])
        return [login for login, kind in rows if kind == "User"][:count]

    def follower_account(self, wanted):
        rows = self.ask(["list", "--limit", "1000", "--full", "--format", "tsv", "--fields", "login,type,followers"])
        login, _, followers = min((row for row in rows if row[1] == "User"), key=lambda row: abs(int(row[2]) - wanted))
        return login, int(followers)

    def workloads(self):
        logins = self.logins(50)
        follower, followers = self.follower_account(320)
        curl_config = os.path.join(self.workdir, "w2.curl")
        base = f"https://{HOST}"
        with open(curl_config, "w") as handle:
            handle.writelines(f'url = "{base}/users/{login}"\noutput = "/dev/null"\n' for login in logins)
        # The same URLs on the HTTP/1.1 port, for curl's HTTP/1.1 columns.
        self.h1_files = {curl_config: curl_config.replace(".curl", "-h1.curl")}
        with open(self.h1_files[curl_config], "w") as handle:
            handle.writelines(f'url = "{base}:{H1_PORT}/users/{login}"\noutput = "/dev/null"\n' for login in logins)
        pages = [f"{base}/users?per_page=100" + (f"&since={index * 100}" if index else "") for index in range(10)]
        token = ["--compressed", "-H", "Authorization: Bearer ghp_networkbench"]
        return [
            ("W1", "list 1,000 (10 chained pages)", [
                ("gh-users", [self.gh, "list", "--limit", "1000", "--format", "ndjson", "--no-cache"], 1000),
                ("curl", [self.curl, "-sS", "-f", *token, *[part for url in pages for part in (url, "-o", "/dev/null")]],
                 0),
            ]),
            ("W2", "show 50 at 8-way", [
                ("gh-users", [self.gh, "show", *logins, "--concurrency", "8", "--format", "ndjson", "--no-cache"], 50),
                ("curl", [self.curl, "-sS", "-f", "--parallel", "--parallel-max", "8", *token, "-K", curl_config], 0),
            ]),
            ("W6", f"followers --all --full, 8-way, {followers} followers", [
                ("gh-users", [self.gh, "followers", follower, "--all", "--full", "--concurrency", "8",
                              "--format", "ndjson", "--no-cache"], followers),
            ]),
            ("W8", "list --limit 1000 --full --via graphql", [
                ("gh-users", [self.gh, "list", "--limit", "1000", "--full", "--via", "graphql", "--format", "ndjson",
                              "--no-cache"], 1000),
            ]),
        ]

    def gh_peers(self):
        return ["gh-users", *(label for label, _ in self.compared)]

    def jobs(self, peers):
        """A workload's cells, each (cell, argv, env, expected lines, cold): every gh-users build over HTTP/2, over
        HTTP/1.1 after a run that learned it, and over HTTP/1.1 with that forgotten; curl over HTTP/2, HTTP/1.1,
        and HTTP/1.1 trusting the bench's certificate alone."""
        # Each compared build runs what this one does, with its own command in place of this binary.
        every = []
        for peer, argv, lines in peers:
            every.append((peer, argv, lines))
            if peer == "gh-users":
                every += [(label, [*command, *argv[1:]], lines) for label, command in self.compared]
        jobs = []
        for peer, argv, lines in every:
            protocols = [("h2", H2_PORT), ("h1", H1_PORT), ("h1 first run", H1_PORT)] \
                if peer in self.gh_peers() else [("h2", H2_PORT), ("h1", H1_PORT), (CURL_OWN_CA, H1_PORT)]
            for protocol, port in protocols:
                command = argv
                if peer == "curl" and port == H1_PORT:
                    h1_root = f"https://{HOST}:{H1_PORT}/"
                    command = [self.h1_files.get(part, part).replace(f"https://{HOST}/", h1_root) for part in argv]
                if protocol == CURL_OWN_CA:
                    command = [command[0], "--cacert", self.network.cert, *command[1:]]
                jobs.append((f"{peer} {protocol}", command, self.env(port), lines or None, protocol == "h1 first run"))
        return jobs

    def run(self):
        for workload, description, peers in self.workloads():
            if workload not in self.wanted:
                continue
            limit = LIMIT_RTTS[workload] * self.rtt
            jobs = self.jobs(peers)
            log(f"{workload}: {', '.join(cell for cell, *_ in jobs)}, in turn: 1 warm-up + {self.runs} runs each")
            cells = self.measure(workload, jobs)
            self.rows.append((workload, description, limit, cells))

    def table(self):
        # "h1": after a run that learned the host speaks HTTP/1.1 (the warm-up); "h1 first run": with that forgotten.
        peers = [f"{peer} {protocol}" for peer in self.gh_peers() for protocol in ("h2", "h1", "h1 first run")]
        peers += ["curl h2", "curl h1", f"curl {CURL_OWN_CA}"]
        lines = [
            "| workload | its limit | " + " | ".join(peers) + " |",
            "|---|---|" + "---|" * len(peers),
        ]
        for workload, description, limit, cells in self.rows:
            row = [f"{workload} {description}", f"{LIMIT_RTTS[workload]} RTT = {limit:.3f} s"]
            for peer in peers:
                results = cells.get(peer)
                if not results:
                    row.append("—")
                    continue
                median = statistics.median(result[0] for result in results)
                connections = sorted({result[1] for result in results})
                hellos = sorted({result[2] for result in results})
                reopened = sorted({result[3] for result in results})
                cpu = statistics.median(result[4] for result in results)
                row.append(f"{median:.3f} s ({median / limit:.2f}×), {'/'.join(map(str, connections))} conn, "
                           f"{'/'.join(map(str, hellos))} TLS, {'/'.join(map(str, reopened))} reopened, "
                           f"{cpu:.2f} s CPU")
            lines.append("| " + " | ".join(row) + " |")
        # The same medians as ratios, each gh-users cell to curl over the same protocol, and each compared
        # build's to this build's.
        for workload, _, _, cells in self.rows:
            medians = {peer: statistics.median(result[0] for result in results)
                       for peer, results in cells.items() if results}
            ratios = []
            for peer in self.gh_peers():
                for protocol in ("h2", "h1", "h1 first run"):
                    cell = f"{peer} {protocol}"
                    bases = ["curl h2" if protocol == "h2" else "curl h1"]
                    if peer != "gh-users":
                        bases.append(f"gh-users {protocol}")
                    ratios += [f"{cell} / {base} = {medians[cell] / medians[base]:.2f}" for base in bases
                               if cell in medians and base in medians]
            if ratios:
                lines.append(f"\n{workload}: " + "; ".join(ratios) + ".")
        return "\n".join(lines) + "\n"


def unavailable_reason():
    if sys.platform != "linux":
        return "it runs on Linux only"
    if os.geteuid() != 0:
        return "it needs root (network namespaces, TAP devices and mounts)"
    if shutil.which("ip") is None:
        return "it needs `ip` (iproute2)"
    if not os.path.exists("/dev/net/tun"):
        return "it needs /dev/net/tun"
    probe = subprocess.run(["ip", "netns", "add", "ghb-probe"], capture_output=True, text=True)
    if probe.returncode != 0:
        return "network namespaces are not available here: " + probe.stderr.strip()
    subprocess.run(["ip", "netns", "del", "ghb-probe"], capture_output=True)
    return None


def stress(bench, rounds):
    """Runs the crawls that once crashed at exit (`followers --full`, `list --full --via graphql`, `show`, `list`)
    `rounds` times over HTTP/1.1 and HTTP/2 in turn, and stops at the first that does not end with status 0,
    printing its stderr: a release build crashed so about once in 40-90 runs before a run ended with `_exit`."""
    follower, _ = bench.follower_account(320)
    logins = bench.logins(8)
    commands = [
        ["followers", follower, "--all", "--full", "--concurrency", "8"],
        ["list", "--limit", "1000", "--full", "--via", "graphql"],
        ["show", *logins, "--concurrency", "8"],
        ["list", "--limit", "1000"],
    ]
    count = 0
    for _ in range(rounds):
        for port in (H1_PORT, H2_PORT):
            for command in commands:
                count += 1
                result = bench.runner.run([bench.gh, *command, "--format", "ndjson", "--no-cache"], bench.env(port))
                if result["status"] != 0:
                    sys.stdout.write(f"run {count} ({' '.join(command[:1])}, port {port}) ended with status "
                                     f"{result['status']}:\n{result['stderr']}\n")
                    return 1
    sys.stdout.write(f"{count} runs, every one with status 0\n")
    return 0


def available_congestion_controls():
    try:
        with open("/proc/sys/net/ipv4/tcp_available_congestion_control") as handle:
            return handle.read().split()
    except OSError:
        return []


def main(gh, standin, curl, rtt_ms, runs, install, apt_install, workloads, stress_rounds=0,
         congestion_control=DEFAULT_CONGESTION_CONTROL, compared=()):
    reason = unavailable_reason()
    if reason:
        log(f"--network cannot run: {reason}")
        return 2
    if congestion_control not in available_congestion_controls():
        # Loading the module makes it available (tcp_bbr is one); a name the kernel does not know stays unknown.
        subprocess.run(["modprobe", "tcp_" + congestion_control], capture_output=True)
        if congestion_control not in available_congestion_controls():
            log(f"--network cannot run: this kernel has no TCP congestion control '{congestion_control}' "
                f"(it has: {' '.join(available_congestion_controls()) or 'none listed'})")
            return 2
    if shutil.which("nginx") is None and not os.path.exists("/usr/sbin/nginx"):
        if not apt_install("nginx-light", install) and not apt_install("nginx", install):
            log("--network cannot run: it needs nginx (apt-get install nginx-light)")
            return 2
    if curl is None:
        log("curl is missing: its column stays empty")
    workdir = tempfile.mkdtemp(prefix="gh-users-netbench.")
    bench = None
    # Killed or hung up, it still stops nginx and the stand-ins and removes the namespace (`finally` below).
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, lambda received, _: sys.exit(128 + received))
    try:
        bench = NetworkBench(gh, standin, curl, rtt_ms, runs, workdir, workloads, congestion_control, compared)
        if stress_rounds:
            return stress(bench, stress_rounds)
        bench.run()
        linked = subprocess.run(["ldd", gh], capture_output=True, text=True).stdout
        runtime = "dynamically" if "libswiftCore" in linked else "statically, as Scripts/install.sh builds it"
        sys.stdout.write(
            f"gh-users ({gh}) has the Swift runtime linked {runtime}.\n"
        )
        sys.stdout.write(
            f"gh-users over TLS 1.3 at RTT {rtt_ms} ms (a TAP relay holding every packet {rtt_ms / 2:g} ms each way; "
            f"TCP congestion control {congestion_control}), "
            f"nginx in front of github-standin; medians of {runs} runs after one warm-up, every column's runs taking "
            "turns, and of their CPU time (user and system); connections (TCP SYNs), "
            "TLS handshakes (ClientHellos) and connections opened after the client closed one (reopened) counted on "
            "the wire per run.\n\n" + bench.table())
    finally:
        if bench is not None:
            bench.close()
        shutil.rmtree(workdir, ignore_errors=True)
    return 0
