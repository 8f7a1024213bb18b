#ifndef NOTIFICATIONBRIDGE_CSQLITE_SHIM_H
#define NOTIFICATIONBRIDGE_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: the destructor that tells SQLite to copy a bound value.
static inline sqlite3_destructor_type notificationbridge_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
