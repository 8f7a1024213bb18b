#ifndef NOTIFICATIONBRIDGE_CLINUX_SHIM_H
#define NOTIFICATIONBRIDGE_CLINUX_SHIM_H

// The Linux interfaces Glibc's Swift module leaves out: timerfd (fire times and wall-clock steps), eventfd (wake-ups
// from other threads), epoll (the daemon's executor waits on all of them at once), signalfd (signals read as data
// by that executor instead of by a handler), malloc_trim (the heap's free pages given back after the daemon has
// read its state), prctl (a thread's name, as `ps` and `top` show it), pipe2 (a pipe closed on exec from the
// start, which a program another thread starts cannot inherit), madvise on the program's own code (its pages
// let go of when the daemon has been quiet for a second) and pidfd_open (a process held by a descriptor, as the bus
// hands one out, for the tests that identify peers by it).
#include <fcntl.h>
#include <link.h>
#include <malloc.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/auxv.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

/// Names the calling thread (the kernel keeps 15 bytes).
static inline void nb_set_thread_name(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

/// Declared here since Glibc's module leaves it out (it needs _GNU_SOURCE); glibc has had it since 2.9.
extern int pipe2(int fds[2], int flags);

/// Makes a pipe whose two ends are closed on exec from the moment they exist; returns 0, or -1 with errno set.
static inline int nb_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

/// Lets go of this process's mappings of its own program file's pages that are never written: the code and the
/// read-only data. Nothing is lost: the kernel maps a page back from the page cache the next time it is used. What
/// the loader relocated (the RELRO part) and everything writable stay, since they are in writable segments.
/// Returns the bytes let go.
///
/// Start-up runs code that a long-running process never runs again (parsing its command line, reading its state),
/// and the kernel maps in 64 KB or more around each page that runs: most of what stays resident is never run again.
static inline size_t nb_release_program_pages(void) {
    const ElfW(Phdr) *headers = (const ElfW(Phdr) *)getauxval(AT_PHDR);
    size_t count = (size_t)getauxval(AT_PHNUM);
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t bias = 0;
    int found = 0;
    for (size_t i = 0; headers && i < count; i++) {
        if (headers[i].p_type == PT_PHDR) {
            bias = (uintptr_t)headers - (uintptr_t)headers[i].p_vaddr;
            found = 1;
        }
    }
    if (!found) return 0;
    size_t released = 0;
    for (size_t i = 0; i < count; i++) {
        if (headers[i].p_type != PT_LOAD || (headers[i].p_flags & PF_W)) continue;
        // Whole pages inside the segment only.
        uintptr_t start = (bias + headers[i].p_vaddr + page - 1) & ~(page - 1);
        uintptr_t end = (bias + headers[i].p_vaddr + headers[i].p_memsz) & ~(page - 1);
        if (end > start && madvise((void *)start, end - start, MADV_DONTNEED) == 0) released += end - start;
    }
    return released;
}

/// A pidfd of process `pid` (close-on-exec), or -1 with errno set; glibc 2.36's own wrapper needs <sys/pidfd.h>,
/// which older C libraries lack.
static inline int nb_pidfd_open(int pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

#endif
