// The host's side of seccomp user notifications: receive a denied syscall, answer it with an
// errno. The host never lets a notified syscall continue — the filter is the policy, the
// notification only tells the host which call was denied.
#include "CSandbox.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <string.h>
#include <sys/ioctl.h>

int sg_notify_receive(int listener, sg_notification *out) {
    struct seccomp_notif req;
    memset(&req, 0, sizeof req);
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) return -errno;
    out->id = req.id;
    out->pid = req.pid;
    out->syscall_nr = req.data.nr;
    for (int i = 0; i < 6; i++) out->args[i] = req.data.args[i];
    return 0;
}

int sg_notify_deny(int listener, uint64_t id, int error) {
    struct seccomp_notif_resp resp;
    memset(&resp, 0, sizeof resp);
    resp.id = id;
    resp.error = -error;
    resp.val = 0;
    resp.flags = 0;
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp) != 0) return -errno;
    return 0;
}
