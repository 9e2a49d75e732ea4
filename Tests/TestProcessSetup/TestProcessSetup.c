// Runs when the test bundle is loaded, before any test and any thread of its own: swift-corelibs-foundation
// makes ~/.cache/org.swift.foundation.URLCache/<executable> and ~/.local/share/<folder> for the first
// URLSessionConfiguration a process creates, and only XDG folders that cannot exist keep them out of $HOME.
// setenv must not run later: another test's Process.run may be reading the environment at that moment.
#define _GNU_SOURCE
#include <spawn.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "TestProcessSetup.h"

static int pointed = 0;

__attribute__((constructor)) static void gh_users_tests_point_folders_away(void) {
    setenv("XDG_CACHE_HOME", "/dev/null/gh-users-tests", 1);
    setenv("XDG_DATA_HOME", "/dev/null/gh-users-tests", 1);
    // The tests talk to servers of their own on loopback: a contributor's proxy (libcurl reads these, as curl
    // does) took the requests of 27 tests to itself. A test of proxies gives the process it runs its own.
    const char *proxies[] = {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                             "no_proxy",   "NO_PROXY"};
    for (size_t index = 0; index < sizeof proxies / sizeof proxies[0]; index++) {
        unsetenv(proxies[index]);
    }
    pointed = 1;
}

int gh_users_tests_folders_pointed(void) { return pointed; }

// The end-to-end tests run side by side, each with its stand-in's sockets and its processes' pipes: the test
// process holds about 1,850 descriptors at its peak. Under the soft limit most Linux systems give a login
// (1,024), sockets and pipes then failed with EMFILE, and Foundation's Pipe traps on that (SIGILL, the run
// lost). The soft limit is raised to the hard one, as Go's runtime does for its programs. Unlike Go, which gives
// the processes it starts the limit it found, what the tests spawn inherits the raised one, as from a shell with
// that limit; the tests of a low limit set theirs (ResourceLimitsEndToEndTests).
__attribute__((constructor)) static void gh_users_tests_raise_file_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        rlim_t hard = limit.rlim_max;
        limit.rlim_cur = hard;
        // macOS's hard limit may be unlimited, past what a process may open: ask for OPEN_MAX's 10,240 then.
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0 && hard > 10240) {
            limit.rlim_cur = 10240;
            setrlimit(RLIMIT_NOFILE, &limit);
        }
    }
}

int gh_users_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int gh_users_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
