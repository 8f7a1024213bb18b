// The regression `make gates-selftest` plants in the daemon's Post path, which the gates must fail. Loaded with
// LD_PRELOAD into the counted daemon (and into no other program), it stands in for libdbus's
// dbus_connection_send_with_reply, through which the daemon sends the server the Notify of each Post: before handing
// the call on to libdbus, it does fifty small heap allocations and a few hundred thousand instructions of work, more
// than either threshold of the daemon-post gate allows. Built as a small C library, it needs no second build of the
// daemon: the gates count the very program `make test` checks, with work added to each Post.
#define _GNU_SOURCE
#include <dbus/dbus.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef dbus_bool_t (*SendWithReply)(DBusConnection *, DBusMessage *, DBusPendingCall **, int);

static void added_work(void) {
    volatile unsigned long total = 0;
    for (int index = 0; index < 50; index++) {
        char *volatile block = malloc(64);
        if (block == NULL) abort();
        memset(block, index, 64);
        total += (unsigned char)block[index];
        free(block);
    }
    for (unsigned long step = 0; step < 100000; step++) total += step;
}

static SendWithReply next;

// Found once at load, before any thread of the program runs. Programs without libdbus have none: valgrind itself,
// which starts with the preloaded libraries of the program it runs.
__attribute__((constructor)) static void find_next(void) {
    next = (SendWithReply)dlsym(RTLD_NEXT, "dbus_connection_send_with_reply");
}

dbus_bool_t dbus_connection_send_with_reply(DBusConnection *connection, DBusMessage *message,
                                            DBusPendingCall **pending, int timeout) {
    if (next == NULL) abort();
    added_work();
    return next(connection, message, pending, timeout);
}
