// libsandglass-clock.so — the extension's wall clock follows the host's virtual clock.
//
// Loaded with LD_PRELOAD into an extension (unmodified code, static Swift standard library or
// not) when the host runs on the virtual clock. It interposes the libc entry points that read
// the wall clock — clock_gettime (CLOCK_REALTIME, CLOCK_REALTIME_COARSE), gettimeofday, time,
// timespec_get — and answers CLOCK_MONOTONIC + the offset the host publishes in a shared page
// (SANDGLASS_CLOCK_PAGE, see sg_clock_page.h). Monotonic clocks are passed through, so the
// budgets the host measures and the extension's own timeouts stay on real time.
//
// Without the environment variable, or when the page cannot be mapped, every call is passed
// through unchanged. Built by the Makefile with the C compiler (not by SwiftPM, whose dynamic
// libraries link the Swift runtime), into the directory of the host's executable:
//     cc -shared -fPIC -O2 -I Sources/CSandbox/include -o .build/debug/libsandglass-clock.so
//        Sources/ClockShim/sandglass_clock.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "sg_clock_page.h"

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

static const sg_clock_page *page;
static clock_gettime_fn next_clock_gettime;

static int raw_clock_gettime(clockid_t id, struct timespec *ts) {
    if (next_clock_gettime) return next_clock_gettime(id, ts);
    return (int)syscall(SYS_clock_gettime, id, ts);
}

__attribute__((constructor)) static void sandglass_clock_init(void) {
    next_clock_gettime = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
    const char *path = getenv("SANDGLASS_CLOCK_PAGE");
    if (!path || !*path) return;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    void *map = mmap(NULL, SG_CLOCK_PAGE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return;
    const sg_clock_page *p = map;
    if (p->magic != SG_CLOCK_PAGE_MAGIC || p->version != 1) {
        munmap(map, SG_CLOCK_PAGE_SIZE);
        return;
    }
    page = p;
}

/// The virtual wall clock: `monotonic` (CLOCK_MONOTONIC or its coarse form) + the host's offset.
/// Returns 0, or -1 when there is no page (the caller passes the call through).
static int virtual_now(clockid_t monotonic, struct timespec *ts) {
    if (!page) return -1;
    struct timespec mono;
    if (raw_clock_gettime(monotonic, &mono) != 0) return -1;
    int64_t offset = __atomic_load_n(&page->realtime_offset_ns, __ATOMIC_ACQUIRE);
    int64_t ns = (int64_t)mono.tv_sec * 1000000000LL + mono.tv_nsec + offset;
    ts->tv_sec = (time_t)(ns / 1000000000LL);
    ts->tv_nsec = (long)(ns % 1000000000LL);
    if (ts->tv_nsec < 0) {
        ts->tv_nsec += 1000000000L;
        ts->tv_sec -= 1;
    }
    return 0;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    if (page) {
        if (id == CLOCK_REALTIME && virtual_now(CLOCK_MONOTONIC, ts) == 0) return 0;
        if (id == CLOCK_REALTIME_COARSE && virtual_now(CLOCK_MONOTONIC_COARSE, ts) == 0) return 0;
    }
    return raw_clock_gettime(id, ts);
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
    struct timespec ts;
    if (virtual_now(CLOCK_MONOTONIC, &ts) != 0 && raw_clock_gettime(CLOCK_REALTIME, &ts) != 0) return -1;
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
    if (tz) {
        struct timezone *zone = tz;
        zone->tz_minuteswest = 0;
        zone->tz_dsttime = 0;
    }
    return 0;
}

time_t time(time_t *out) {
    struct timespec ts;
    if (virtual_now(CLOCK_MONOTONIC, &ts) != 0 && raw_clock_gettime(CLOCK_REALTIME, &ts) != 0) return (time_t)-1;
    if (out) *out = ts.tv_sec;
    return ts.tv_sec;
}

int timespec_get(struct timespec *ts, int base) {
    if (base != TIME_UTC) return 0;
    if (virtual_now(CLOCK_MONOTONIC, ts) == 0) return base;
    return raw_clock_gettime(CLOCK_REALTIME, ts) == 0 ? base : 0;
}
