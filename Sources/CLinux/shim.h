#ifndef NOTIFICATIONBRIDGE_CLINUX_SHIM_H
#define NOTIFICATIONBRIDGE_CLINUX_SHIM_H

// The Linux interfaces Glibc's Swift module leaves out: timerfd (fire times and wall-clock steps), eventfd (wake-ups
// from other threads), epoll (the daemon's executor waits on all of them at once), signalfd (signals read as data
// by that executor instead of by a handler), malloc_trim (the heap's free pages given back after the daemon has
// read its state), prctl (a thread's name, as `ps` and `top` show it) and pipe2 (a pipe closed on exec from the
// start, which a program another thread starts cannot inherit).
#include <fcntl.h>
#include <malloc.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

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

#endif
