#include "CMisbehaviour.h"

#include <errno.h>
#include <sys/ptrace.h>

int misbehave_ptrace_traceme(void) {
    return ptrace(PTRACE_TRACEME, 0, 0, 0) == 0 ? 0 : -errno;
}

int misbehave_ptrace_attach(int pid) {
    return ptrace(PTRACE_ATTACH, pid, 0, 0) == 0 ? 0 : -errno;
}
