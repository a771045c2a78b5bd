#include "CMisbehaviour.h"

#include <errno.h>
#include <sys/ptrace.h>

int misbehave_ptrace_traceme(void) {
    return ptrace(PTRACE_TRACEME, 0, 0, 0) == 0 ? 0 : -errno;
}

int misbehave_ptrace_attach(int pid) {
    return ptrace(PTRACE_ATTACH, pid, 0, 0) == 0 ? 0 : -errno;
}

#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

int misbehave_clear_parent_death_signal(void) {
    return prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0) == 0 ? 0 : -errno;
}

int misbehave_parent_death_signal(void) {
    int signal = -1;
    return prctl(PR_GET_PDEATHSIG, &signal, 0, 0, 0) == 0 ? signal : -errno;
}

static void block_forever(void) {
    for (;;) pause();
}

void misbehave_refuse_to_exit(void) {
    signal(SIGPIPE, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    atexit(block_forever);
}

long misbehave_int80_getpid(void) {
#if defined(__x86_64__)
    long rc;
    __asm__ volatile("int $0x80" : "=a"(rc) : "a"(20L) : "memory");
    return rc;
#else
    return -38;
#endif
}
