#define _GNU_SOURCE
#include "ProbeSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static long result(long rc) { return rc < 0 ? -errno : rc; }

long probe_prctl(int option, unsigned long arg2) { return result(prctl(option, arg2, 0UL, 0UL, 0UL)); }

long probe_int80_getpid(void) {
#if defined(__x86_64__)
    long rc;
    __asm__ volatile("int $0x80" : "=a"(rc) : "a"(20L) : "memory");
    return rc;
#else
    return -ENOSYS;
#endif
}

long probe_x32_getpid(void) {
#if defined(__x86_64__)
    return result(syscall(0x40000000L | SYS_getpid));
#else
    return -ENOSYS;
#endif
}

int probe_memfd_create(unsigned int flags) { return (int)result(syscall(SYS_memfd_create, "probe", flags)); }

int probe_execveat(int dirfd, const char *path, int flags) {
    char *const argv[] = { (char *)path, NULL };
    char *const envp[] = { NULL };
    return (int)result(syscall(SYS_execveat, dirfd, path, argv, envp, flags));
}

long probe_personality(unsigned long persona) { return result(syscall(SYS_personality, persona)); }

long probe_fallocate(int fd, int mode, long offset, long length) {
    return result(syscall(SYS_fallocate, fd, mode, offset, length));
}

int probe_mq_open(const char *name) { return (int)result(syscall(SYS_mq_open, name, O_CREAT | O_RDWR, 0600, NULL)); }

#include <linux/capability.h>

long probe_drop_thread_capabilities(void) {
    struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
    struct __user_cap_data_struct data[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
    return result(syscall(SYS_capset, &header, data));
}
