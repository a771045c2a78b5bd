// CSandbox: only what Swift cannot do — the code between clone and execve, the seccomp
// macros of libseccomp, Landlock and pidfd syscalls, seccomp user notifications.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sg_clock_page.h"

#ifdef __cplusplus
extern "C" {
#endif

// MARK: spawn

/// Resource limits applied in the child; 0 leaves a limit as inherited.
typedef struct sg_rlimits {
    uint64_t cpu_seconds;      ///< RLIMIT_CPU soft; the hard limit is one second more (SIGXCPU, then SIGKILL).
    uint64_t data_bytes;       ///< RLIMIT_DATA, a loose backstop (memory is enforced by cgroup or watchdog).
    uint64_t open_files;       ///< RLIMIT_NOFILE.
    uint64_t file_size_bytes;  ///< RLIMIT_FSIZE.
    uint64_t tasks;            ///< RLIMIT_NPROC, set when the extension has a uid of its own (0: left as it is).
    int no_priority;           ///< RLIMIT_RTPRIO and RLIMIT_NICE 0: no real-time scheduling, no raised priority.
} sg_rlimits;

/// Everything the child needs between clone and execve. Nothing here is allocated after clone.
typedef struct sg_spawn_request {
    const char *path;             ///< executable
    char *const *argv;
    char *const *envp;
    const char *cwd;              ///< chdir target (the container), or NULL
    int stdin_fd;                 ///< becomes fd 0
    int stdout_fd;                ///< becomes fd 1
    int stderr_fd;                ///< becomes fd 2
    int ipc_fd;                   ///< becomes fd 3
    sg_rlimits limits;
    const void *bpf;              ///< exported seccomp program (struct sock_filter[]), or NULL
    size_t bpf_len;               ///< bytes
    int bpf_wants_listener;       ///< the program returns SECCOMP_RET_USER_NOTIF: create a listener and hand it to the parent
    int landlock_ruleset_fd;      ///< from sg_landlock_create, or -1
    const int *cgroup_procs_fds;  ///< open join files (v1 `tasks`, v2 `cgroup.procs`) the child writes "0" to (joins before anything else)
    int cgroup_procs_count;
    int new_process_group;        ///< setsid(): a session and process group of its own, no controlling terminal
    int uid;                      ///< run as this user (setresuid), or -1 to stay
    int gid;                      ///< run with this group (setresgid), or -1 to stay
    const unsigned int *supplementary_gids; ///< the supplementary groups with `gid` (the app groups it shares), or NULL
    int supplementary_gid_count;
    int parent_death_signal;      ///< PR_SET_PDEATHSIG, 0 for none
    int mount_ns_fd;              ///< a mount namespace to join (setns) before anything but the cgroup, or -1
    int net_ns_fd;                ///< a network namespace to join, or -1
} sg_spawn_request;

/// The step of the child's setup that failed.
typedef enum sg_spawn_step {
    SG_STEP_NONE = 0,
    SG_STEP_CLONE = 1,
    SG_STEP_CGROUP = 2,
    SG_STEP_PROCESS_GROUP = 3,
    SG_STEP_PARENT_DEATH_SIGNAL = 4,
    SG_STEP_PARENT_GONE = 5,
    SG_STEP_RLIMIT = 6,
    SG_STEP_CHDIR = 7,
    SG_STEP_FDS = 8,
    SG_STEP_NO_NEW_PRIVS = 9,
    SG_STEP_LANDLOCK = 10,
    SG_STEP_SECCOMP = 11,
    SG_STEP_LISTENER = 12,
    SG_STEP_EXEC = 13,
    SG_STEP_SETUP = 14,
    SG_STEP_CREDENTIALS = 15,
    SG_STEP_NAMESPACES = 16,
} sg_spawn_step;

typedef struct sg_spawn_result {
    pid_t pid;
    int pidfd;
    int listener_fd;      ///< seccomp notification listener, or -1
    int failed_step;      ///< sg_spawn_step, SG_STEP_NONE on success
    int failed_errno;
    uint64_t cgroup_join_ns;  ///< how long joining the cgroups took in the child (CLOCK_MONOTONIC)
    uint64_t setup_ns;        ///< clone → execve in the child, all steps (CLOCK_MONOTONIC)
} sg_spawn_result;

/// Spawns `req->path` with clone(CLONE_VM | CLONE_VFORK | CLONE_PIDFD): returns when the child has
/// exec'd (0) or failed (-1, with the step and errno in `res`; the child is reaped).
/// Call from a long-lived thread: PR_SET_PDEATHSIG follows the thread that spawns.
int sg_spawn(const sg_spawn_request *req, sg_spawn_result *res);

/// A readable name for a spawn step.
const char *sg_spawn_step_name(int step);

// MARK: namespaces (made once per host process)

/// The steps of making the extensions' namespaces.
#define SG_NAMESPACES_OK 0
#define SG_NAMESPACES_CLONE 1
#define SG_NAMESPACES_PROPAGATION 2
#define SG_NAMESPACES_PROC 3
#define SG_NAMESPACES_OPEN 4
/// The host runs in a chroot: a mount namespace's root is not its root.
#define SG_NAMESPACES_CHROOT 5
#define SG_NAMESPACES_ROOT 6

/// Makes a mount namespace (the host's mounts, /proc a procfs of its own with hidepid=2, and
/// subset=pid where the kernel has it) and an empty network namespace, through a helper process
/// that is gone when this returns. On success (0) `mount_ns` and `net_ns` are their descriptors
/// for setns, `proc_root` an O_PATH descriptor of that /proc (for Landlock's rule) and
/// `proc_subset` 1 when it took subset=pid; else -errno and the step that failed.
int sg_namespaces_create(int *mount_ns, int *net_ns, int *proc_root, int *proc_subset, int *failed_step);

/// A readable name for a step of sg_namespaces_create.
const char *sg_namespaces_step_name(int step);

// MARK: container usage (the host, off its loop thread)

/// The walk stopped: more entries than the inode limit.
#define SG_USAGE_OVER_INODES 1
/// The walk stopped: a directory nested deeper than the depth limit.
#define SG_USAGE_TOO_DEEP 2
/// A directory of the container (or the container) that the host may not read: its contents unknown.
#define SG_USAGE_UNREADABLE 3

/// Sums st_blocks × 512 and counts the entries beneath `root` (not itself), never following a
/// symbolic link; stops once the count passes `inode_limit` (so the walk's cost is bounded by
/// it) or a directory lies more than `max_depth` levels down. 0 when complete,
/// SG_USAGE_OVER_INODES or SG_USAGE_TOO_DEEP when stopped, -errno when `root` cannot be opened.
int sg_container_usage(const char *root, long inode_limit, int max_depth, unsigned long long *bytes, long *inodes);

/// The bytes of regular files process `pid` holds open or mapped that no directory names (unlinked
/// after being written) on the containers' file system `device`: counted toward its container's
/// quota. With `uid` ≥ 0, only files it owns.
unsigned long long sg_unlinked_open_bytes(pid_t pid, long uid, dev_t device);

// MARK: seccomp (libseccomp, in the parent only)

/// Builds the default policy and exports it as BPF into `out` (capacity `cap` bytes).
/// `use_notify`: denials return SECCOMP_RET_USER_NOTIF (the host answers and records them)
/// instead of an errno. `allow_memfd`: sealed non-executable memfds are allowed (their memory is
/// a memory cgroup's to count); 0 denies memfd_create altogether. `deny_path_metadata`: changing
/// a file's mode, owner, times or extended attributes by path is denied (extensions that share a
/// uid). Returns the program size in bytes, or -errno.
long sg_seccomp_build_default(int use_notify, int allow_memfd, int deny_path_metadata, void *out, size_t cap);

/// Changes the mode of the file `fd` holds, which may be an O_PATH descriptor: fchmodat2 with
/// an empty path, else through /proc/self/fd. 0, or -1 with errno.
int sg_chmod_held(int fd, unsigned int mode);

/// 1 when the kernel supports SECCOMP_RET_USER_NOTIF, else 0.
int sg_seccomp_notify_available(void);

/// The name of syscall `nr` on this architecture; writes at most `cap` bytes (NUL-terminated).
void sg_syscall_name(int nr, char *out, size_t cap);

// MARK: seccomp user notifications (the host's side)

typedef struct sg_notification {
    uint64_t id;
    uint32_t pid;
    int32_t syscall_nr;
    uint64_t args[6];
} sg_notification;

/// Receives one pending notification (ioctl SECCOMP_IOCTL_NOTIF_RECV). 0, or -errno.
int sg_notify_receive(int listener, sg_notification *out);
/// Answers notification `id`: the syscall fails with `error` (a positive errno). 0, or -errno.
int sg_notify_deny(int listener, uint64_t id, int error);

// MARK: Landlock

/// The Landlock ABI version the kernel offers, or 0 when Landlock is unavailable.
int sg_landlock_abi(void);
/// A ruleset allowing reads and writes only beneath `write_paths` (and of the files in
/// `write_files`), reads and execution only beneath `exec_paths`, reads only beneath
/// `read_paths` (directories or files), and — on ABI ≥ 4 — no TCP bind/connect, on ABI ≥ 6 no
/// signals or abstract sockets outside the domain. `handle_reads` 0 leaves reads unrestricted.
/// Missing paths are skipped. Returns an fd, or -errno.
int sg_landlock_create(const char *const *write_paths, int write_count,
                       const char *const *write_files, int write_file_count,
                       const char *const *exec_paths, int exec_count,
                       const char *const *read_paths, int read_count, int handle_reads);

// MARK: pidfd

int sg_pidfd_open(pid_t pid);
int sg_pidfd_send_signal(int pidfd, int sig);

/// wait4(pid, WNOHANG) with rusage: 1 when reaped (status and usage filled), 0 when still
/// running, -errno on error. `cpu_ms` is user + system time, `max_rss_kib` the peak RSS.
int sg_reap(pid_t pid, int *status, uint64_t *cpu_ms, uint64_t *max_rss_kib);

/// The CPU time process `pid` has used so far, all its threads, in nanoseconds (its process
/// CPU clock: exact, where /proc's utime and stime count 10 ms ticks), or -1.
int64_t sg_process_cpu_ns(pid_t pid);

/// The bytes process `pid` has passed to write calls so far (`wchar` of /proc/<pid>/io), or -1.
int64_t sg_process_written_bytes(pid_t pid);

/// The decoded parts of a wait status.
int sg_wifexited(int status);
int sg_wexitstatus(int status);
int sg_wifsignaled(int status);
int sg_wtermsig(int status);

// MARK: small helpers Swift cannot call directly

/// posix_spawn of a helper program (not an extension: no sandbox): `stdin_fd`, `stdout_fd` and
/// `stderr_fd` become its 0-2, every other descriptor is closed in it; `cwd` may be NULL.
/// 0 with `*pid` set, or -errno.
int sg_spawn_helper(const char *path, char *const argv[], char *const envp[], const char *cwd,
                    int stdin_fd, int stdout_fd, int stderr_fd, pid_t *pid);

/// socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | flags); 0 or -errno.
int sg_socketpair_stream(int fds[2]);
/// pipe2(O_CLOEXEC); 0 or -errno.
int sg_pipe(int fds[2]);
/// O_NONBLOCK on; 0 or -errno.
int sg_set_nonblocking(int fd);

// send(2) of `len` bytes with MSG_NOSIGNAL|MSG_DONTWAIT, and `fd` attached to their first byte
// (SCM_RIGHTS) when it is >= 0. Returns the bytes sent or -1 with errno.
long sg_send_with_descriptor(int sock, const void *buf, unsigned long len, int fd);

// The file (shared library or executable) that `symbol` of this process was loaded from, into
// `path` (NUL-terminated). 0, or -1 when unknown or too long.
int sg_library_of_symbol(const char *symbol, char *path, unsigned long size);
/// Number of open fds of this process (entries of /proc/self/fd), or -errno.
int sg_count_open_fds(void);
/// prctl(PR_SET_CHILD_SUBREAPER, 1): orphaned descendants are reparented to this process
/// (a supervisor of hosts reaps the extensions of a host that died). 0 or -errno.
int sg_set_child_subreaper(void);
/// Raises RLIMIT_NOFILE's soft limit to its hard limit; returns the new soft limit.
long sg_raise_nofile_limit(void);
/// timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC).
int sg_timerfd_create(void);
/// Arms `fd` to fire once at `deadline_ns` on CLOCK_MONOTONIC (absolute); 0 disarms.
int sg_timerfd_set(int fd, uint64_t deadline_ns);
/// eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC).
int sg_eventfd_create(void);
/// CLOCK_MONOTONIC now in nanoseconds.
uint64_t sg_monotonic_ns(void);
/// CLOCK_REALTIME now in nanoseconds since 1970.
uint64_t sg_realtime_ns(void);
/// The calling thread's kernel id.
int sg_gettid(void);
/// Names the calling thread (what top, gdb and perf show; the kernel keeps 15 bytes).
void sg_set_thread_name(const char *name);
/// Pins thread `tid` (0: the caller) to `cpu`, or lets it run anywhere when `cpu` < 0; 0 or -errno.
int sg_set_affinity(pid_t tid, int cpu);

// MARK: budget deadlines (deadline_killer.c)

/// A thread that SIGKILLs extensions at their budget deadlines, through their pidfds.
typedef struct sg_killer sg_killer;
/// One process as the deadline thread knows it: its pidfd, its IPC socket, whether the loop reads it.
typedef struct sg_kill_target sg_kill_target;

enum { SG_KILLER_FIFO = 1, SG_KILLER_RR = 2, SG_KILLER_NICE = 3, SG_KILLER_NORMAL = 4 };

/// The scheduling the thread got: a SG_KILLER_* policy, its real-time priority (FIFO, RR) or nice
/// value (NICE, NORMAL), and the errno that refused SCHED_FIFO (0 when granted).
typedef struct sg_killer_scheduling {
    int policy;
    int value;
    int error;
} sg_killer_scheduling;

/// How the deadlines ended: killed by the thread, left to the loop for input the host had not
/// read, left because the process was already dead, taken back in time by the loop.
typedef struct sg_killer_counts {
    uint64_t fired;
    uint64_t left_for_input;
    uint64_t not_sent;
    uint64_t cancelled;
} sg_killer_counts;

/// Starts the thread, at SCHED_FIFO `rt_priority` where it may (else SCHED_RR, else the lowest
/// nice value it may take); returns when it runs, with what it got in `scheduling`. NULL with errno.
sg_killer *sg_killer_start(int rt_priority, sg_killer_scheduling *scheduling);
/// Stops and joins the thread (later calls do nothing); deadlines armed after it never fire.
void sg_killer_stop(sg_killer *killer);
/// Stops the thread if it runs and frees the killer: after every target is released.
void sg_killer_free(sg_killer *killer);
/// A target for process `pidfd` whose IPC socket is `channel_fd` and seccomp notification
/// listener `listener_fd` (-1: none); the caller keeps them open until it forgets them and
/// releases the target. NULL when out of memory.
sg_kill_target *sg_killer_target(sg_killer *killer, int pidfd, int channel_fd, int listener_fd);
/// The loop enters (1) or leaves (0) a read of the target's channel or listener; lock-free.
void sg_kill_target_reading(sg_kill_target *target, int reading);
/// The loop is about to close the target's IPC socket: no longer peeked.
void sg_kill_target_forget_channel(sg_kill_target *target);
/// The loop is about to close the target's notification listener: no longer polled.
void sg_kill_target_forget_listener(sg_kill_target *target);
/// Drops every deadline of the target and frees it; after this the thread never touches its
/// pidfd. Call before closing the pidfd.
void sg_kill_target_release(sg_kill_target *target);
/// Arms a SIGKILL of `target` at `deadline_ns` (CLOCK_MONOTONIC); the deadline's id, or 0 when
/// out of memory.
uint64_t sg_killer_arm(sg_killer *killer, sg_kill_target *target, uint64_t deadline_ns);

enum { SG_DEADLINE_UNKNOWN = -1, SG_DEADLINE_CANCELLED = 0, SG_DEADLINE_KILLED = 1, SG_DEADLINE_LEFT = 2 };

/// Settles deadline `id` once, under the thread's lock: CANCELLED (it had not come: nothing is
/// ever sent), KILLED (the thread sent SIGKILL at `*killed_at_ns`), LEFT (it came, and the thread
/// sent nothing: input unread or the process already dead — the loop decides), UNKNOWN.
int sg_killer_settle(sg_killer *killer, uint64_t id, uint64_t *killed_at_ns);
/// The counts so far.
void sg_killer_get_counts(sg_killer *killer, sg_killer_counts *counts);

// MARK: epoll (Swift's Glibc module does not export it)

enum { SG_EPOLLIN = 0x001, SG_EPOLLOUT = 0x004, SG_EPOLLERR = 0x008, SG_EPOLLHUP = 0x010, SG_EPOLLRDHUP = 0x2000 };

typedef struct sg_event {
    int fd;
    uint32_t events;
} sg_event;

/// epoll_create1(EPOLL_CLOEXEC); fd or -errno.
int sg_epoll_create(void);
/// EPOLL_CTL_ADD / MOD / DEL with the fd as the event's data; 0 or -errno.
int sg_epoll_add(int epfd, int fd, uint32_t events);
int sg_epoll_modify(int epfd, int fd, uint32_t events);
int sg_epoll_remove(int epfd, int fd);
/// epoll_wait into `out`; the count, or -errno (EINTR included).
int sg_epoll_wait(int epfd, sg_event *out, int capacity, int timeout_ms);

// MARK: the virtual clock's shared page (layout in sg_clock_page.h)

/// Creates (or truncates) the page file at `path` (mode 0644), maps it shared and writes the
/// header with `offset_ns`; the mapping, or NULL with errno set.
sg_clock_page *sg_clock_page_create(const char *path, int64_t offset_ns);
/// Stores a new offset (release) and counts the jump.
void sg_clock_page_publish(sg_clock_page *page, int64_t offset_ns);
/// Unmaps the page.
void sg_clock_page_close(sg_clock_page *page);

#ifdef __cplusplus
}
#endif
