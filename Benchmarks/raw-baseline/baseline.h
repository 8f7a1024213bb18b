/*
 * What the two halves of dbus-raw-baseline share: the clock, the bus
 * connection, number parsing and the latency summary.
 */
#ifndef DBUS_RAW_BASELINE_H
#define DBUS_RAW_BASELINE_H

#include <dbus/dbus.h>

#include <stddef.h>
#include <stdint.h>

#define CALL_TIMEOUT_MS  5000
#define WARMUP_CALLS     200u
#define RECEIVE_BOUND_NS (30ull * 1000000000ull)

/* CLOCK_MONOTONIC in nanoseconds: the same clock in every process, so the
 * Swift side can compare its own timestamps with ours. */
uint64_t now_ns(void);
int parse_number(const char *s, uint64_t min, uint64_t max, uint64_t *out);
void die_oom(void);
DBusConnection *connect_bus(void);
void disconnect_bus(DBusConnection *conn);
int cmp_u64(const void *a, const void *b);

/* Sorts `samples` and prints the latency line of `mode`:
 * n, median_ns, p99_ns (nearest rank), mean_ns, total_ns. */
void print_latency(const char *mode, uint64_t *samples, uint32_t n);

/* The notification modes (notification-modes.c). Each returns the exit
 * status; argv starts after the mode name. */
int run_notification_mode(const char *mode, int argc, char **argv);

/* Sends `msg` (and unrefs it), waits for the reply and checks its
 * signature. Returns the reply, or NULL after saying why. */
DBusMessage *call(DBusConnection *conn, DBusMessage *msg, const char *what,
                  const char *signature);

/* Notify as libnotify sends it, with this summary and body (and the one
 * action of the benchmark's clicks when `with_action`). */
DBusMessage *new_notify_text(int with_action, const char *summary,
                             const char *body);

/* Owns `name` (waiting in line behind its owner when `queued`), prints
 * `ready`, and answers the method calls that reach `conn` until the bus
 * goes away. `answer` makes the reply to a call of its own and returns
 * NULL for any other; each of those that wants a reply gets UnknownMethod
 * with the message `refusal`. Returns 1, after saying why, when the name
 * is not had; 0 when the bus went away. */
int serve_calls(DBusConnection *conn, const char *mode, const char *name,
                int queued, DBusMessage *(*answer)(DBusMessage *, void *),
                void *context, const char *refusal);

/* Reads every row of the daemon's `pending` table in the SQLite file
 * `database` (kept-rows.c); returns how many, or -1 after saying why. */
int64_t read_kept_rows(const char *database);

/* serve-post DIR (post-floor.c): the floor under the daemon's Post. */
int run_serve_post(const char *directory);

/* The bus name serve-post answers under. */
#define POST_FLOOR_NAME "io.github.NotificationBridge.PostFloor"

#endif
