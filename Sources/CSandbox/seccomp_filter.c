// The default seccomp policy, built with libseccomp once in the parent and exported as BPF.
// Default allow; the denials of DESIGN.md "Sandbox": no internet sockets, no ptrace, mount,
// namespaces, module loading, bpf, perf, keyring, process_vm_*, no new processes (threads
// allowed; clone3 answers ENOSYS so that glibc falls back to clone), no io_uring (it could open
// sockets behind seccomp's back), and no further seccomp filters (a stacked USER_NOTIF filter
// could answer our notifications).
#include "CSandbox.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *const denied_syscalls[] = {
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
    "fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr",
    "bpf", "perf_event_open", "userfaultfd",
    "add_key", "request_key", "keyctl",
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
    "reboot", "swapon", "swapoff", "acct", "quotactl",
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "iopl", "ioperm", "syslog", "name_to_handle_at", "open_by_handle_at",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "fork", "vfork",
};

int sg_seccomp_notify_available(void) {
    unsigned int action = SECCOMP_RET_USER_NOTIF;
    return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0 ? 1 : 0;
}

long sg_seccomp_build_default(int use_notify, void *out, size_t cap) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) return -ENOMEM;
    long rc = 0;
    const uint32_t deny = use_notify ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(EPERM);
    const uint32_t deny_socket = use_notify ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(EACCES);

    for (size_t i = 0; i < sizeof denied_syscalls / sizeof *denied_syscalls; i++) {
        int nr = seccomp_syscall_resolve_name(denied_syscalls[i]);
        if (nr == __NR_SCMP_ERROR) continue;   // not on this architecture
        if ((rc = seccomp_rule_add(ctx, deny, nr, 0)) < 0) goto out;
    }
    // Only Unix-domain sockets: every network request goes through the host.
    if ((rc = seccomp_rule_add(ctx, deny_socket, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX))) < 0) goto out;
    // Threads yes (CLONE_THREAD), processes no.
    if ((rc = seccomp_rule_add(ctx, deny, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0))) < 0) goto out;
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0)) < 0) goto out;
    // No stacked filters (answered by the kernel: a notification could be answered by its own listener).
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(seccomp), 0)) < 0) goto out;
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_EQ, PR_SET_SECCOMP))) < 0) goto out;

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
        snprintf(out, cap, "syscall_%d", nr);
    }
}
