// Counts the heap blocks this thread allocates, for tests that guard a complexity by the work done instead of a
// stopwatch: a string or array built by copying itself once per step allocates a quadratic number of bytes, one
// built in place a linear number, on a busy machine as on an idle one.
//
// malloc, calloc and realloc are defined here, in the test executable, so they stand in for glibc's for the whole
// process (the Swift runtime's allocations, Foundation's, the C library's), and hand each request to glibc's own
// (`__libc_malloc` and the rest). They count only on a thread that asked for it, in thread-local variables, so
// tests running meanwhile on other threads add nothing. Counting costs one thread-local read per allocation.
// Elsewhere than glibc nothing is counted, and `gh_users_allocation_count_stop` says so; nor under a sanitizer
// (`swift build --sanitize=thread` or `address`), whose own malloc these would bypass: the process then crashes
// before any test runs.
#include <stddef.h>
#include <stdint.h>

#include "TestProcessSetup.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define GH_USERS_SANITIZED 1
#endif
#endif

#if defined(__GLIBC__) && !defined(GH_USERS_SANITIZED)

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *block, size_t size);

static __thread __attribute__((tls_model("initial-exec"))) int counting = 0;
static __thread __attribute__((tls_model("initial-exec"))) uint64_t counted_blocks = 0;
static __thread __attribute__((tls_model("initial-exec"))) uint64_t counted_bytes = 0;

static inline void count(size_t size) {
    if (counting) {
        counted_blocks += 1;
        counted_bytes += size;
    }
}

void *malloc(size_t size) {
    count(size);
    return __libc_malloc(size);
}

void *calloc(size_t count_of, size_t size) {
    count(count_of * size);
    return __libc_calloc(count_of, size);
}

void *realloc(void *block, size_t size) {
    count(size);
    return __libc_realloc(block, size);
}

void gh_users_allocation_count_start(void) {
    counted_blocks = 0;
    counted_bytes = 0;
    counting = 1;
}

int gh_users_allocation_count_stop(uint64_t *blocks, uint64_t *bytes) {
    counting = 0;
    *blocks = counted_blocks;
    *bytes = counted_bytes;
    return 1;
}

#else

void gh_users_allocation_count_start(void) {}

int gh_users_allocation_count_stop(uint64_t *blocks, uint64_t *bytes) {
    *blocks = 0;
    *bytes = 0;
    return 0;
}

#endif
