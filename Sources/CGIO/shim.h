#ifndef NOTIFICATIONBRIDGE_CGIO_SHIM_H
#define NOTIFICATIONBRIDGE_CGIO_SHIM_H

#include <gio/gio.h>
#include <gio/gdesktopappinfo.h>

#endif
