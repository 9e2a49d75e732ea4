#ifndef GH_USERS_TEST_PROCESS_SETUP_H
#define GH_USERS_TEST_PROCESS_SETUP_H

#include <spawn.h>

/// 1 once the test process's XDG folders point where nothing can be created (done when the bundle loads).
int gh_users_tests_folders_pointed(void);

/// glibc's posix_spawn_file_actions_addchdir_np and _addclosefrom_np, which Swift's Glibc module does not show.
int gh_users_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);
int gh_users_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from);

#endif
