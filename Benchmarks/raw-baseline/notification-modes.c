/*
 * The notification modes of dbus-raw-baseline: raw libdbus clients of a
 * notification server (org.freedesktop.Notifications) and of the bridge's
 * daemon (io.github.NotificationBridge1), a server in the daemon's place
 * for its listing, and a process timer.
 *
 * They are the floor and the yardstick for the bridge's own benchmarks:
 * what a client costs with nothing but libdbus between it and the bus.
 * See README.md next to this file for what each mode prints.
 */

/* clock_gettime() and posix_spawn() are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "baseline.h"

#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SERVER_NAME  "org.freedesktop.Notifications"
#define SERVER_PATH  "/org/freedesktop/Notifications"
#define SERVER_IFACE "org.freedesktop.Notifications"
/* The benchmark's server has one method of its own: InvokeAction(u id,
 * s key), which replies and then emits ActionInvoked (id 0: the latest
 * notification), as a click would. */
#define SERVER_BENCH_IFACE "io.github.NotificationBridge.Bench1"

#define BRIDGE_NAME  "io.github.NotificationBridge"
#define BRIDGE_PATH  "/io/github/NotificationBridge"
#define BRIDGE_IFACE "io.github.NotificationBridge1"

#define ACTION_KEY "open"
#define ID_MAX     256

extern char **environ;

/* Where `post` sends its calls: the daemon, or the C server of serve-post
 * under its own name. */
static const char *post_destination = BRIDGE_NAME;

/* What one kind of request adds to a Post or a Notify. */
struct request {
    int with_action;   /* one background action, ACTION_KEY */
    double in_seconds; /* > 0: scheduled that far ahead (Post only) */
};

/* ------------------------------------------------------ message building */

static void append_basic(DBusMessageIter *it, int type, const void *value)
{
    if (!dbus_message_iter_append_basic(it, type, value))
        die_oom();
}

static void open_container(DBusMessageIter *it, int type, const char *sig,
                           DBusMessageIter *sub)
{
    if (!dbus_message_iter_open_container(it, type, sig, sub))
        die_oom();
}

static void close_container(DBusMessageIter *it, DBusMessageIter *sub)
{
    if (!dbus_message_iter_close_container(it, sub))
        die_oom();
}

/* Appends one `{sv}` entry to an open `a{sv}`; `sig` is the variant's. */
static void append_entry(DBusMessageIter *dict, const char *key,
                         const char *sig, const void *value)
{
    DBusMessageIter entry, variant;

    open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    append_basic(&entry, DBUS_TYPE_STRING, &key);
    open_container(&entry, DBUS_TYPE_VARIANT, sig, &variant);
    append_basic(&variant, sig[0], value);
    close_container(&entry, &variant);
    close_container(dict, &entry);
}

/*
 * Notify as libnotify sends it: app name, no replacement, no icon, summary,
 * body, the action pairs, the hints `urgency` (byte) and `sender-pid`
 * (int64), and the server's default timeout.
 */
DBusMessage *new_notify_text(int with_action, const char *summary,
                             const char *body)
{
    const char *app = "Bench", *icon = "";
    const char *key = ACTION_KEY, *label = "Open";
    dbus_uint32_t replaces = 0;
    dbus_int32_t timeout = -1;
    unsigned char urgency = 1;
    dbus_int64_t pid = (dbus_int64_t)getpid();
    DBusMessageIter it, sub;
    DBusMessage *msg = dbus_message_new_method_call(SERVER_NAME, SERVER_PATH,
                                                    SERVER_IFACE, "Notify");

    if (msg == NULL)
        die_oom();
    dbus_message_iter_init_append(msg, &it);
    append_basic(&it, DBUS_TYPE_STRING, &app);
    append_basic(&it, DBUS_TYPE_UINT32, &replaces);
    append_basic(&it, DBUS_TYPE_STRING, &icon);
    append_basic(&it, DBUS_TYPE_STRING, &summary);
    append_basic(&it, DBUS_TYPE_STRING, &body);
    open_container(&it, DBUS_TYPE_ARRAY, "s", &sub);
    if (with_action) {
        append_basic(&sub, DBUS_TYPE_STRING, &key);
        append_basic(&sub, DBUS_TYPE_STRING, &label);
    }
    close_container(&it, &sub);
    open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &sub);
    append_entry(&sub, "urgency", "y", &urgency);
    append_entry(&sub, "sender-pid", "x", &pid);
    close_container(&it, &sub);
    append_basic(&it, DBUS_TYPE_INT32, &timeout);
    return msg;
}

static DBusMessage *new_notify(const struct request *req)
{
    return new_notify_text(req->with_action, "Bench",
                           "a notification from the benchmark");
}

/* The daemon's Post with a title and a body, and what `req` adds. */
static DBusMessage *new_post(const struct request *req)
{
    const char *title = "Bench", *body = "a notification from the benchmark";
    DBusMessageIter it, dict;
    DBusMessage *msg = dbus_message_new_method_call(post_destination,
                                                    BRIDGE_PATH, BRIDGE_IFACE,
                                                    "Post");

    if (msg == NULL)
        die_oom();
    dbus_message_iter_init_append(msg, &it);
    open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict);
    append_entry(&dict, "title", "s", &title);
    append_entry(&dict, "body", "s", &body);
    if (req->in_seconds > 0)
        append_entry(&dict, "in", "d", &req->in_seconds);
    if (req->with_action) {
        /* 'actions': <[{'id': <'open'>, 'title': <'Open'>,
         *               'activation': <'background'>}]> */
        const char *id_key = "id", *id = ACTION_KEY;
        const char *title_key = "title", *label = "Open";
        const char *mode_key = "activation", *mode = "background";
        const char *actions = "actions";
        DBusMessageIter entry, variant, list, action;

        open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
        append_basic(&entry, DBUS_TYPE_STRING, &actions);
        open_container(&entry, DBUS_TYPE_VARIANT, "aa{sv}", &variant);
        open_container(&variant, DBUS_TYPE_ARRAY, "a{sv}", &list);
        open_container(&list, DBUS_TYPE_ARRAY, "{sv}", &action);
        append_entry(&action, id_key, "s", &id);
        append_entry(&action, title_key, "s", &label);
        append_entry(&action, mode_key, "s", &mode);
        close_container(&list, &action);
        close_container(&variant, &list);
        close_container(&entry, &variant);
        close_container(&dict, &entry);
    }
    close_container(&it, &dict);
    return msg;
}

/* --------------------------------------------------------------- calling */

/* Declared in baseline.h. */
DBusMessage *call(DBusConnection *conn, DBusMessage *msg, const char *what,
                  const char *signature)
{
    DBusError err;
    DBusMessage *reply;

    dbus_error_init(&err);
    reply = dbus_connection_send_with_reply_and_block(conn, msg,
                                                      CALL_TIMEOUT_MS, &err);
    dbus_message_unref(msg);
    if (reply == NULL) {
        fprintf(stderr, "%s failed: %s: %s\n", what, err.name, err.message);
        dbus_error_free(&err);
        return NULL;
    }
    if (!dbus_message_has_signature(reply, signature)) {
        fprintf(stderr, "%s answered '%s' instead of '%s'\n", what,
                dbus_message_get_signature(reply), signature);
        dbus_message_unref(reply);
        return NULL;
    }
    return reply;
}

/* Notify; the server's id goes to *id. Returns 0, or -1 after saying why. */
static int notify_once(DBusConnection *conn, const struct request *req,
                       dbus_uint32_t *id)
{
    DBusMessageIter it;
    DBusMessage *reply = call(conn, new_notify(req), "Notify", "u");

    if (reply == NULL)
        return -1;
    dbus_message_iter_init(reply, &it);
    dbus_message_iter_get_basic(&it, id);
    dbus_message_unref(reply);
    return 0;
}

/* Post; the daemon's id goes to id[ID_MAX]. */
static int post_once(DBusConnection *conn, const struct request *req,
                     char *id)
{
    DBusMessageIter it;
    const char *text;
    DBusMessage *reply = call(conn, new_post(req), "Post", "s");

    if (reply == NULL)
        return -1;
    dbus_message_iter_init(reply, &it);
    dbus_message_iter_get_basic(&it, &text);
    snprintf(id, ID_MAX, "%s", text);
    dbus_message_unref(reply);
    return 0;
}

static int withdraw_once(DBusConnection *conn, const char *id)
{
    DBusMessage *reply, *msg = dbus_message_new_method_call(
        BRIDGE_NAME, BRIDGE_PATH, BRIDGE_IFACE, "Withdraw");

    if (msg == NULL ||
        !dbus_message_append_args(msg, DBUS_TYPE_STRING, &id,
                                  DBUS_TYPE_INVALID))
        die_oom();
    reply = call(conn, msg, "Withdraw", "");
    if (reply == NULL)
        return -1;
    dbus_message_unref(reply);
    return 0;
}

/* Asks the benchmark's server to click ACTION_KEY on notification `id`. */
static int invoke_action(DBusConnection *conn, dbus_uint32_t id)
{
    const char *key = ACTION_KEY;
    DBusMessage *reply, *msg = dbus_message_new_method_call(
        SERVER_NAME, SERVER_PATH, SERVER_BENCH_IFACE, "InvokeAction");

    if (msg == NULL ||
        !dbus_message_append_args(msg, DBUS_TYPE_UINT32, &id, DBUS_TYPE_STRING,
                                  &key, DBUS_TYPE_INVALID))
        die_oom();
    reply = call(conn, msg, "InvokeAction", "");
    if (reply == NULL)
        return -1;
    dbus_message_unref(reply);
    return 0;
}

static void add_match(DBusConnection *conn, const char *rule)
{
    DBusError err;

    dbus_error_init(&err);
    dbus_bus_add_match(conn, rule, &err);
    if (dbus_error_is_set(&err)) {
        fprintf(stderr, "AddMatch %s failed: %s\n", rule, err.message);
        dbus_error_free(&err);
        exit(1);
    }
}

/*
 * Waits for the signal `iface`.`member` whose first argument is `id` (a
 * uint32 when `number` is set, else a string) and returns when it was taken
 * off the queue, or 0 after 30 s or a disconnection. Other messages are
 * dropped, as the cheapest libdbus consumer would.
 */
static uint64_t wait_signal(DBusConnection *conn, const char *iface,
                            const char *member, int number,
                            dbus_uint32_t id_number, const char *id_text)
{
    uint64_t deadline = now_ns() + RECEIVE_BOUND_NS;

    for (;;) {
        DBusMessage *msg = dbus_connection_pop_message(conn);
        DBusMessageIter it;
        uint64_t now;
        int match;

        if (msg == NULL) {
            now = now_ns();
            if (now >= deadline) {
                fprintf(stderr, "no %s.%s within 30 s\n", iface, member);
                return 0;
            }
            if (!dbus_connection_read_write(
                    conn, (int)((deadline - now + 999999) / 1000000))) {
                fputs("disconnected while waiting for a signal\n", stderr);
                return 0;
            }
            continue;
        }
        now = now_ns();
        match = dbus_message_is_signal(msg, iface, member) &&
                dbus_message_iter_init(msg, &it);
        if (match && number) {
            dbus_uint32_t v = 0;

            match = dbus_message_iter_get_arg_type(&it) == DBUS_TYPE_UINT32;
            if (match)
                dbus_message_iter_get_basic(&it, &v);
            match = match && v == id_number;
        } else if (match) {
            const char *v = "";

            match = dbus_message_iter_get_arg_type(&it) == DBUS_TYPE_STRING;
            if (match)
                dbus_message_iter_get_basic(&it, &v);
            match = match && strcmp(v, id_text) == 0;
        }
        dbus_message_unref(msg);
        if (match)
            return now;
    }
}

/* --------------------------------------------------------------- latency */

enum call_kind { NOTIFY, POST };

/* Sequential Notify or Post calls; each sample covers building the call,
 * the round trip and reading the id. */
static int run_calls(enum call_kind kind, uint32_t n)
{
    static const struct request plain = { 0, 0 };
    DBusConnection *conn = connect_bus();
    uint64_t *samples = malloc((size_t)n * sizeof *samples);
    char id[ID_MAX];
    dbus_uint32_t server_id;
    uint64_t t;

    if (samples == NULL)
        die_oom();
    for (uint32_t i = 0; i < WARMUP_CALLS + n; i++) {
        int rc;

        t = now_ns();
        rc = kind == NOTIFY ? notify_once(conn, &plain, &server_id)
                            : post_once(conn, &plain, id);
        if (rc != 0) {
            disconnect_bus(conn);
            return 1;
        }
        if (i >= WARMUP_CALLS)
            samples[i - WARMUP_CALLS] = now_ns() - t;
    }
    disconnect_bus(conn);
    print_latency(kind == NOTIFY ? "notify" : "post", samples, n);
    free(samples);
    return 0;
}

/* ------------------------------------------------------- signal receipt */

/*
 * For each of n rounds: posts a notification with one action (Notify to
 * the server, or Post to the daemon), asks the server to click the action,
 * and takes the time the answer arrives: ActionInvoked for Notify, the
 * daemon's Responded for Post. The server notes when it emitted, so the
 * caller pairs the two lists in order.
 */
static int run_receive(enum call_kind kind, uint32_t n)
{
    static const struct request with_action = { 1, 0 };
    DBusConnection *conn = connect_bus();
    uint64_t *received = malloc((size_t)n * sizeof *received);

    if (received == NULL)
        die_oom();
    if (kind == NOTIFY)
        add_match(conn, "type='signal',interface='" SERVER_IFACE
                        "',member='ActionInvoked'");
    else
        add_match(conn, "type='signal',interface='" BRIDGE_IFACE
                        "',member='Responded'");

    for (uint32_t i = 0; i < n; i++) {
        char id[ID_MAX];
        dbus_uint32_t server_id = 0;
        int rc = kind == NOTIFY ? notify_once(conn, &with_action, &server_id)
                                : post_once(conn, &with_action, id);

        /* Through the daemon the server's id is not ours to know: 0 asks
         * the server for the latest notification, which is this one. */
        if (rc != 0 || invoke_action(conn, server_id) != 0)
            goto fail;
        received[i] = kind == NOTIFY
            ? wait_signal(conn, SERVER_IFACE, "ActionInvoked", 1, server_id,
                          NULL)
            : wait_signal(conn, BRIDGE_IFACE, "Responded", 0, 0, id);
        if (received[i] == 0)
            goto fail;
    }
    disconnect_bus(conn);

    printf("{\"mode\":\"%s\",\"n\":%" PRIu32 ",\"received_ns\":[",
           kind == NOTIFY ? "action-listen" : "respond-listen", n);
    for (uint32_t i = 0; i < n; i++)
        printf("%s%" PRIu64, i ? "," : "", received[i]);
    puts("]}");
    fflush(stdout);
    free(received);
    return 0;

fail:
    disconnect_bus(conn);
    free(received);
    return 1;
}

/* ----------------------------------------------- churn, pending, bursts */

/* Posts n notifications (scheduled `in` seconds ahead when > 0), and
 * withdraws each right after when `withdraw` is set. */
static int run_posts(const char *mode, uint32_t n, double in, int withdraw)
{
    struct request req = { 0, in };
    DBusConnection *conn = connect_bus();
    uint64_t start = now_ns(), total;
    char id[ID_MAX];

    for (uint32_t i = 0; i < n; i++) {
        if (post_once(conn, &req, id) != 0 ||
            (withdraw && withdraw_once(conn, id) != 0)) {
            disconnect_bus(conn);
            return 1;
        }
    }
    total = now_ns() - start;
    disconnect_bus(conn);
    printf("{\"mode\":\"%s\",\"n\":%" PRIu32 ",\"total_ns\":%" PRIu64 "}\n",
           mode, n, total);
    fflush(stdout);
    return 0;
}

/*
 * `clients` processes, each with its own connection, post n notifications
 * each as fast as the daemon answers. All connect first and start together
 * when the parent closes the pipe they wait on; the time runs from then to
 * the last one's exit.
 */
static int run_throughput(uint32_t clients, uint32_t n)
{
    int ready[2], go[2];
    pid_t *pids = calloc(clients, sizeof *pids);
    uint64_t start, total;
    int failed = 0;

    if (pids == NULL)
        die_oom();
    if (pipe(ready) != 0 || pipe(go) != 0) {
        perror("pipe");
        return 1;
    }
    for (uint32_t c = 0; c < clients; c++) {
        pids[c] = fork();
        if (pids[c] < 0) {
            perror("fork");
            return 1;
        }
        if (pids[c] == 0) {
            static const struct request plain = { 0, 0 };
            DBusConnection *conn;
            char id[ID_MAX], byte = 'r';

            close(ready[0]);
            close(go[1]);
            conn = connect_bus();
            if (write(ready[1], &byte, 1) != 1)
                _exit(1);
            /* EOF when the parent closes its end: everyone starts. */
            if (read(go[0], &byte, 1) != 0)
                _exit(1);
            for (uint32_t i = 0; i < n; i++) {
                if (post_once(conn, &plain, id) != 0)
                    _exit(1);
            }
            disconnect_bus(conn);
            _exit(0);
        }
    }
    close(ready[1]);
    close(go[0]);
    for (uint32_t c = 0; c < clients; c++) {
        char byte;

        if (read(ready[0], &byte, 1) != 1) {
            fputs("a client died before it was ready\n", stderr);
            failed = 1;
            break;
        }
    }
    start = now_ns();
    close(go[1]);
    for (uint32_t c = 0; c < clients; c++) {
        int status;

        if (waitpid(pids[c], &status, 0) != pids[c] || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0)
            failed = 1;
    }
    total = now_ns() - start;
    close(ready[0]);
    free(pids);
    if (failed) {
        fputs("a throughput client failed\n", stderr);
        return 1;
    }
    printf("{\"mode\":\"throughput\",\"clients\":%" PRIu32 ",\"n\":%" PRIu64
           ",\"total_ns\":%" PRIu64 ",\"per_second\":%.1f}\n",
           clients, (uint64_t)clients * n, total,
           (double)clients * n * 1e9 / (double)total);
    fflush(stdout);
    return 0;
}

/* ---------------------------------------------------------- list-pending */

/* ListPending({'app-name': 'NotificationBridge'}): how many notifications it
 * lists (each element looked at, as a client reading them would), or -1
 * when the call fails, quietly: the daemon may not be serving yet. The reply
 * is left in *kept when it lists `want`, for its size to be read untimed. */
static int64_t list_pending_once(DBusConnection *conn, int64_t want,
                                 DBusMessage **kept)
{
    DBusMessageIter it, filter, list;
    DBusMessage *reply, *msg = dbus_message_new_method_call(
        BRIDGE_NAME, BRIDGE_PATH, BRIDGE_IFACE, "ListPending");
    const char *app = "NotificationBridge";
    DBusError err;
    int64_t count = 0;

    if (msg == NULL)
        die_oom();
    dbus_message_iter_init_append(msg, &it);
    open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &filter);
    append_entry(&filter, "app-name", "s", &app);
    close_container(&it, &filter);
    dbus_error_init(&err);
    reply = dbus_connection_send_with_reply_and_block(conn, msg,
                                                      60 * 1000, &err);
    dbus_message_unref(msg);
    if (reply == NULL) {
        dbus_error_free(&err);
        return -1;
    }
    if (!dbus_message_has_signature(reply, "aa{sv}")) {
        dbus_message_unref(reply);
        return -1;
    }
    dbus_message_iter_init(reply, &it);
    dbus_message_iter_recurse(&it, &list);
    while (dbus_message_iter_get_arg_type(&list) == DBUS_TYPE_ARRAY) {
        count++;
        dbus_message_iter_next(&list);
    }
    if (count == want)
        *kept = reply;
    else
        dbus_message_unref(reply);
    return count;
}

/* Asks ListPending until it lists n (again 1 ms after each shorter or failed
 * answer, for at most 60 s). */
static int run_list_pending(uint32_t n)
{
    DBusConnection *conn = connect_bus();
    DBusMessage *reply = NULL;
    uint64_t start = now_ns(), asks = 0, total;
    int64_t count = -1;
    char *marshalled;
    int bytes = 0;

    while (now_ns() - start < 60ull * 1000000000ull) {
        asks++;
        count = list_pending_once(conn, n, &reply);
        if (count == (int64_t)n)
            break;
        struct timespec pause = { 0, 1000000 };
        nanosleep(&pause, NULL);
    }
    total = now_ns() - start;
    disconnect_bus(conn);
    if (count != (int64_t)n) {
        fprintf(stderr, "list-pending: the daemon lists %" PRId64
                " notifications after 60 s, not %" PRIu32 "\n", count, n);
        return 1;
    }
    /* The whole message's size, so that a listing from the C server can be
     * checked to carry what the daemon's does. */
    if (!dbus_message_marshal(reply, &marshalled, &bytes))
        die_oom();
    free(marshalled);
    dbus_message_unref(reply);
    printf("{\"mode\":\"list-pending\",\"n\":%" PRIu32 ",\"asks\":%" PRIu64
           ",\"total_ns\":%" PRIu64 ",\"bytes\":%d}\n", n, asks, total, bytes);
    fflush(stdout);
    return 0;
}

/* ----------------------------------------------------------------- spawn */

/* Runs argv to its end n times (after 3 unmeasured runs), output to
 * /dev/null; each sample runs from posix_spawn to waitpid. */
static int run_spawn(uint32_t n, char **argv)
{
    uint64_t *samples = malloc((size_t)n * sizeof *samples);
    posix_spawn_file_actions_t actions;

    if (samples == NULL)
        die_oom();
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                     O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null",
                                     O_WRONLY, 0);
    for (uint32_t i = 0; i < 3 + n; i++) {
        uint64_t t = now_ns();
        pid_t pid;
        int status, rc = posix_spawnp(&pid, argv[0], &actions, NULL, argv,
                                      environ);

        if (rc != 0) {
            fprintf(stderr, "cannot start %s: %s\n", argv[0], strerror(rc));
            return 1;
        }
        if (waitpid(pid, &status, 0) != pid) {
            perror("waitpid");
            return 1;
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "%s ended with status %d; run it by hand to see "
                    "why\n", argv[0], WIFEXITED(status)
                    ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
            return 1;
        }
        if (i >= 3)
            samples[i - 3] = now_ns() - t;
    }
    posix_spawn_file_actions_destroy(&actions);
    print_latency("spawn", samples, n);
    free(samples);
    return 0;
}

/* ------------------------------------------------------- serve-listing */

/* One notification as the daemon lists those of `schedule`: the keys and
 * value types of its ListPending answer, with an id of 16 hex digits and the
 * next fire date as a number and as ISO 8601 text in UTC. */
static void append_listed(DBusMessageIter *list, uint32_t index)
{
    const char *app = "NotificationBridge", *title = "Bench";
    const char *body = "a notification from the benchmark";
    const char *urgency = "normal", *user_info = "{}";
    double in_seconds = 31536000;
    dbus_bool_t no = FALSE;
    dbus_int32_t timeout = -1;
    dbus_int64_t next_fire = 1800000000 + (dbus_int64_t)index;
    char id_text[17], iso_text[32];
    const char *id = id_text, *iso = iso_text;
    time_t fire_time = (time_t)next_fire;
    struct tm fire_tm;
    DBusMessageIter dict;

    gmtime_r(&fire_time, &fire_tm);
    strftime(iso_text, sizeof iso_text, "%Y-%m-%dT%H:%M:%SZ", &fire_tm);

    snprintf(id_text, sizeof id_text, "%016" PRIx64,
             (uint64_t)index * UINT64_C(0x9E3779B97F4A7C15));
    open_container(list, DBUS_TYPE_ARRAY, "{sv}", &dict);
    append_entry(&dict, "app-name", "s", &app);
    append_entry(&dict, "body", "s", &body);
    append_entry(&dict, "in", "d", &in_seconds);
    append_entry(&dict, "resident", "b", &no);
    append_entry(&dict, "timeout", "i", &timeout);
    append_entry(&dict, "title", "s", &title);
    append_entry(&dict, "transient", "b", &no);
    append_entry(&dict, "urgency", "s", &urgency);
    append_entry(&dict, "user-info", "s", &user_info);
    append_entry(&dict, "id", "s", &id);
    append_entry(&dict, "next-fire-date", "x", &next_fire);
    append_entry(&dict, "next-fire-date-iso8601", "s", &iso);
    close_container(list, &dict);
}

/* A method return holding n listed notifications, with no reply serial or
 * destination yet. */
static DBusMessage *new_listing(uint32_t n)
{
    DBusMessage *reply = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN);
    DBusMessageIter it, list;

    if (reply == NULL)
        die_oom();
    dbus_message_iter_init_append(reply, &it);
    open_container(&it, DBUS_TYPE_ARRAY, "a{sv}", &list);
    for (uint32_t i = 0; i < n; i++)
        append_listed(&list, i);
    close_container(&it, &list);
    return reply;
}

/* Declared in baseline.h. */
int serve_calls(DBusConnection *conn, const char *mode, const char *name,
                int queued, DBusMessage *(*answer)(DBusMessage *, void *),
                void *context, const char *refusal)
{
    DBusError err;
    int owner;

    dbus_error_init(&err);
    owner = dbus_bus_request_name(
        conn, name, queued ? 0 : DBUS_NAME_FLAG_DO_NOT_QUEUE, &err);
    if (owner != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER &&
        !(queued && owner == DBUS_REQUEST_NAME_REPLY_IN_QUEUE)) {
        fprintf(stderr, "%s: cannot own %s: %s\n", mode, name,
                dbus_error_is_set(&err) ? err.message : "refused");
        dbus_error_free(&err);
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    /* Calls read while RequestName was waiting for its reply are queued
     * already: take what is queued before blocking for more. */
    do {
        DBusMessage *call;

        while ((call = dbus_connection_pop_message(conn)) != NULL) {
            DBusMessage *reply = answer(call, context);

            if (reply == NULL &&
                dbus_message_get_type(call) == DBUS_MESSAGE_TYPE_METHOD_CALL &&
                !dbus_message_get_no_reply(call)) {
                /* No caller is left waiting for its timeout. */
                reply = dbus_message_new_error(
                    call, DBUS_ERROR_UNKNOWN_METHOD, refusal);
                if (reply == NULL)
                    die_oom();
            }
            if (reply != NULL) {
                if (!dbus_connection_send(conn, reply, NULL))
                    die_oom();
                dbus_message_unref(reply);
            }
            dbus_message_unref(call);
        }
    } while (dbus_connection_read_write(conn, -1));
    return 0;
}

struct listing {
    uint32_t n;
    DBusMessage *built;   /* NULL: built for each call */
    const char *database; /* read at the first ListPending, then NULL */
};

static DBusMessage *answer_listing(DBusMessage *call, void *context)
{
    struct listing *listing = context;
    DBusMessage *reply;

    if (!dbus_message_is_method_call(call, BRIDGE_IFACE, "ListPending"))
        return NULL;
    /* As the daemon: the name first, then what is kept, read once. */
    if (listing->database != NULL) {
        int64_t read = read_kept_rows(listing->database);

        if (read != (int64_t)listing->n) {
            if (read >= 0)
                fprintf(stderr, "serve-listing: %s keeps %" PRId64
                        " pending rows, not %" PRIu32 "\n",
                        listing->database, read, listing->n);
            exit(1);
        }
        listing->database = NULL;
    }
    reply = listing->built ? dbus_message_copy(listing->built)
                           : new_listing(listing->n);
    if (reply == NULL ||
        !dbus_message_set_reply_serial(reply, dbus_message_get_serial(call)) ||
        !dbus_message_set_destination(reply, dbus_message_get_sender(call)))
        die_oom();
    return reply;
}

/* In the daemon's place: takes its name and answers every ListPending with
 * n notifications, the list built with libdbus for each call, or, with
 * `prebuilt`, built once before the name is taken and copied for each call
 * (then what is left is the bus and the client). With `database`, the
 * first ListPending is answered once the n pending rows kept there are
 * read, as the daemon reads its own once it has the name (any other count
 * ends the server, after saying so). Prints `ready` once it owns
 * the name or waits in its queue; runs until the bus goes or it is killed.
 */
static int run_serve_listing(uint32_t n, int prebuilt, const char *database)
{
    DBusConnection *conn = connect_bus();
    struct listing listing = { n, prebuilt ? new_listing(n) : NULL,
                               database };
    /* Queued behind an owner that is leaving, as the daemon would be. */
    int status = serve_calls(conn, "serve-listing", BRIDGE_NAME, 1,
                             answer_listing, &listing,
                             "serve-listing answers ListPending alone");

    if (listing.built != NULL)
        dbus_message_unref(listing.built);
    disconnect_bus(conn);
    return status;
}

/* ------------------------------------------------------------------ main */

static int usage_error(const char *mode)
{
    fprintf(stderr, "%s: wrong arguments; see README.md for its usage\n",
            mode);
    return 2;
}

int run_notification_mode(const char *mode, int argc, char **argv)
{
    uint64_t n, clients;
    double seconds;
    char *end;

    if (strcmp(mode, "notify") != 0 && strcmp(mode, "post") != 0 &&
        strcmp(mode, "action-listen") != 0 &&
        strcmp(mode, "respond-listen") != 0 && strcmp(mode, "churn") != 0 &&
        strcmp(mode, "schedule") != 0 && strcmp(mode, "throughput") != 0 &&
        strcmp(mode, "spawn") != 0 && strcmp(mode, "list-pending") != 0 &&
        strcmp(mode, "serve-listing") != 0 && strcmp(mode, "serve-post") != 0)
        return -1;

    if (strcmp(mode, "serve-post") == 0)
        return argc != 1 ? usage_error(mode) : run_serve_post(argv[0]);

    if (strcmp(mode, "throughput") == 0) {
        if (argc != 2 || parse_number(argv[0], 1, 1000, &clients) != 0 ||
            parse_number(argv[1], 1, UINT32_MAX, &n) != 0)
            return usage_error(mode);
        return run_throughput((uint32_t)clients, (uint32_t)n);
    }
    if (argc < 1 || parse_number(argv[0], 1, UINT32_MAX, &n) != 0)
        return usage_error(mode);
    if (strcmp(mode, "spawn") == 0)
        return argc < 2 ? usage_error(mode) : run_spawn((uint32_t)n, argv + 1);
    if (strcmp(mode, "list-pending") == 0)
        return argc != 1 ? usage_error(mode) : run_list_pending((uint32_t)n);
    if (strcmp(mode, "serve-listing") == 0) {
        if (argc == 2 && strcmp(argv[1], "prebuilt") == 0)
            return run_serve_listing((uint32_t)n, 1, NULL);
        if (argc == 3 && strcmp(argv[1], "rows") == 0)
            return run_serve_listing((uint32_t)n, 0, argv[2]);
        return argc != 1 ? usage_error(mode)
                         : run_serve_listing((uint32_t)n, 0, NULL);
    }
    if (strcmp(mode, "schedule") == 0) {
        if (argc != 2)
            return usage_error(mode);
        seconds = strtod(argv[1], &end);
        if (*end != '\0' || !(seconds > 0))
            return usage_error(mode);
        return run_posts(mode, (uint32_t)n, seconds, 0);
    }
    if (strcmp(mode, "post") == 0 && argc == 2) {
        post_destination = argv[1];
        return run_calls(POST, (uint32_t)n);
    }
    if (argc != 1)
        return usage_error(mode);
    if (strcmp(mode, "notify") == 0)
        return run_calls(NOTIFY, (uint32_t)n);
    if (strcmp(mode, "post") == 0)
        return run_calls(POST, (uint32_t)n);
    if (strcmp(mode, "action-listen") == 0)
        return run_receive(NOTIFY, (uint32_t)n);
    if (strcmp(mode, "respond-listen") == 0)
        return run_receive(POST, (uint32_t)n);
    return run_posts(mode, (uint32_t)n, 0, 1);
}
