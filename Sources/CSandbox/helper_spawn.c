// Spawning a helper program (a compiler, a browser, the sandglass executable in tests) without
// Foundation's Process: posix_spawn with descriptors 0-2 given and every other one closed in
// the child (closefrom), so nothing of the caller leaks and nothing scans /proc/self/fd.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "CSandbox.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

int sg_spawn_helper(const char *path, char *const argv[], char *const envp[], const char *cwd,
                    int stdin_fd, int stdout_fd, int stderr_fd, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    int rc = posix_spawn_file_actions_init(&actions);
    if (rc != 0) return -rc;
    int sources[3] = { stdin_fd, stdout_fd, stderr_fd };
    for (int target = 0; target < 3 && rc == 0; target++) {
        // dup2 onto itself would keep FD_CLOEXEC: posix_spawn clears it for that case.
        rc = posix_spawn_file_actions_adddup2(&actions, sources[target], target);
    }
    if (rc == 0 && cwd) rc = posix_spawn_file_actions_addchdir_np(&actions, cwd);
    if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (rc == 0) {
        posix_spawnattr_t attributes;
        rc = posix_spawnattr_init(&attributes);
        if (rc == 0) {
            // Default signal dispositions and an empty mask in the child, whatever the caller's.
            sigset_t all, none;
            sigfillset(&all);
            sigemptyset(&none);
            posix_spawnattr_setsigdefault(&attributes, &all);
            posix_spawnattr_setsigmask(&attributes, &none);
            posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
            rc = posix_spawn(pid, path, &actions, &attributes, argv, envp);
            posix_spawnattr_destroy(&attributes);
        }
    }
    posix_spawn_file_actions_destroy(&actions);
    return -rc;
}
