import AtomicCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A standard stream closed from the start (`>&-`) must stay closed, not become the next file opened.
StandardDescriptors.holdClosed()
// A closed stdout must surface as EPIPE from write(2), so the command can stop quietly instead of dying.
signal(SIGPIPE, SIG_IGN)
// A file-size limit (`ulimit -f`) must surface as EFBIG from write(2), so the command can fail and say so.
signal(SIGXFSZ, SIG_IGN)
// SIGINT, SIGTERM and SIGHUP are caught before anything starts, so none can slip past.
let interrupts = InterruptHandler()
let command = Task { await GhUsersApp(environment: .live()).run(Array(CommandLine.arguments.dropFirst())) }
interrupts.onInterrupt { command.cancel() }
let status = await command.value
exit(interrupts.exitStatus(for: status))
