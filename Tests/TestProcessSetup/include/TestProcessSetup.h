#ifndef GH_USERS_TEST_PROCESS_SETUP_H
#define GH_USERS_TEST_PROCESS_SETUP_H

/// 1 once the test process's XDG folders point where nothing can be created (done when the bundle loads).
int gh_users_tests_folders_pointed(void);

#endif
