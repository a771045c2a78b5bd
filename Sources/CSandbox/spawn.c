// The fork-to-exec path, in the shape measured in research/sandbox-anchors.md:
// clone(CLONE_VM | CLONE_VFORK | CLONE_PIDFD) like glibc's posix_spawn, then in the child only
// raw, async-signal-safe calls — cgroup join, the extensions' namespaces, process group,
// PR_SET_PDEATHSIG with a parent check, rlimits, fd layout (0-2 log pipes, 3 the IPC socket), no_new_privs, Landlock, seccomp
// last, execve. The child shares the parent's memory until execve, so it reports a failure by
// writing into the request's result and never allocates.
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

enum { CHILD_STACK_SIZE = 64 * 1024 };

// Fixed descriptor layout in the child while it sets up.
enum { FD_IPC = 3, FD_NOTIFY = 4, FD_LANDLOCK = 5, FD_FIRST_FREE = 6, FD_SCRATCH = 64 };

typedef struct child_args {
    const sg_spawn_request *req;
    pid_t parent;
    int notify_sock;               // child's end of the listener hand-over socketpair, or -1
    volatile int failed_step;
    volatile int failed_errno;
    volatile uint64_t cgroup_join_ns;
    volatile uint64_t started_ns;
    volatile uint64_t exec_ns;
} child_args;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int child_fail(child_args *a, int step) {
    a->failed_errno = errno;
    a->failed_step = step;
    _exit(127);
}

static int set_limit(int resource, uint64_t soft, uint64_t hard) {
    struct rlimit r = { .rlim_cur = (rlim_t)soft, .rlim_max = (rlim_t)hard };
    return setrlimit(resource, &r);
}

static int child_main(void *arg) {
    child_args *a = arg;
    a->started_ns = now_ns();
    const sg_spawn_request *req = a->req;

    // Signals: default handlers (this child has its own copy of the table: no CLONE_SIGHAND).
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int s = 1; s < _NSIG; s++) {
        if (s == SIGKILL || s == SIGSTOP) continue;
        (void)sigaction(s, &dfl, NULL);
    }

    // Join the cgroups first, so every page the child touches is charged there. On v1 through
    // `tasks`: this child is one thread, and moving only the writer spares the kernel's global
    // threadgroup lock, whose write side waits for an RCU grace period (8-16 ms here through
    // `cgroup.procs`). Timed, and reported with the spawn.
    uint64_t join_started = now_ns();
    for (int i = 0; i < req->cgroup_procs_count; i++) {
        if (write(req->cgroup_procs_fds[i], "0", 1) != 1) child_fail(a, SG_STEP_CGROUP);
    }
    a->cgroup_join_ns = now_ns() - join_started;
    // The extensions' namespaces, while the child still has the host's capabilities: /proc
    // showing only its own uid's processes, a network of its own. setns of a mount namespace
    // sets the root and working directory to its root: the chdir to the container comes later.
    if (req->net_ns_fd >= 0 && setns(req->net_ns_fd, CLONE_NEWNET) != 0) child_fail(a, SG_STEP_NAMESPACES);
    if (req->mount_ns_fd >= 0 && setns(req->mount_ns_fd, CLONE_NEWNS) != 0) child_fail(a, SG_STEP_NAMESPACES);
    // A session of its own, not only a process group: without the host's controlling terminal,
    // /dev/tty is not its to open, nor a TIOCSTI to type into the operator's shell.
    if (req->new_process_group && setsid() < 0) child_fail(a, SG_STEP_PROCESS_GROUP);
    // Drop to the extension's user with raw system calls: glibc's setuid() would signal the
    // parent's threads, whose memory this child shares. Before PR_SET_PDEATHSIG, which a
    // change of credentials clears.
    if (req->gid >= 0) {
        // No supplementary groups but the app groups' it shares (one gid per app group).
        if (syscall(SYS_setgroups, (size_t)req->supplementary_gid_count, req->supplementary_gids) != 0) child_fail(a, SG_STEP_CREDENTIALS);
        if (syscall(SYS_setresgid, req->gid, req->gid, req->gid) != 0) child_fail(a, SG_STEP_CREDENTIALS);
    }
    if (req->uid >= 0 && syscall(SYS_setresuid, req->uid, req->uid, req->uid) != 0) child_fail(a, SG_STEP_CREDENTIALS);
    if (req->parent_death_signal) {
        if (prctl(PR_SET_PDEATHSIG, req->parent_death_signal, 0, 0, 0) != 0) child_fail(a, SG_STEP_PARENT_DEATH_SIGNAL);
        if (getppid() != a->parent) { errno = ESRCH; child_fail(a, SG_STEP_PARENT_GONE); }
    }

    const sg_rlimits *l = &req->limits;
    if (set_limit(RLIMIT_CORE, 0, 0) != 0) child_fail(a, SG_STEP_RLIMIT);
    if (l->cpu_seconds && set_limit(RLIMIT_CPU, l->cpu_seconds, l->cpu_seconds + 1) != 0) child_fail(a, SG_STEP_RLIMIT);
    if (l->data_bytes && set_limit(RLIMIT_DATA, l->data_bytes, l->data_bytes) != 0) child_fail(a, SG_STEP_RLIMIT);
    if (l->file_size_bytes && set_limit(RLIMIT_FSIZE, l->file_size_bytes, l->file_size_bytes) != 0) child_fail(a, SG_STEP_RLIMIT);
    // Threads of its uid, where no pids cgroup counts them (RLIMIT_NPROC counts per real uid).
    if (l->tasks && set_limit(RLIMIT_NPROC, l->tasks, l->tasks) != 0) child_fail(a, SG_STEP_RLIMIT);
    // No real-time scheduling, no raised priority, whatever the host's own limits allow it.
    if (l->no_priority && (set_limit(RLIMIT_RTPRIO, 0, 0) != 0 || set_limit(RLIMIT_NICE, 0, 0) != 0)) child_fail(a, SG_STEP_RLIMIT);

    if (req->cwd && chdir(req->cwd) != 0) child_fail(a, SG_STEP_CHDIR);

    // Lift every source above the target range first, so that no dup2 clobbers another source.
    int src[6] = { req->stdin_fd, req->stdout_fd, req->stderr_fd, req->ipc_fd, a->notify_sock, req->landlock_ruleset_fd };
    int high[6];
    for (int i = 0; i < 6; i++) {
        high[i] = -1;
        if (src[i] < 0) continue;
        high[i] = fcntl(src[i], F_DUPFD_CLOEXEC, FD_SCRATCH);
        if (high[i] < 0) child_fail(a, SG_STEP_FDS);
    }
    for (int i = 0; i < 6; i++) {
        if (high[i] < 0) continue;
        if (dup2(high[i], i) < 0) child_fail(a, SG_STEP_FDS);   // dup2 clears FD_CLOEXEC
    }
    if (syscall(SYS_close_range, (unsigned)FD_FIRST_FREE, ~0U, 0) != 0) child_fail(a, SG_STEP_FDS);
    // Without a listener or a ruleset, 4 and 5 are still whatever the host had there.
    if (high[4] < 0) (void)close(FD_NOTIFY);
    if (high[5] < 0) (void)close(FD_LANDLOCK);
    // The hand-over socket and the ruleset must not survive execve.
    if (high[4] >= 0 && fcntl(FD_NOTIFY, F_SETFD, FD_CLOEXEC) != 0) child_fail(a, SG_STEP_FDS);
    if (high[5] >= 0 && fcntl(FD_LANDLOCK, F_SETFD, FD_CLOEXEC) != 0) child_fail(a, SG_STEP_FDS);
    // Only now: a busy host hands over descriptors numbered above the child's limit.
    if (l->open_files && set_limit(RLIMIT_NOFILE, l->open_files, l->open_files) != 0) child_fail(a, SG_STEP_RLIMIT);

    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) child_fail(a, SG_STEP_NO_NEW_PRIVS);

    if (high[5] >= 0) {
        if (syscall(SYS_landlock_restrict_self, FD_LANDLOCK, 0) != 0) child_fail(a, SG_STEP_LANDLOCK);
        close(FD_LANDLOCK);
    }

    if (req->bpf && req->bpf_len) {
        struct sock_fprog prog = {
            .len = (unsigned short)(req->bpf_len / sizeof(struct sock_filter)),
            .filter = (struct sock_filter *)req->bpf,
        };
        unsigned long flags = req->bpf_wants_listener ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0;
        long listener = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
        if (listener < 0) child_fail(a, SG_STEP_SECCOMP);
        if (req->bpf_wants_listener) {
            // Hand the listener to the parent; the extension must never hold it.
            char byte = 'L';
            struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
            union { struct cmsghdr align; char buf[CMSG_SPACE(sizeof(int))]; } control;
            memset(&control, 0, sizeof control);
            struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf, .msg_controllen = sizeof control.buf };
            struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
            c->cmsg_level = SOL_SOCKET;
            c->cmsg_type = SCM_RIGHTS;
            c->cmsg_len = CMSG_LEN(sizeof(int));
            int lfd = (int)listener;
            memcpy(CMSG_DATA(c), &lfd, sizeof(int));
            if (sendmsg(FD_NOTIFY, &msg, MSG_NOSIGNAL) != 1) child_fail(a, SG_STEP_LISTENER);
            close(lfd);
        }
    }
    if (high[4] >= 0) close(FD_NOTIFY);

    sigset_t none;
    sigemptyset(&none);
    (void)sigprocmask(SIG_SETMASK, &none, NULL);
    a->exec_ns = now_ns();
    execve(req->path, req->argv, req->envp);
    child_fail(a, SG_STEP_EXEC);
    return 127;
}

static int receive_fd(int sock) {
    char byte;
    struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
    union { struct cmsghdr align; char buf[CMSG_SPACE(sizeof(int))]; } control;
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf, .msg_controllen = sizeof control.buf };
    ssize_t n = recvmsg(sock, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (n != 1) return -1;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) return -1;
    int fd;
    memcpy(&fd, CMSG_DATA(c), sizeof(int));
    return fd;
}

int sg_spawn(const sg_spawn_request *req, sg_spawn_result *res) {
    res->pid = -1;
    res->pidfd = -1;
    res->listener_fd = -1;
    res->failed_step = SG_STEP_NONE;
    res->failed_errno = 0;
    res->cgroup_join_ns = 0;
    res->setup_ns = 0;

    int hand_over[2] = { -1, -1 };
    if (req->bpf_wants_listener) {
        if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, hand_over) != 0) {
            res->failed_step = SG_STEP_SETUP;
            res->failed_errno = errno;
            return -1;
        }
    }

    void *stack = mmap(NULL, CHILD_STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) {
        res->failed_step = SG_STEP_SETUP;
        res->failed_errno = errno;
        if (hand_over[0] >= 0) { close(hand_over[0]); close(hand_over[1]); }
        return -1;
    }

    child_args args = { .req = req, .parent = getpid(), .notify_sock = hand_over[1], .failed_step = 0, .failed_errno = 0,
                        .cgroup_join_ns = 0, .started_ns = 0, .exec_ns = 0 };

    // Block every signal around clone, so no parent handler runs on the child's stack.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int pidfd = -1;
    pid_t pid = clone(child_main, (char *)stack + CHILD_STACK_SIZE,
                      CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, &args, &pidfd);
    int clone_errno = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    munmap(stack, CHILD_STACK_SIZE);

    if (hand_over[1] >= 0) close(hand_over[1]);
    if (pid < 0) {
        res->failed_step = SG_STEP_CLONE;
        res->failed_errno = clone_errno;
        if (hand_over[0] >= 0) close(hand_over[0]);
        return -1;
    }
    if (args.failed_step != SG_STEP_NONE) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        if (pidfd >= 0) close(pidfd);
        if (hand_over[0] >= 0) {
            int stray = receive_fd(hand_over[0]);
            if (stray >= 0) close(stray);
            close(hand_over[0]);
        }
        res->failed_step = args.failed_step;
        res->failed_errno = args.failed_errno;
        return -1;
    }
    res->pid = pid;
    res->pidfd = pidfd;
    res->cgroup_join_ns = args.cgroup_join_ns;
    res->setup_ns = args.exec_ns > args.started_ns ? args.exec_ns - args.started_ns : 0;
    if (hand_over[0] >= 0) {
        res->listener_fd = receive_fd(hand_over[0]);
        close(hand_over[0]);
    }
    return 0;
}

const char *sg_spawn_step_name(int step) {
    switch (step) {
    case SG_STEP_NONE: return "none";
    case SG_STEP_CLONE: return "clone";
    case SG_STEP_CGROUP: return "joining the cgroup";
    case SG_STEP_PROCESS_GROUP: return "setsid";
    case SG_STEP_PARENT_DEATH_SIGNAL: return "PR_SET_PDEATHSIG";
    case SG_STEP_PARENT_GONE: return "parent check (the host exited during spawn)";
    case SG_STEP_RLIMIT: return "setrlimit";
    case SG_STEP_CHDIR: return "chdir to the container";
    case SG_STEP_FDS: return "arranging file descriptors";
    case SG_STEP_NO_NEW_PRIVS: return "PR_SET_NO_NEW_PRIVS";
    case SG_STEP_LANDLOCK: return "landlock_restrict_self";
    case SG_STEP_SECCOMP: return "installing the seccomp filter";
    case SG_STEP_LISTENER: return "handing the seccomp listener to the host";
    case SG_STEP_EXEC: return "execve";
    case SG_STEP_SETUP: return "preparing the spawn";
    case SG_STEP_CREDENTIALS: return "switching to the extension's user";
    case SG_STEP_NAMESPACES: return "joining the extensions' mount and network namespaces";
    default: return "unknown step";
    }
}
