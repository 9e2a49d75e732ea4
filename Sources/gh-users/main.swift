import AtomicCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A standard stream closed from the start (`>&-`) must stay closed, not become the next file opened.
let heldClosed = StandardDescriptors.holdClosed()
// What `/dev/fd/N` may name: the descriptors the process was given, not those it opens itself.
StartDescriptors.record(except: heldClosed)
// A closed stdout must surface as EPIPE from write(2), so the command can stop quietly instead of dying.
signal(SIGPIPE, SIG_IGN)
// A file-size limit (`ulimit -f`) must surface as EFBIG from write(2), so the command can fail and say so.
signal(SIGXFSZ, SIG_IGN)
// The token is in this process's memory and environment: a crash (FoundationNetworking's fatalError on some
// malformed answers, docs/NETWORK.md) must leave no core file holding it. The kernel hands a core it pipes to
// systemd-coredump or apport this limit too, and both then keep nothing.
var noCoreFile = rlimit(rlim_cur: 0, rlim_max: 0)
setrlimit(Int32(RLIMIT_CORE.rawValue), &noCoreFile)
// Foundation's own traces of URLSession print every header, the token's too: `--debug` is gh-users's trace.
for variable in ["URLSessionDebugLibcurl", "URLSessionDebug"] { unsetenv(variable) }
/// Ends a run that cannot start: `line` on stderr, and `status`, with nothing done.
func refuseToStart(_ line: String, status: Int32 = 1) -> Never {
    try? FileDescriptorIO.writeAll(STDERR_FILENO, Array((line + "\n").utf8))
    ExitCleanup.process.exit(status)
}
// Swift reads the arguments from /proc on Linux: without it (a chroot or a sandbox that has none) there are none,
// not even the program's name, and the loop below trapped (SIGILL, nothing said). Said, and nothing done.
if CommandLine.argc < 1 {
    refuseToStart(
        "gh-users: it cannot read its own arguments (Swift reads them from /proc/self/cmdline on Linux: is /proc "
            + "mounted?); nothing was done")
}
// An argument that is not UTF-8 reaches `CommandLine.arguments` with U+FFFD in place of its bytes: `me edit
// --location` wrote "Z\u{FFFD}rich" to the profile, a path named another file. Refused before anything is done.
for index in 1..<Int(CommandLine.argc) {
    guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else { continue }
    refuseToStart(
        "Error: argument \(index) is not valid UTF-8, which gh-users would have to change to take it; nothing was "
            + "done", status: 64)
}
// Too few open files or too little address space would end in a trap or a hang the run could not report.
if let problem = ResourceLimits.problem() { refuseToStart(problem) }
// Before any thread starts: under an address space limit, malloc keeps within it.
ResourceLimits.fitMallocToTheLimit()
// SIGINT, SIGTERM and SIGHUP are caught before any command starts; one in the milliseconds before (the checks
// above) ends the process by its default action, with nothing written.
let interrupts = InterruptHandler()
let command = Task { await GhUsersApp(environment: .live()).run(Array(CommandLine.arguments.dropFirst())) }
interrupts.onInterrupt { command.cancel() }
let status = await command.value
// `_exit`, not `exit`: the C library's exit handlers (OpenSSL's cleanup among them) would run while URLSession's
// threads may still be reading a connection the run no longer needs (a late HTTP/2 frame, an idle TLS
// connection closing), and a release build crashed so at exit about once in 50 runs over TLS across a real
// round trip (Scripts/bench --network). Nothing is left in a stdio buffer: every write goes through write(2).
fflush(nil)
interrupts.exit(after: status)
