// Passing a descriptor over the IPC socket (SCM_RIGHTS) with the first byte of a frame.
#include "CSandbox.h"

#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

long sg_send_with_descriptor(int sock, const void *buf, unsigned long len, int fd) {
    struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
    union {
        char bytes[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    if (fd >= 0) {
        memset(&control, 0, sizeof control);
        msg.msg_control = control.bytes;
        msg.msg_controllen = sizeof control.bytes;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(int));
    }
    return (long)sendmsg(sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
}
