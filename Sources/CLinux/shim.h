#ifndef NOTIFICATIONBRIDGE_CLINUX_SHIM_H
#define NOTIFICATIONBRIDGE_CLINUX_SHIM_H

// The Linux interfaces Glibc's Swift module leaves out: timerfd (fire times and wall-clock steps), eventfd (wake-ups
// from other threads), epoll (the daemon's executor waits on all of them at once), signalfd (signals read as data
// by that executor instead of by a handler) and malloc_trim (the heap's free pages given back after the daemon has
// read its state).
#include <malloc.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

#endif
