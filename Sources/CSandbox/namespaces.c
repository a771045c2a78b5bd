// The mount and network namespaces every extension of a root host joins (setns in the spawn's
// child), made once per host: a copy of the host's mounts in which /proc is a procfs of its own
// mounted hidepid=2,subset=pid (each extension sees only the processes of its own uid — not the
// host's, not another extension's, not the operator's command lines — and none of /proc's
// machine-wide files; an iOS app sees no /proc at all), and a network namespace with nothing in
// it (its /proc/self/net lists no connection of the host's). A helper process is cloned into
// both, mounts, and waits to be killed once the host has opened its namespaces.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct helper_report {
    int step;
    int error;
    int subset;   // 1 when the procfs took subset=pid
} helper_report;

// In the helper (a copy of the host's memory, one thread): only system calls.
static void helper_main(int report_fd, pid_t parent) {
    helper_report report = { SG_NAMESPACES_OK, 0, 1 };
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 || getppid() != parent) _exit(1);
    // Join the new namespace as an extension will: setns sets the root to the namespace's. If
    // that is not the root the helper had, the host runs in a chroot, whose paths (the bundle's,
    // the container's) the extensions would leave.
    struct stat before, after;
    int self_ns = -1;
    if (stat("/", &before) != 0 || (self_ns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC)) < 0 ||
        setns(self_ns, CLONE_NEWNS) != 0 || stat("/", &after) != 0) {
        report = (helper_report){ SG_NAMESPACES_ROOT, errno, 0 };
    } else if (before.st_dev != after.st_dev || before.st_ino != after.st_ino) {
        report = (helper_report){ SG_NAMESPACES_CHROOT, EPERM, 0 };
    }
    if (report.step != SG_NAMESPACES_OK) {
        (void)write(report_fd, &report, sizeof report);
        for (;;) pause();
    }
    // The host's later mounts still reach the copy; the copy's /proc never reaches the host.
    if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) != 0) {
        report = (helper_report){ SG_NAMESPACES_PROPAGATION, errno };
    } else if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=2,subset=pid") != 0) {
        // subset=pid (Linux 5.8): nothing but the processes — no /proc/locks, /proc/loadavg,
        // /proc/sys; without it, the processes hidden alone (and said so).
        report.subset = 0;
        if (errno != EINVAL || mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=2") != 0) {
            report = (helper_report){ SG_NAMESPACES_PROC, errno, 0 };
        }
    }
    (void)write(report_fd, &report, sizeof report);
    for (;;) pause();
}

int sg_namespaces_create(int *mount_ns, int *net_ns, int *proc_root, int *proc_subset, int *failed_step) {
    *mount_ns = *net_ns = *proc_root = -1;
    *proc_subset = 0;
    *failed_step = SG_NAMESPACES_OK;
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
        *failed_step = SG_NAMESPACES_CLONE;
        return -errno;
    }
    pid_t parent = getpid();
    // A raw clone: no atfork handlers of the host's libraries run in the helper.
    long pid = syscall(SYS_clone, (unsigned long)(CLONE_NEWNS | CLONE_NEWNET | SIGCHLD), NULL, NULL, NULL, 0);
    if (pid == 0) {
        close(pipe_fds[0]);
        helper_main(pipe_fds[1], parent);
    }
    int clone_errno = errno;
    close(pipe_fds[1]);
    if (pid < 0) {
        close(pipe_fds[0]);
        *failed_step = SG_NAMESPACES_CLONE;
        return -clone_errno;
    }
    helper_report report = { SG_NAMESPACES_CLONE, EIO, 0 };
    ssize_t n;
    do { n = read(pipe_fds[0], &report, sizeof report); } while (n < 0 && errno == EINTR);
    close(pipe_fds[0]);
    int rc = 0;
    if (n != (ssize_t)sizeof report) {
        report = (helper_report){ SG_NAMESPACES_CLONE, EIO, 0 };
    }
    *proc_subset = report.subset;
    if (report.step != SG_NAMESPACES_OK) {
        *failed_step = report.step;
        rc = -report.error;
    } else {
        char path[64];
        int open_errno = 0;
        snprintf(path, sizeof path, "/proc/%ld/ns/mnt", pid);
        if ((*mount_ns = open(path, O_RDONLY | O_CLOEXEC)) < 0) open_errno = errno;
        snprintf(path, sizeof path, "/proc/%ld/ns/net", pid);
        if (!open_errno && (*net_ns = open(path, O_RDONLY | O_CLOEXEC)) < 0) open_errno = errno;
        // The helper's /proc, reached through its root: the procfs extensions see.
        snprintf(path, sizeof path, "/proc/%ld/root/proc", pid);
        if (!open_errno && (*proc_root = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) open_errno = errno;
        if (open_errno) {
            rc = -open_errno;
            *failed_step = SG_NAMESPACES_OPEN;
            if (*mount_ns >= 0) close(*mount_ns);
            if (*net_ns >= 0) close(*net_ns);
            if (*proc_root >= 0) close(*proc_root);
            *mount_ns = *net_ns = *proc_root = -1;
        }
    }
    kill((pid_t)pid, SIGKILL);
    while (waitpid((pid_t)pid, NULL, 0) < 0 && errno == EINTR) {}
    return rc;
}

const char *sg_namespaces_step_name(int step) {
    switch (step) {
    case SG_NAMESPACES_OK: return "none";
    case SG_NAMESPACES_CLONE: return "cloning a helper into new mount and network namespaces";
    case SG_NAMESPACES_PROPAGATION: return "making the copied mounts slaves of the host's";
    case SG_NAMESPACES_PROC: return "mounting a procfs with hidepid=2 (and subset=pid) on /proc";
    case SG_NAMESPACES_OPEN: return "opening the helper's namespaces";
    case SG_NAMESPACES_CHROOT: return "the host runs in a chroot: joining a mount namespace would take its extensions out of it";
    case SG_NAMESPACES_ROOT: return "joining the new mount namespace to compare its root with the host's";
    default: return "unknown step";
    }
}
