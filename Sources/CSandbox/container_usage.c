// The size of an extension's container, measured by the host off its loop thread. Never
// follows a symbolic link: each directory is opened by one name beneath its parent's
// descriptor with O_NOFOLLOW, each entry is looked at with AT_SYMLINK_NOFOLLOW.
#include "CSandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct usage_walk {
    long inode_limit;
    int max_depth;
    unsigned long long bytes;
    long inodes;
};

// 0 when the directory was read to its end, SG_USAGE_OVER_INODES or SG_USAGE_TOO_DEEP when
// the walk stopped.
static int walk(struct usage_walk *w, int dirfd, int depth) {
    int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);   // never inherited by a process spawned meanwhile
    if (fd < 0) return 0;
    DIR *dir = fdopendir(fd);
    if (!dir) { close(fd); return 0; }
    int rc = 0;
    struct dirent *entry;
    while (rc == 0 && (entry = readdir(dir)) != NULL) {
        const char *name = entry->d_name;
        if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
        struct stat st;
        if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;   // gone meanwhile
        w->bytes += (unsigned long long)st.st_blocks * 512ULL;
        if (++w->inodes > w->inode_limit) { rc = SG_USAGE_OVER_INODES; break; }
        if (!S_ISDIR(st.st_mode)) continue;
        if (depth + 1 > w->max_depth) { rc = SG_USAGE_TOO_DEEP; break; }
        int child = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (child < 0) continue;   // replaced by a link or removed meanwhile
        rc = walk(w, child, depth + 1);
        close(child);
    }
    closedir(dir);
    return rc;
}

int sg_container_usage(const char *root, long inode_limit, int max_depth, unsigned long long *bytes, long *inodes) {
    *bytes = 0;
    *inodes = 0;
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -errno;
    struct usage_walk w = { .inode_limit = inode_limit, .max_depth = max_depth, .bytes = 0, .inodes = 0 };
    int rc = walk(&w, fd, 0);
    close(fd);
    *bytes = w.bytes;
    *inodes = w.inodes;
    return rc;
}

// The blocks of regular files process `pid` holds open or mapped that no directory names any
// more (unlinked, or O_TMPFILE): written in a container, then unlinked, they take the disk and
// no walk finds them. Each file is looked at through /proc/<pid>/fd and /proc/<pid>/map_files
// with fstatat, which follows the magic link to the open file and never opens it (a FIFO cannot
// block it); a file is counted once; with `uid` ≥ 0, only the files that uid owns.
unsigned long long sg_unlinked_open_bytes(pid_t pid, long uid) {
    enum { SLOTS = 4096 };
    // On the heap: a thread-local table would grow every thread's static TLS past small stacks.
    struct seen_file { dev_t dev; ino_t ino; int used; } *seen = calloc(SLOTS, sizeof *seen);
    if (!seen) return 0;
    unsigned long long total = 0;
    const char *const kinds[2] = { "fd", "map_files" };
    for (int k = 0; k < 2; k++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, kinds[k]);
        int dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dirfd < 0) continue;
        DIR *dir = fdopendir(dirfd);
        if (!dir) { close(dirfd); continue; }
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            if (entry->d_name[0] == '.') continue;
            struct stat st;
            if (fstatat(dirfd, entry->d_name, &st, 0) != 0) continue;
            if (!S_ISREG(st.st_mode) || st.st_nlink != 0) continue;
            if (uid >= 0 && st.st_uid != (uid_t)uid) continue;
            unsigned long slot = ((unsigned long)st.st_ino * 2654435761u ^ (unsigned long)st.st_dev) % SLOTS;
            int counted = 0, placed = 0;
            for (int probe = 0; probe < SLOTS; probe++) {
                unsigned long i = (slot + probe) % SLOTS;
                if (!seen[i].used) { seen[i].used = 1; seen[i].dev = st.st_dev; seen[i].ino = st.st_ino; placed = 1; break; }
                if (seen[i].dev == st.st_dev && seen[i].ino == st.st_ino) { counted = 1; break; }
            }
            if (counted) continue;
            (void)placed; // a full table counts a file again: more, never less
            total += (unsigned long long)st.st_blocks * 512ULL;
        }
        closedir(dir);
    }
    free(seen);
    return total;
}
