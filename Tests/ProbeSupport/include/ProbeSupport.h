// The calls of sandbox-probe that Swift cannot make: variadic C functions, raw system calls of
// another architecture.
#pragma once

#include <sys/prctl.h>

/// prctl(option, arg2, 0, 0, 0): its result, or -errno.
long probe_prctl(int option, unsigned long arg2);
/// getpid through the i386 entry point (`int $0x80`, i386 number 20): the pid, or -errno.
long probe_int80_getpid(void);
/// getpid with the x32 bit set in the syscall number: the pid, or -errno.
long probe_x32_getpid(void);
/// memfd_create("probe", flags): a descriptor, or -errno.
int probe_memfd_create(unsigned int flags);
/// execveat(dirfd, path, {path}, {}, flags): -errno (it returns only when it fails).
int probe_execveat(int dirfd, const char *path, int flags);
/// personality(persona): the previous persona, or -errno.
long probe_personality(unsigned long persona);
/// fallocate(2): 0, or -errno.
long probe_fallocate(int fd, int mode, long offset, long length);
/// mq_open(name, O_CREAT|O_RDWR, 0600, NULL) as a raw call: a descriptor, or -errno.
int probe_mq_open(const char *name);
/// Drops every capability of the calling thread alone (capabilities are per thread): a root
/// test thread then meets file modes as an ordinary owner does. 0, or -errno.
long probe_drop_thread_capabilities(void);
