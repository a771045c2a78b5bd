// The calls of the misbehaving widgets that Swift cannot make (variadic in C).
#pragma once

/// ptrace(PTRACE_TRACEME): 0, or -errno.
int misbehave_ptrace_traceme(void);
/// ptrace(PTRACE_ATTACH, pid): 0, or -errno.
int misbehave_ptrace_attach(int pid);
