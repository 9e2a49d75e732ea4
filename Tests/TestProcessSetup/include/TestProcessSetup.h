#ifndef GH_USERS_TEST_PROCESS_SETUP_H
#define GH_USERS_TEST_PROCESS_SETUP_H

#include <spawn.h>
#include <stdint.h>

/// 1 once the test process's XDG folders point where nothing can be created (done when the bundle loads).
int gh_users_tests_folders_pointed(void);

/// glibc's posix_spawn_file_actions_addchdir_np and _addclosefrom_np, which Swift's Glibc module does not show.
int gh_users_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);
int gh_users_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from);

/// Counts the heap blocks this thread allocates from now until `gh_users_allocation_count_stop` (AllocationCount.c
/// says how); TestSupport's `AllocationCount` is the way to use them.
void gh_users_allocation_count_start(void);
/// Stops counting on this thread and gives the blocks and their bytes since the start; 0 where nothing can be
/// counted (a C library other than glibc), else 1.
int gh_users_allocation_count_stop(uint64_t *blocks, uint64_t *bytes);

#endif
