// Counts the heap allocations of a process, for the gates of `make gates`: loaded with LD_PRELOAD, it stands in for
// the allocating functions of the C library, counts each call, and hands the call on to glibc's own implementation
// (`__libc_malloc` and its kin, which glibc exports for exactly this). At exit it appends the count, as one line
// "<pid> <count>", to the file named by NB_MALLOC_COUNT_FILE (nothing is written when that is unset).
//
// The count is of calls that ask for memory: malloc, calloc, realloc with no block (a new one), the aligned
// allocations. A realloc that grows a block in place or moves it is the same block, as swift-nio's allocation
// counter counts it. Swift's allocations go through malloc (swift_slowAlloc), so every class instance, array and
// string buffer is one.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *block, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_long allocations;

static void counted(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

void *malloc(size_t size) {
    counted();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    counted();
    return __libc_calloc(count, size);
}

void *realloc(void *block, size_t size) {
    if (block == NULL) counted();
    return __libc_realloc(block, size);
}

void *memalign(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    counted();
    void *block = __libc_memalign(alignment, size);
    if (block == NULL) return ENOMEM;
    *result = block;
    return 0;
}

// Written with write(2) alone: nothing here may allocate.
__attribute__((destructor)) static void report(void) {
    const char *path = getenv("NB_MALLOC_COUNT_FILE");
    if (path == NULL || *path == '\0') return;
    int file = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (file < 0) return;
    char line[64];
    int length = snprintf(line, sizeof line, "%ld %ld\n", (long)getpid(),
                          atomic_load_explicit(&allocations, memory_order_relaxed));
    if (length > 0) {
        ssize_t written;
        do written = write(file, line, (size_t)length);
        while (written < 0 && errno == EINTR);
    }
    close(file);
}
