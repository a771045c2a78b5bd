// The deadline thread: SIGKILLs an extension at the end of its activation's budget without
// waiting for the host's loop. One thread per host, at the highest scheduling it may get
// (SCHED_FIFO, else SCHED_RR, else nice -20, else as it is), sleeping on a condition variable
// with CLOCK_MONOTONIC until the earliest armed deadline. It signals through the pidfd the
// host holds from spawn, so that a process already reaped (its pid perhaps reused) is never
// signalled. The loop arms and settles deadlines; the loop alone reaps and records.
//
// Ordering. Every decision on a deadline is taken under one mutex (priority-inheriting, so that
// a loop preempted while it holds the mutex is boosted to this thread's priority). A deadline
// is settled exactly once: either the loop takes it back first (the activation ended in time;
// nothing is sent, ever) or the thread fires it first, and the loop, when it settles it later,
// learns that the process was killed and when. At its deadline the thread does not kill a
// process whose input the host has not finished reading — unread bytes in its IPC socket, or
// the loop inside the channel's read handler — because that input may be the reply that ends
// the activation in time: it leaves such a deadline to the loop, whose own timer at the same
// instant decides after reading (the behaviour before this thread existed).
#include "CSandbox.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

enum { ENTRY_ARMED = 0, ENTRY_FIRED = 1, ENTRY_LEFT = 2 };

struct sg_kill_target {
    sg_killer *killer;
    int pidfd;
    int channel_fd;          // under the killer's mutex; -1 once the host closed the channel
    atomic_int reading;      // the loop is in the channel's read handler
};

typedef struct entry {
    uint64_t id;
    uint64_t deadline_ns;
    uint64_t killed_at_ns;
    sg_kill_target *target;
    int state;
} entry;

struct sg_killer {
    pthread_mutex_t mutex;
    pthread_cond_t wake;
    pthread_t thread;
    int started;
    int stopping;
    int joined;
    sg_killer_scheduling scheduling;
    entry *entries;
    size_t count;
    size_t capacity;
    uint64_t next_id;
    uint64_t earliest;       // the deadline the thread sleeps to; UINT64_MAX when none
    sg_killer_counts counts;
};

static uint64_t monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/// The best scheduling this thread may have.
static sg_killer_scheduling raise_scheduling(int rt_priority) {
    sg_killer_scheduling got = { .policy = SG_KILLER_NORMAL, .value = 0, .error = 0 };
    struct sched_param param = { .sched_priority = rt_priority };
    if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0) {
        got.policy = SG_KILLER_FIFO;
        got.value = rt_priority;
        return got;
    }
    int fifo_error = errno;
    if (pthread_setschedparam(pthread_self(), SCHED_RR, &param) == 0) {
        got.policy = SG_KILLER_RR;
        got.value = rt_priority;
        return got;
    }
    got.error = fifo_error;
    // Not real-time: the lowest nice value this thread may take (setpriority on a tid is per thread).
    pid_t tid = (pid_t)syscall(SYS_gettid);
    for (int nice = -20; nice < 0; nice += 5) {
        if (setpriority(PRIO_PROCESS, (id_t)tid, nice) == 0) {
            got.policy = SG_KILLER_NICE;
            got.value = nice;
            return got;
        }
    }
    got.value = getpriority(PRIO_PROCESS, (id_t)tid);
    return got;
}

/// Whether the host holds input of the target it has not finished with. The peek comes first:
/// the loop raises `reading` before it reads, so input taken from the socket by a read still
/// being handled is seen through the flag.
static int input_pending(sg_kill_target *t) {
    if (t->channel_fd >= 0) {
        char byte;
        if (recv(t->channel_fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) > 0) return 1;
    }
    return atomic_load(&t->reading) != 0;
}

static void fire(sg_killer *k, entry *e) {
    if (input_pending(e->target)) {
        e->state = ENTRY_LEFT;
        k->counts.left_for_input++;
        return;
    }
    if (syscall(SYS_pidfd_send_signal, e->target->pidfd, SIGKILL, NULL, 0) != 0) {
        // Already dead (not yet reaped): nothing was killed; the loop's reaping tells why it ended.
        e->state = ENTRY_LEFT;
        k->counts.not_sent++;
        return;
    }
    e->killed_at_ns = monotonic_ns();
    e->state = ENTRY_FIRED;
    k->counts.fired++;
}

static void *killer_main(void *arg) {
    sg_killer *k = arg;
    // A deadline's wake-up is not to be slackened (the default slack of a normal thread is 50 µs).
    (void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    (void)prctl(PR_SET_NAME, "sg-deadlines", 0, 0, 0);
    sg_killer_scheduling got = raise_scheduling(k->scheduling.value);
    pthread_mutex_lock(&k->mutex);
    k->scheduling = got;
    k->started = 1;
    pthread_cond_broadcast(&k->wake);
    while (!k->stopping) {
        uint64_t now = monotonic_ns();
        uint64_t next = UINT64_MAX;
        for (size_t i = 0; i < k->count; i++) {
            entry *e = &k->entries[i];
            if (e->state != ENTRY_ARMED) continue;
            if (e->deadline_ns <= now) fire(k, e);
            else if (e->deadline_ns < next) next = e->deadline_ns;
        }
        k->earliest = next;
        if (next == UINT64_MAX) {
            pthread_cond_wait(&k->wake, &k->mutex);
        } else {
            struct timespec until = { .tv_sec = (time_t)(next / 1000000000ull), .tv_nsec = (long)(next % 1000000000ull) };
            (void)pthread_cond_timedwait(&k->wake, &k->mutex, &until);
        }
    }
    pthread_mutex_unlock(&k->mutex);
    return NULL;
}

sg_killer *sg_killer_start(int rt_priority, sg_killer_scheduling *scheduling) {
    sg_killer *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    pthread_mutexattr_t mattr;
    pthread_mutexattr_init(&mattr);
    pthread_mutexattr_setprotocol(&mattr, PTHREAD_PRIO_INHERIT);
    int rc = pthread_mutex_init(&k->mutex, &mattr);
    pthread_mutexattr_destroy(&mattr);
    if (rc != 0) {
        free(k);
        errno = rc;
        return NULL;
    }
    pthread_condattr_t cattr;
    pthread_condattr_init(&cattr);
    pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
    pthread_cond_init(&k->wake, &cattr);
    pthread_condattr_destroy(&cattr);
    k->next_id = 1;
    k->earliest = UINT64_MAX;
    k->scheduling.value = rt_priority;
    pthread_attr_t tattr;
    pthread_attr_init(&tattr);
    pthread_attr_setstacksize(&tattr, 64 * 1024);
    rc = pthread_create(&k->thread, &tattr, killer_main, k);
    pthread_attr_destroy(&tattr);
    if (rc != 0) {
        pthread_cond_destroy(&k->wake);
        pthread_mutex_destroy(&k->mutex);
        free(k);
        errno = rc;
        return NULL;
    }
    pthread_mutex_lock(&k->mutex);
    while (!k->started) pthread_cond_wait(&k->wake, &k->mutex);
    if (scheduling) *scheduling = k->scheduling;
    pthread_mutex_unlock(&k->mutex);
    return k;
}

void sg_killer_stop(sg_killer *k) {
    pthread_mutex_lock(&k->mutex);
    int joined = k->joined;
    k->stopping = 1;
    k->joined = 1;
    pthread_cond_broadcast(&k->wake);
    pthread_mutex_unlock(&k->mutex);
    if (!joined) pthread_join(k->thread, NULL);
}

void sg_killer_free(sg_killer *k) {
    if (!k) return;
    sg_killer_stop(k);
    pthread_cond_destroy(&k->wake);
    pthread_mutex_destroy(&k->mutex);
    free(k->entries);
    free(k);
}

sg_kill_target *sg_killer_target(sg_killer *k, int pidfd, int channel_fd) {
    sg_kill_target *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->killer = k;
    t->pidfd = pidfd;
    t->channel_fd = channel_fd;
    atomic_init(&t->reading, 0);
    return t;
}

void sg_kill_target_reading(sg_kill_target *t, int reading) {
    atomic_store(&t->reading, reading ? 1 : 0);
}

void sg_kill_target_forget_channel(sg_kill_target *t) {
    pthread_mutex_lock(&t->killer->mutex);
    t->channel_fd = -1;
    pthread_mutex_unlock(&t->killer->mutex);
}

void sg_kill_target_release(sg_kill_target *t) {
    if (!t) return;
    sg_killer *k = t->killer;
    pthread_mutex_lock(&k->mutex);
    for (size_t i = 0; i < k->count;) {
        if (k->entries[i].target == t) k->entries[i] = k->entries[--k->count];
        else i++;
    }
    pthread_mutex_unlock(&k->mutex);
    free(t);
}

uint64_t sg_killer_arm(sg_killer *k, sg_kill_target *t, uint64_t deadline_ns) {
    pthread_mutex_lock(&k->mutex);
    if (k->count == k->capacity) {
        size_t capacity = k->capacity ? k->capacity * 2 : 64;
        entry *grown = realloc(k->entries, capacity * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&k->mutex);
            return 0;
        }
        k->entries = grown;
        k->capacity = capacity;
    }
    uint64_t id = k->next_id++;
    k->entries[k->count++] = (entry){ .id = id, .deadline_ns = deadline_ns, .target = t, .state = ENTRY_ARMED };
    if (deadline_ns < k->earliest) {
        k->earliest = deadline_ns;
        pthread_cond_signal(&k->wake);
    }
    pthread_mutex_unlock(&k->mutex);
    return id;
}

int sg_killer_settle(sg_killer *k, uint64_t id, uint64_t *killed_at_ns) {
    int result = SG_DEADLINE_UNKNOWN;
    pthread_mutex_lock(&k->mutex);
    for (size_t i = 0; i < k->count; i++) {
        entry *e = &k->entries[i];
        if (e->id != id) continue;
        switch (e->state) {
        case ENTRY_ARMED:
            result = SG_DEADLINE_CANCELLED;
            k->counts.cancelled++;
            break;
        case ENTRY_FIRED:
            result = SG_DEADLINE_KILLED;
            if (killed_at_ns) *killed_at_ns = e->killed_at_ns;
            break;
        default:
            result = SG_DEADLINE_LEFT;
            break;
        }
        k->entries[i] = k->entries[--k->count];
        break;
    }
    pthread_mutex_unlock(&k->mutex);
    return result;
}

void sg_killer_get_counts(sg_killer *k, sg_killer_counts *out) {
    pthread_mutex_lock(&k->mutex);
    *out = k->counts;
    pthread_mutex_unlock(&k->mutex);
}
