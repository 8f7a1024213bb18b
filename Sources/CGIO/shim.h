#ifndef NOTIFICATIONBRIDGE_CGIO_SHIM_H
#define NOTIFICATIONBRIDGE_CGIO_SHIM_H

// GSettings backends (key file, memory) are created explicitly for settings kept outside dconf.
#define G_SETTINGS_ENABLE_BACKEND

#include <gio/gio.h>
#include <gio/gdesktopappinfo.h>
#include <gio/gsettingsbackend.h>

#endif
