#ifndef NOTIFICATIONBRIDGE_CLINUX_SHIM_H
#define NOTIFICATIONBRIDGE_CLINUX_SHIM_H

// The Linux interfaces Glibc's Swift module leaves out: timerfd (to hear of wall-clock steps), eventfd and
// malloc_trim.
#include <sys/timerfd.h>
#include <sys/eventfd.h>
// malloc_trim, to give the heap's free pages back after the daemon has read its state.
#include <malloc.h>

#endif
