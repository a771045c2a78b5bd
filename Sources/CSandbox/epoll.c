// epoll for the host's event loop; Swift's Glibc module does not export <sys/epoll.h>.
#include "CSandbox.h"

#include <errno.h>
#include <sys/epoll.h>

int sg_epoll_create(void) {
    int fd = epoll_create1(EPOLL_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

static int ctl(int epfd, int op, int fd, uint32_t events) {
    struct epoll_event ev = { .events = events, .data.fd = fd };
    return epoll_ctl(epfd, op, fd, &ev) == 0 ? 0 : -errno;
}

int sg_epoll_add(int epfd, int fd, uint32_t events) { return ctl(epfd, EPOLL_CTL_ADD, fd, events); }
int sg_epoll_modify(int epfd, int fd, uint32_t events) { return ctl(epfd, EPOLL_CTL_MOD, fd, events); }
int sg_epoll_remove(int epfd, int fd) { return ctl(epfd, EPOLL_CTL_DEL, fd, 0); }

int sg_epoll_wait(int epfd, sg_event *out, int capacity, int timeout_ms) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    int n = epoll_wait(epfd, events, capacity, timeout_ms);
    if (n < 0) return -errno;
    for (int i = 0; i < n; i++) {
        out[i].fd = events[i].data.fd;
        out[i].events = events[i].events;
    }
    return n;
}
