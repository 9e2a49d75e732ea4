// Runs when the test bundle is loaded, before any test and any thread of its own: swift-corelibs-foundation
// makes ~/.cache/org.swift.foundation.URLCache/<executable> and ~/.local/share/<folder> for the first
// URLSessionConfiguration a process creates, and only XDG folders that cannot exist keep them out of $HOME.
// setenv must not run later: another test's Process.run may be reading the environment at that moment.
#define _GNU_SOURCE
#include <spawn.h>
#include <stdlib.h>

#include "TestProcessSetup.h"

static int pointed = 0;

__attribute__((constructor)) static void gh_users_tests_point_folders_away(void) {
    setenv("XDG_CACHE_HOME", "/dev/null/gh-users-tests", 1);
    setenv("XDG_DATA_HOME", "/dev/null/gh-users-tests", 1);
    pointed = 1;
}

int gh_users_tests_folders_pointed(void) { return pointed; }

int gh_users_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int gh_users_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
