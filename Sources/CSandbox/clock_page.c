// The host's side of the virtual clock's shared page (the reader is Sources/ClockShim).
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

sg_clock_page *sg_clock_page_create(const char *path, int64_t offset_ns) {
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return NULL;
    // Readable by the extension's user whatever the umask.
    if (fchmod(fd, 0644) != 0 || ftruncate(fd, SG_CLOCK_PAGE_SIZE) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    void *map = mmap(NULL, SG_CLOCK_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int e = errno;
    close(fd);
    if (map == MAP_FAILED) {
        errno = e;
        return NULL;
    }
    sg_clock_page *page = map;
    memset(page, 0, sizeof *page);
    page->version = 1;
    page->realtime_offset_ns = offset_ns;
    // The magic last: a reader that sees it sees a complete header.
    __atomic_store_n(&page->magic, SG_CLOCK_PAGE_MAGIC, __ATOMIC_RELEASE);
    return page;
}

void sg_clock_page_publish(sg_clock_page *page, int64_t offset_ns) {
    __atomic_store_n(&page->realtime_offset_ns, offset_ns, __ATOMIC_RELEASE);
    __atomic_fetch_add(&page->jumps, 1, __ATOMIC_RELAXED);
}

void sg_clock_page_close(sg_clock_page *page) {
    munmap(page, SG_CLOCK_PAGE_SIZE);
}
