// pidfd, reaping with rusage, and the small calls Swift's Glibc module does not offer.
#include "CSandbox.h"

#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

int sg_pidfd_open(pid_t pid) {
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    return fd < 0 ? -errno : fd;
}

int sg_pidfd_send_signal(int pidfd, int sig) {
    return syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0) == 0 ? 0 : -errno;
}

int sg_reap(pid_t pid, int *status, uint64_t *cpu_ms, uint64_t *max_rss_kib) {
    struct rusage ru;
    pid_t r;
    do { r = wait4(pid, status, WNOHANG, &ru); } while (r < 0 && errno == EINTR);
    if (r < 0) return -errno;
    if (r == 0) return 0;
    uint64_t us = (uint64_t)ru.ru_utime.tv_sec * 1000000 + (uint64_t)ru.ru_utime.tv_usec
                + (uint64_t)ru.ru_stime.tv_sec * 1000000 + (uint64_t)ru.ru_stime.tv_usec;
    *cpu_ms = us / 1000;
    *max_rss_kib = (uint64_t)ru.ru_maxrss;
    return 1;
}

int64_t sg_process_cpu_ns(pid_t pid) {
    clockid_t clock;
    if (clock_getcpuclockid(pid, &clock) != 0) return -1;
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) return -1;
    return (int64_t)ts.tv_sec * 1000000000 + (int64_t)ts.tv_nsec;
}

int64_t sg_process_written_bytes(pid_t pid) {
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/io", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return -1;
    text[n] = '\0';
    const char *field = strstr(text, "wchar: ");
    if (!field) return -1;
    return (int64_t)strtoull(field + 7, NULL, 10);
}

int sg_wifexited(int status) { return WIFEXITED(status); }
int sg_wexitstatus(int status) { return WEXITSTATUS(status); }
int sg_wifsignaled(int status) { return WIFSIGNALED(status); }
int sg_wtermsig(int status) { return WTERMSIG(status); }

int sg_socketpair_stream(int fds[2]) {
    return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0 ? 0 : -errno;
}

int sg_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC) == 0 ? 0 : -errno;
}

int sg_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -errno;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 ? 0 : -errno;
}

int sg_count_open_fds(void) {
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -errno;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] != '.') n++;
    }
    closedir(d);
    return n - 1;   // the directory stream's own fd
}

long sg_raise_nofile_limit(void) {
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) != 0) return -errno;
    if (r.rlim_cur < r.rlim_max) {
        r.rlim_cur = r.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &r) != 0) return -errno;
    }
    return (long)r.rlim_cur;
}

int sg_timerfd_create(void) {
    int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int sg_timerfd_set(int fd, uint64_t deadline_ns) {
    struct itimerspec spec = { 0 };
    if (deadline_ns) {
        spec.it_value.tv_sec = (time_t)(deadline_ns / 1000000000ULL);
        spec.it_value.tv_nsec = (long)(deadline_ns % 1000000000ULL);
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL) == 0 ? 0 : -errno;
}

int sg_eventfd_create(void) {
    int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

uint64_t sg_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t sg_realtime_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int sg_gettid(void) { return (int)syscall(SYS_gettid); }

void sg_set_thread_name(const char *name) {
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = 0;
    (void)pthread_setname_np(pthread_self(), cut);
}

int sg_set_affinity(pid_t tid, int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (cpu >= 0) {
        CPU_SET(cpu, &set);
    } else {
        long n = sysconf(_SC_NPROCESSORS_CONF);
        for (long i = 0; i < n && i < CPU_SETSIZE; i++) CPU_SET(i, &set);
    }
    return sched_setaffinity(tid, sizeof set, &set) == 0 ? 0 : -errno;
}

#include <sys/prctl.h>

int sg_set_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : -errno;
}
