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

// 0 when the directory was read to its end, SG_USAGE_OVER_INODES, SG_USAGE_TOO_DEEP or
// SG_USAGE_UNREADABLE when the walk stopped.
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
        if (child < 0) {
            // Its mode keeps the host out (a host not running as root): what it holds is unknown.
            if (errno == EACCES || errno == EPERM) { rc = SG_USAGE_UNREADABLE; break; }
            continue;   // replaced by a link or removed meanwhile
        }
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
    if (fd < 0) return errno == EACCES || errno == EPERM ? SG_USAGE_UNREADABLE : -errno;
    struct usage_walk w = { .inode_limit = inode_limit, .max_depth = max_depth, .bytes = 0, .inodes = 0 };
    int rc = walk(&w, fd, 0);
    close(fd);
    *bytes = w.bytes;
    *inodes = w.inodes;
    return rc;
}

// A file seen before, by device and inode: each is counted once.
struct seen_files { struct { dev_t dev; ino_t ino; int used; } *slots; };
enum { SEEN_SLOTS = 4096 };

static int seen_before(struct seen_files *seen, const struct stat *st) {
    unsigned long slot = ((unsigned long)st->st_ino * 2654435761u ^ (unsigned long)st->st_dev) % SEEN_SLOTS;
    for (int probe = 0; probe < SEEN_SLOTS; probe++) {
        unsigned long i = (slot + probe) % SEEN_SLOTS;
        if (!seen->slots[i].used) {
            seen->slots[i].used = 1;
            seen->slots[i].dev = st->st_dev;
            seen->slots[i].ino = st->st_ino;
            return 0;
        }
        if (seen->slots[i].dev == st->st_dev && seen->slots[i].ino == st->st_ino) return 1;
    }
    return 0; // a full table counts a file again: more, never less
}

// The blocks of `name` under `dirfd` (a magic link of /proc/<pid>/fd or map_files, followed to
// the open file by fstatat, never opened) when it is a regular file no directory names, on
// `device`, of `uid` (any when negative), not counted before.
static unsigned long long unlinked_blocks(int dirfd, const char *name, long uid, dev_t device, struct seen_files *seen) {
    struct stat st;
    if (fstatat(dirfd, name, &st, 0) != 0) return 0;
    if (!S_ISREG(st.st_mode) || st.st_nlink != 0 || st.st_dev != device) return 0;
    if (uid >= 0 && st.st_uid != (uid_t)uid) return 0;
    if (seen_before(seen, &st)) return 0;
    return (unsigned long long)st.st_blocks * 512ULL;
}

// The blocks of regular files process `pid` holds open or mapped that no directory names any
// more (unlinked, or O_TMPFILE) on the containers' file system `device`: written in a
// container, then unlinked, they take the disk and no walk finds them. Descriptors through
// /proc/<pid>/fd; mappings through the "(deleted)" lines of /proc/<pid>/maps, each looked at
// in /proc/<pid>/map_files. With `uid` ≥ 0, only the files that uid owns.
unsigned long long sg_unlinked_open_bytes(pid_t pid, long uid, dev_t device) {
    struct seen_files seen = { calloc(SEEN_SLOTS, sizeof *seen.slots) };
    if (!seen.slots) return 0;
    unsigned long long total = 0;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
    int fds = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dir = fds >= 0 ? fdopendir(fds) : NULL;
    if (dir) {
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            if (entry->d_name[0] != '.') total += unlinked_blocks(fds, entry->d_name, uid, device, &seen);
        }
        closedir(dir);
    } else if (fds >= 0) {
        close(fds);
    }
    snprintf(path, sizeof path, "/proc/%d/map_files", (int)pid);
    int maps_dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    FILE *maps = maps_dir >= 0 ? fopen(path, "re") : NULL;
    if (maps) {
        // A line holds at most a path of a page (what the kernel prints) and its prefix.
        static const char deleted[] = " (deleted)\n";
        size_t tail = sizeof deleted - 1;
        char *line = malloc(16384);
        while (line && fgets(line, 16384, maps)) {
            size_t length = strlen(line);
            if (length < tail || strcmp(line + length - tail, deleted) != 0) continue;
            // map_files names a mapping by its range without the zeros maps pads it with.
            unsigned long start, end;
            if (sscanf(line, "%lx-%lx", &start, &end) != 2) continue;
            char name[48];
            snprintf(name, sizeof name, "%lx-%lx", start, end);
            total += unlinked_blocks(maps_dir, name, uid, device, &seen);
        }
        free(line);
        fclose(maps);
    }
    if (maps_dir >= 0) close(maps_dir);
    free(seen.slots);
    return total;
}
