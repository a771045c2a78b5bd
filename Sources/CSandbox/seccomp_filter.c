// The default seccomp policy, built with libseccomp once in the parent and exported as BPF.
// Default allow; the denials of the README's "The sandbox": no sockets of its own, no ptrace, mount,
// namespaces, module loading, bpf, perf, keyring, process_vm_*, no new processes (threads
// allowed; clone3 answers ENOSYS so that glibc falls back to clone), no io_uring (it could open
// sockets behind seccomp's back), and no further seccomp filters (a stacked USER_NOTIF filter
// could answer our notifications). Also denied: prctl options outside a short allowlist (the
// parent-death signal must stay), SysV IPC and POSIX message queues (state that outlives the
// process and is shared between extensions), execveat and executable memfds (exec of code that
// is no file of the bundle), personality changes, and calls no extension needs. A system call of
// another architecture (i386 `int 0x80`, x32) kills the process with SIGSYS. fallocate answers
// EOPNOTSUPP: blocks reserved without a write would pass the container quota unmeasured.
// Where extensions share a uid, changing a file's metadata by path is denied too (see below).
#include "CSandbox.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *const denied_syscalls[] = {
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
    "fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "open_tree_attr", "mount_setattr",
    "bpf", "perf_event_open", "userfaultfd",
    "add_key", "request_key", "keyctl",
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
    "reboot", "swapon", "swapoff", "acct", "quotactl",
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "iopl", "ioperm", "syslog", "name_to_handle_at", "open_by_handle_at",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    // Linux AIO: O_DIRECT writes that neither the process's CPU time nor its written bytes
    // (wchar) show, which the container sweep of idle processes goes by. POSIX aio_* uses threads.
    "io_setup", "io_submit", "io_cancel", "io_destroy", "io_getevents", "io_pgetevents",
    "fork", "vfork",
    // SysV IPC and POSIX message queues: objects that outlive the process, shared by key.
    "shmget", "shmat", "shmctl", "shmdt", "semget", "semop", "semtimedop", "semctl",
    "msgget", "msgsnd", "msgrcv", "msgctl",
    "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
    // Exec of a descriptor (a memfd, a file opened before a rename); glibc's execve does not use it.
    "execveat",
    // Obsolete, privileged or NUMA-placement calls no extension needs.
    "vhangup", "lookup_dcookie", "nfsservctl", "uselib", "ustat", "sysfs", "_sysctl", "modify_ldt",
    "mbind", "migrate_pages", "move_pages", "set_mempolicy", "set_mempolicy_home_node",
    "process_madvise", "remap_file_pages",
    // Secret memory: pages no memory watchdog reads, like a memfd's.
    "memfd_secret",
};

// The prctl options an extension may use: naming threads (Foundation, Dispatch), naming
// anonymous mappings (glibc), queries, and no_new_privs (already set). Everything else — first
// of all PR_SET_PDEATHSIG, which would let it outlive its host — is denied. PR_SET_SECCOMP is
// answered by the kernel below. Sorted.
static const uint64_t allowed_prctl_options[] = {
    PR_GET_PDEATHSIG, PR_GET_DUMPABLE, PR_GET_UNALIGN, PR_GET_KEEPCAPS, PR_GET_FPEMU, PR_GET_FPEXC,
    PR_GET_TIMING, PR_SET_NAME, PR_GET_NAME, PR_GET_ENDIAN, PR_GET_SECCOMP, PR_SET_SECCOMP,
    PR_CAPBSET_READ, PR_GET_TSC, PR_GET_SECUREBITS, PR_GET_TIMERSLACK, PR_MCE_KILL_GET,
    PR_GET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS, PR_GET_NO_NEW_PRIVS, PR_GET_TID_ADDRESS,
    PR_GET_THP_DISABLE, PR_GET_FP_MODE, PR_GET_SPECULATION_CTRL, PR_GET_TAGGED_ADDR_CTRL,
    58 /* PR_GET_IO_FLUSHER */, 66 /* PR_GET_MDWE */, PR_SET_VMA,
};

#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

// Adds `action` for prctl with option in [lo, hi] (64-bit, as the filter compares it): aligned
// power-of-two blocks, one masked comparison each (libseccomp compares an argument once per rule).
static int deny_prctl_range(scmp_filter_ctx ctx, uint32_t action, uint64_t lo, uint64_t hi) {
    while (lo <= hi) {
        unsigned bits = 0;
        while (bits < 63) {
            uint64_t size = 1ULL << (bits + 1);
            if ((lo & (size - 1)) != 0 || lo + size - 1 > hi || lo + size - 1 < lo) break;
            bits++;
        }
        uint64_t mask = ~((1ULL << bits) - 1);
        int rc = seccomp_rule_add(ctx, action, SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, mask, lo));
        if (rc < 0) return rc;
        uint64_t next = lo + (1ULL << bits);
        if (next == 0 || next - 1 >= hi) break;
        lo = next;
    }
    return 0;
}

static int add_prctl_rules(scmp_filter_ctx ctx, uint32_t deny) {
    const size_t count = sizeof allowed_prctl_options / sizeof *allowed_prctl_options;
    uint64_t lo = 0;
    int rc;
    for (size_t i = 0; i < count; i++) {
        uint64_t option = allowed_prctl_options[i];
        if (option > lo && (rc = deny_prctl_range(ctx, deny, lo, option - 1)) < 0) return rc;
        lo = option + 1;
    }
    if ((rc = seccomp_rule_add(ctx, deny, SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_GE, lo))) < 0) return rc;
    // No stacked filters: answered by the kernel (a notification could be answered by its own listener).
    return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_EQ, PR_SET_SECCOMP));
}

int sg_seccomp_notify_available(void) {
    unsigned int action = SECCOMP_RET_USER_NOTIF;
    return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0 ? 1 : 0;
}

// By path: a file's mode, owner, times and extended attributes, which no Landlock right covers.
// Denied where extensions share a uid (a host not root, ExtensionUser.id): the kernel would let an
// extension change every file of that uid it can name — another extension's container, the
// user's home — and Landlock would not stop it. Through a descriptor (fchmod, fchown, fsetxattr,
// futimens) it changes only what it opened, which Landlock allowed (an O_PATH descriptor, which
// Landlock does not check, is refused by those calls with EBADF). fchownat and fchmodat2 take a
// descriptor and an empty path (AT_EMPTY_PATH) that may be an O_PATH one: denied whole.
// setxattrat and removexattrat (Linux 6.13) and file_setattr (6.17, a file's flags) take a path too.
static const char *const path_metadata_syscalls[] = {
    "chmod", "fchmodat", "fchmodat2", "chown", "lchown", "fchownat",
    "setxattr", "lsetxattr", "removexattr", "lremovexattr", "setxattrat", "removexattrat", "file_setattr",
    "utime", "utimes", "futimesat",
    // Landlock checks truncate(2) only from ABI 3 (Linux 6.2); ftruncate, on what it opened, stays.
    "truncate",
};

// Calls newer than some libseccomp, by their numbers: the generic table's, which x86_64 and
// aarch64 share for calls added since Linux 5.1 (this filter is built for the host's architecture).
static const struct { const char *name; int nr; } newer_syscalls[] = {
    { "fchmodat2", 452 }, { "setxattrat", 463 }, { "removexattrat", 466 }, { "open_tree_attr", 467 }, { "file_setattr", 469 },
};

// The number of the call `name` on this architecture, __NR_SCMP_ERROR when it has none.
static int resolve_syscall(const char *name) {
    int nr = seccomp_syscall_resolve_name(name);
    if (nr != __NR_SCMP_ERROR) return nr;
    for (size_t i = 0; i < sizeof newer_syscalls / sizeof *newer_syscalls; i++) {
        if (strcmp(newer_syscalls[i].name, name) == 0) return newer_syscalls[i].nr;
    }
    return __NR_SCMP_ERROR;
}

long sg_seccomp_build_default(int use_notify, int allow_memfd, int deny_path_metadata, void *out, size_t cap) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) return -ENOMEM;
    long rc = 0;
    const uint32_t deny = use_notify ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(EPERM);
    const uint32_t deny_socket = use_notify ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(EACCES);
    // i386 (`int 0x80`) and x32 calls: the filter knows only x86_64's numbers. libseccomp's
    // default kills the thread alone, silently; the process dies instead, by SIGSYS, which the
    // host records as a sandbox violation.
    if ((rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS)) < 0) goto out;
    // A binary search over syscall numbers: every call pays a few comparisons, not one per rule.
    (void)seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);

    for (size_t i = 0; i < sizeof denied_syscalls / sizeof *denied_syscalls; i++) {
        int nr = resolve_syscall(denied_syscalls[i]);
        if (nr == __NR_SCMP_ERROR) continue;   // not on this architecture
        if ((rc = seccomp_rule_add(ctx, deny, nr, 0)) < 0) goto out;
    }
    // No sockets of its own, of any family: every network request goes through the host, and a
    // Unix socket reaches whatever the system serves by path (journald's /dev/log, D-Bus, a
    // container runtime's socket), which no Landlock right covers, or by abstract name. The one
    // socket an extension needs is its IPC channel, fd 3, connected before exec.
    // A Unix one is answered by the kernel, unreported: glibc's nscd client tries one whenever a
    // user or group is looked up (Foundation's UserDefaults does), and syslog() another.
    if ((rc = seccomp_rule_add(ctx, deny_socket, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX))) < 0) goto out;
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, AF_UNIX))) < 0) goto out;
    // socketpair: only Unix stream and seqpacket pairs, which can reach nothing but each other.
    // Another family creates sockets of its own (AF_TIPC's work, and loading a family's module);
    // a datagram pair's sendto/sendmsg with an address reaches any named datagram socket, and
    // the kernel makes a Unix SOCK_RAW pair a datagram one. Bit 1 of the type is set in both
    // (2, 3) and clear in stream (1) and seqpacket (5); no other type is a Unix one.
    if ((rc = seccomp_rule_add(ctx, deny_socket, SCMP_SYS(socketpair), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX))) < 0) goto out;
    if ((rc = seccomp_rule_add(ctx, deny_socket, SCMP_SYS(socketpair), 2, SCMP_A0(SCMP_CMP_EQ, AF_UNIX),
                               SCMP_A1(SCMP_CMP_MASKED_EQ, 0x2ULL, 0x2ULL))) < 0) goto out;
    // Nor naming, connecting or serving one: a pair's socket bound to an abstract name would take
    // that name from whatever service binds it later.
    static const int socket_calls[] = { SCMP_SYS(bind), SCMP_SYS(connect), SCMP_SYS(listen), SCMP_SYS(accept), SCMP_SYS(accept4) };
    for (size_t i = 0; i < sizeof socket_calls / sizeof *socket_calls; i++) {
        if ((rc = seccomp_rule_add(ctx, deny_socket, socket_calls[i], 0)) < 0) goto out;
    }
    // No typing into a terminal's input, nor its console tricks (the command is an unsigned int).
    if ((rc = seccomp_rule_add(ctx, deny, SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffULL, TIOCSTI))) < 0) goto out;
    if ((rc = seccomp_rule_add(ctx, deny, SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffULL, TIOCLINUX))) < 0) goto out;
    // Threads yes (CLONE_THREAD), processes no.
    if ((rc = seccomp_rule_add(ctx, deny, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0))) < 0) goto out;
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0)) < 0) goto out;
    // No fallocate (answered by the kernel, EOPNOTSUPP as on a file system without it): it reserves
    // blocks without writing a byte — with KEEP_SIZE past RLIMIT_FSIZE too — and would fill the
    // host's disk between two measures of the container. posix_fallocate falls back to writes.
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EOPNOTSUPP), SCMP_SYS(fallocate), 0)) < 0) goto out;
    // A raised priority (a negative nice value: libdispatch gives a user-initiated worker -4) is
    // taken as the hint iOS takes a QoS for, and not applied: answered 0 by the kernel, the call
    // skipped. RLIMIT_NICE 0 would refuse it, and libdispatch would report the refusal through
    // syslog, at every launch. The value is an int: its sign bit is bit 31 of the register.
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(0), SCMP_SYS(setpriority), 1,
                               SCMP_A2(SCMP_CMP_MASKED_EQ, 0x80000000ULL, 0x80000000ULL))) < 0) goto out;
    // No stacked filters (answered by the kernel: a notification could be answered by its own listener).
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(seccomp), 0)) < 0) goto out;
    if ((rc = add_prctl_rules(ctx, deny)) < 0) goto out;
    if (allow_memfd) {
        // Executable memfds: only sealed non-executable ones (MFD_NOEXEC_SEAL, never MFD_EXEC).
        if ((rc = seccomp_rule_add(ctx, deny, SCMP_SYS(memfd_create), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, MFD_EXEC, MFD_EXEC))) < 0) goto out;
        if ((rc = seccomp_rule_add(ctx, deny, SCMP_SYS(memfd_create), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, MFD_NOEXEC_SEAL, 0))) < 0) goto out;
    } else {
        // No memory cgroup counts a memfd's pages, and the resident-memory watchdog does not see
        // those written and not mapped (or mapped and never touched): none at all.
        if ((rc = seccomp_rule_add(ctx, deny, SCMP_SYS(memfd_create), 0)) < 0) goto out;
    }
    if (deny_path_metadata) {
        for (size_t i = 0; i < sizeof path_metadata_syscalls / sizeof *path_metadata_syscalls; i++) {
            int nr = resolve_syscall(path_metadata_syscalls[i]);
            if (nr == __NR_SCMP_ERROR) continue;
            if ((rc = seccomp_rule_add(ctx, deny, nr, 0)) < 0) goto out;
        }
        // utimensat with a path; with none (NULL) it is futimens, on the descriptor.
        if ((rc = seccomp_rule_add(ctx, deny, SCMP_SYS(utimensat), 1, SCMP_A1(SCMP_CMP_NE, 0))) < 0) goto out;
    }
    // personality: only the query personality(0xffffffff) (glibc, Foundation); no READ_IMPLIES_EXEC,
    // no ADDR_NO_RANDOMIZE.
    if ((rc = seccomp_rule_add(ctx, deny, SCMP_SYS(personality), 1, SCMP_A0(SCMP_CMP_NE, 0xffffffffULL))) < 0) goto out;

    int mfd = (int)syscall(SYS_memfd_create, "sandglass-bpf", 1U /* MFD_CLOEXEC */);
    if (mfd < 0) { rc = -errno; goto out; }
    if ((rc = seccomp_export_bpf(ctx, mfd)) < 0) { close(mfd); goto out; }
    off_t size = lseek(mfd, 0, SEEK_END);
    if (size < 0 || (size_t)size > cap) { rc = size < 0 ? -errno : -ENOSPC; close(mfd); goto out; }
    if (pread(mfd, out, (size_t)size, 0) != size) { rc = -EIO; close(mfd); goto out; }
    close(mfd);
    rc = (long)size;
out:
    seccomp_release(ctx);
    return rc;
}

void sg_syscall_name(int nr, char *out, size_t cap) {
    if (cap == 0) return;
    char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
    if (name) {
        snprintf(out, cap, "%s", name);
        free(name);
    } else {
        for (size_t i = 0; i < sizeof newer_syscalls / sizeof *newer_syscalls; i++) {
            if (newer_syscalls[i].nr == nr) { snprintf(out, cap, "%s", newer_syscalls[i].name); return; }
        }
        snprintf(out, cap, "syscall_%d", nr);
    }
}
