// Landlock, best effort: reads only of the container, the extension, the system's libraries and
// the few files a Swift program reads; writes only beneath the container; execution only of the
// extension and the system's libraries; no TCP (ABI >= 4), no signals or abstract sockets outside (ABI >= 6).
// The ruleset is built in the parent; the child only calls landlock_restrict_self.
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#endif

#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1

#define LL_FS_EXECUTE (1ULL << 0)
#define LL_FS_WRITE_FILE (1ULL << 1)
#define LL_FS_READ_FILE (1ULL << 2)
#define LL_FS_READ_DIR (1ULL << 3)
#define LL_FS_REMOVE_DIR (1ULL << 4)
#define LL_FS_REMOVE_FILE (1ULL << 5)
#define LL_FS_MAKE_CHAR (1ULL << 6)
#define LL_FS_MAKE_DIR (1ULL << 7)
#define LL_FS_MAKE_REG (1ULL << 8)
#define LL_FS_MAKE_SOCK (1ULL << 9)
#define LL_FS_MAKE_FIFO (1ULL << 10)
#define LL_FS_MAKE_BLOCK (1ULL << 11)
#define LL_FS_MAKE_SYM (1ULL << 12)
#define LL_FS_REFER (1ULL << 13)
#define LL_FS_TRUNCATE (1ULL << 14)
#define LL_FS_IOCTL_DEV (1ULL << 15)
#define LL_NET_BIND_TCP (1ULL << 0)
#define LL_NET_CONNECT_TCP (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LL_SCOPE_SIGNAL (1ULL << 1)

struct ll_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct ll_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

int sg_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

static uint64_t write_rights(int abi) {
    uint64_t r = LL_FS_WRITE_FILE | LL_FS_REMOVE_DIR | LL_FS_REMOVE_FILE | LL_FS_MAKE_CHAR | LL_FS_MAKE_DIR |
                 LL_FS_MAKE_REG | LL_FS_MAKE_SOCK | LL_FS_MAKE_FIFO | LL_FS_MAKE_BLOCK | LL_FS_MAKE_SYM;
    if (abi >= 2) r |= LL_FS_REFER;
    if (abi >= 3) r |= LL_FS_TRUNCATE;
    return r;
}

// The rights that apply to a file (not a directory): Landlock refuses the others on a file.
#define LL_FILE_RIGHTS (LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE | LL_FS_IOCTL_DEV)

static int add_path(int ruleset, const char *path, uint64_t access, uint64_t handled) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? 0 : -errno;   // a missing system path is not an error
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) access &= LL_FILE_RIGHTS;
    struct ll_path_beneath_attr attr = { .allowed_access = access & handled, .parent_fd = fd };
    if (attr.allowed_access == 0) {   // nothing handled is allowed here: no rule needed
        close(fd);
        return 0;
    }
    long rc = syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &attr, 0);
    int err = errno;
    close(fd);
    return rc < 0 ? -err : 0;
}

int sg_landlock_create(const char *const *write_paths, int write_count,
                       const char *const *write_files, int write_file_count,
                       const char *const *exec_paths, int exec_count,
                       const char *const *read_paths, int read_count, int handle_reads) {
    int abi = sg_landlock_abi();
    if (abi <= 0) return -EOPNOTSUPP;
    uint64_t writes = write_rights(abi);
    uint64_t reads = handle_reads ? (LL_FS_READ_FILE | LL_FS_READ_DIR) : 0;
    uint64_t handled = writes | reads | LL_FS_EXECUTE;
    struct ll_ruleset_attr attr = { .handled_access_fs = handled };
    size_t size = sizeof(uint64_t);
    if (abi >= 4) {
        attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
        size = 2 * sizeof(uint64_t);
    }
    if (abi >= 6) {
        attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
        size = 3 * sizeof(uint64_t);
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0) return -errno;
    int rc = 0;
    for (int i = 0; i < write_count && rc == 0; i++) rc = add_path(ruleset, write_paths[i], writes | reads, handled);
    // Files (such as /dev/null) take only file rights.
    for (int i = 0; i < write_file_count && rc == 0; i++) rc = add_path(ruleset, write_files[i], writes | reads, handled);
    for (int i = 0; i < exec_count && rc == 0; i++) rc = add_path(ruleset, exec_paths[i], LL_FS_EXECUTE | reads, handled);
    for (int i = 0; i < read_count && rc == 0; i++) rc = add_path(ruleset, read_paths[i], reads, handled);
    if (rc != 0) {
        close(ruleset);
        return rc;
    }
    if (fcntl(ruleset, F_SETFD, FD_CLOEXEC) != 0) {
        rc = -errno;
        close(ruleset);
        return rc;
    }
    return ruleset;
}
