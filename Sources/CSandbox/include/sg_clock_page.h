// The virtual clock's shared page: written by the host, read by libsandglass-clock.so (the
// LD_PRELOAD shim) in every extension. One layout, included by both sides.
#pragma once
#include <stdint.h>

/// `SGCLOCK1` as a little-endian 64-bit number: the page is ours and of this layout.
#define SG_CLOCK_PAGE_MAGIC 0x314b434f4c434753ULL
/// The size the host gives the file (one page).
#define SG_CLOCK_PAGE_SIZE 4096

/// The run clock's mapping to wall-clock time: CLOCK_REALTIME as the extension should see it is
/// CLOCK_MONOTONIC + `realtime_offset_ns`. The host stores a new offset (atomically, release)
/// each time the virtual clock jumps; readers load it with acquire. Monotonic time is untouched.
typedef struct sg_clock_page {
    uint64_t magic;
    uint32_t version;             ///< 1
    uint32_t reserved;
    int64_t realtime_offset_ns;   ///< run clock date (ns since 1970) minus CLOCK_MONOTONIC
    uint64_t jumps;               ///< how many times the offset changed (diagnostics)
} sg_clock_page;
