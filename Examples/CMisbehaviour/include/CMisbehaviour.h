// The calls of the misbehaving widgets that Swift cannot make (variadic in C).
#pragma once

/// ptrace(PTRACE_TRACEME): 0, or -errno.
int misbehave_ptrace_traceme(void);
/// ptrace(PTRACE_ATTACH, pid): 0, or -errno.
int misbehave_ptrace_attach(int pid);
/// prctl(PR_SET_PDEATHSIG, 0) on the calling thread: 0, or -errno.
int misbehave_clear_parent_death_signal(void);
/// The parent-death signal in force on the calling thread, or -errno.
int misbehave_parent_death_signal(void);
/// Ignores SIGPIPE, SIGHUP and SIGTERM and makes exit() block forever (an atexit handler).
void misbehave_refuse_to_exit(void);
/// getpid through the i386 entry point (`int $0x80`): the pid, or -errno (if it returns at all).
long misbehave_int80_getpid(void);
