#ifndef NOTIFICATIONBRIDGE_CLINUX_SHIM_H
#define NOTIFICATIONBRIDGE_CLINUX_SHIM_H

// The Linux interfaces Glibc's Swift module leaves out: timerfd (to hear of wall-clock steps) and eventfd.
#include <sys/timerfd.h>
#include <sys/eventfd.h>

#endif
