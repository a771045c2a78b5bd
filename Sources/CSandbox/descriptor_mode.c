// The mode of a file held by an O_PATH descriptor: fchmod refuses such a descriptor (EBADF).
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int sg_chmod_held(int fd, unsigned int mode) {
    // fchmodat2 (Linux 6.6, 452 on every architecture) with an empty path: the file itself.
    if (syscall(452, fd, "", mode, AT_EMPTY_PATH) == 0) return 0;
    // Before it (ENOSYS), or where a seccomp profile older than it refuses it (EPERM, EACCES):
    // through the descriptor's entry in /proc, glibc's way for fchmodat's flags.
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return chmod(path, mode);
}
