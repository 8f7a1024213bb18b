/*
 * dbus-raw-baseline: the floor for the Swift D-Bus library's benchmarks.
 *
 * Everything here talks to libdbus directly, with no abstraction on top, so
 * the numbers show what the transport and the bus daemon cost on their own.
 * Whatever the Swift library adds is the difference against these numbers.
 *
 * Modes: serve | call N [PAYLOAD_BYTES] | listen N | emit N | count N,
 * and the notification modes of notification-modes.c
 * (see README.md next to this file for the JSON each mode prints).
 */

/* clock_gettime() is POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "baseline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_NAME  "io.github.NotificationBridge.Bench"
#define BENCH_PATH  "/io/github/NotificationBridge/Bench"
#define BENCH_IFACE "io.github.NotificationBridge.Bench1"
#define TICK_MATCH \
    "type='signal',interface='" BENCH_IFACE "',member='Tick'"

#define DEFAULT_PAYLOAD  16u

/*
 * libdbus refuses messages above 128 MiB; staying well below that keeps a
 * large payload a benchmark question rather than a protocol error.
 */
#define MAX_PAYLOAD (64ull * 1024 * 1024)

uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s serve\n"
            "       %s call N [PAYLOAD_BYTES]\n"
            "       %s listen N\n"
            "       %s emit N\n"
            "       %s count N\n"
            "       %s notify|post|action-listen|respond-listen|churn N\n"
            "       %s post N NAME\n"
            "       %s schedule N SECONDS\n"
            "       %s throughput CLIENTS N\n"
            "       %s spawn N PROGRAM [ARG...]\n"
            "       %s list-pending N\n"
            "       %s serve-listing N [prebuilt | rows DATABASE]\n"
            "       %s serve-post DIRECTORY\n",
            argv0, argv0, argv0, argv0, argv0, argv0, argv0, argv0, argv0, argv0,
            argv0, argv0, argv0);
    exit(2);
}

/*
 * A benchmark that silently runs with a misparsed count measures the wrong
 * thing, so anything but a clean decimal number in range is rejected.
 */
int parse_number(const char *s, uint64_t min, uint64_t max,
                        uint64_t *out)
{
    char *end;
    unsigned long long v;

    if (s[0] < '0' || s[0] > '9')
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

/* Out of memory leaves no meaningful measurement to finish. */
void die_oom(void)
{
    fputs("out of memory\n", stderr);
    exit(1);
}

DBusConnection *connect_bus(void)
{
    DBusError err;
    DBusConnection *conn;

    dbus_error_init(&err);
    /*
     * A private connection keeps libdbus from sharing it behind our back,
     * and we close it ourselves instead of letting libdbus call _exit().
     */
    conn = dbus_bus_get_private(DBUS_BUS_SESSION, &err);
    if (conn == NULL) {
        fprintf(stderr, "cannot connect to session bus: %s\n",
                dbus_error_is_set(&err) ? err.message : "unknown error");
        dbus_error_free(&err);
        exit(1);
    }
    dbus_connection_set_exit_on_disconnect(conn, FALSE);
    return conn;
}

void disconnect_bus(DBusConnection *conn)
{
    dbus_connection_close(conn);
    dbus_connection_unref(conn);
}

static void add_tick_match(DBusConnection *conn)
{
    DBusError err;

    dbus_error_init(&err);
    /* Blocking form, so the rule is active before any Tick is sent. */
    dbus_bus_add_match(conn, TICK_MATCH, &err);
    if (dbus_error_is_set(&err)) {
        fprintf(stderr, "AddMatch failed: %s\n", err.message);
        dbus_error_free(&err);
        exit(1);
    }
}

static DBusMessage *new_tick(uint32_t n)
{
    DBusMessage *sig = dbus_message_new_signal(BENCH_PATH, BENCH_IFACE, "Tick");

    if (sig == NULL ||
        !dbus_message_append_args(sig, DBUS_TYPE_UINT32, &n, DBUS_TYPE_INVALID))
        die_oom();
    return sig;
}

/* ------------------------------------------------------------------ serve */

struct server {
    int quit;
};

static void send_reply(DBusConnection *conn, DBusMessage *call,
                       DBusMessage *reply)
{
    if (reply == NULL)
        die_oom();
    /* Callers that asked for no reply must not get one. */
    if (!dbus_message_get_no_reply(call) &&
        !dbus_connection_send(conn, reply, NULL))
        die_oom();
    dbus_message_unref(reply);
}

static void reply_invalid_args(DBusConnection *conn, DBusMessage *call,
                               const char *expected)
{
    char text[128];

    snprintf(text, sizeof text, "expected signature '%s', got '%s'",
             expected, dbus_message_get_signature(call));
    send_reply(conn, call,
               dbus_message_new_error(call, DBUS_ERROR_INVALID_ARGS, text));
}

static void handle_echo(DBusConnection *conn, DBusMessage *call)
{
    DBusMessageIter it;
    const char *s;
    DBusMessage *reply;

    if (!dbus_message_has_signature(call, "s")) {
        reply_invalid_args(conn, call, "s");
        return;
    }
    /* The signature is already known, so the iterator avoids the
     * varargs type checking of dbus_message_get_args(). */
    dbus_message_iter_init(call, &it);
    dbus_message_iter_get_basic(&it, &s);

    reply = dbus_message_new_method_return(call);
    if (reply == NULL ||
        !dbus_message_append_args(reply, DBUS_TYPE_STRING, &s,
                                  DBUS_TYPE_INVALID))
        die_oom();
    send_reply(conn, call, reply);
}

static void handle_emit(DBusConnection *conn, DBusMessage *call)
{
    DBusMessageIter it;
    uint32_t count;

    if (!dbus_message_has_signature(call, "u")) {
        reply_invalid_args(conn, call, "u");
        return;
    }
    dbus_message_iter_init(call, &it);
    dbus_message_iter_get_basic(&it, &count);

    /* Reply first so the caller's blocking call returns at once and the
     * signal stream alone is what the listener times. */
    send_reply(conn, call, dbus_message_new_method_return(call));

    for (uint32_t n = 0; n < count; n++) {
        DBusMessage *sig = new_tick(n);

        if (!dbus_connection_send(conn, sig, NULL))
            die_oom();
        dbus_message_unref(sig);
    }
    dbus_connection_flush(conn);
}

static DBusHandlerResult serve_message(DBusConnection *conn, DBusMessage *msg,
                                       void *data)
{
    struct server *srv = data;

    if (dbus_message_get_type(msg) != DBUS_MESSAGE_TYPE_METHOD_CALL)
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;

    if (dbus_message_is_method_call(msg, BENCH_IFACE, "Echo")) {
        handle_echo(conn, msg);
    } else if (dbus_message_is_method_call(msg, BENCH_IFACE, "Emit")) {
        handle_emit(conn, msg);
    } else if (dbus_message_is_method_call(msg, BENCH_IFACE, "Quit")) {
        if (!dbus_message_has_signature(msg, "")) {
            reply_invalid_args(conn, msg, "");
        } else {
            send_reply(conn, msg, dbus_message_new_method_return(msg));
            srv->quit = 1;
        }
    } else {
        char text[512];

        snprintf(text, sizeof text, "no method %s.%s",
                 dbus_message_get_interface(msg)
                     ? dbus_message_get_interface(msg) : "(none)",
                 dbus_message_get_member(msg));
        send_reply(conn, msg,
                   dbus_message_new_error(msg, DBUS_ERROR_UNKNOWN_METHOD, text));
    }
    return DBUS_HANDLER_RESULT_HANDLED;
}

static int run_serve(void)
{
    static const DBusObjectPathVTable vtable = {
        .message_function = serve_message,
    };
    struct server srv = { 0 };
    DBusConnection *conn = connect_bus();
    DBusError err;
    int ret;

    dbus_error_init(&err);
    /* Register before owning the name, so no call can reach the name while
     * nothing would answer it. */
    if (!dbus_connection_try_register_object_path(conn, BENCH_PATH, &vtable,
                                                  &srv, &err)) {
        fprintf(stderr, "cannot register %s: %s\n", BENCH_PATH, err.message);
        dbus_error_free(&err);
        disconnect_bus(conn);
        return 1;
    }

    /* Without DO_NOT_QUEUE a second server would wait silently in line. */
    ret = dbus_bus_request_name(conn, BENCH_NAME, DBUS_NAME_FLAG_DO_NOT_QUEUE,
                                &err);
    if (ret != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        if (dbus_error_is_set(&err)) {
            fprintf(stderr, "RequestName %s failed: %s\n", BENCH_NAME,
                    err.message);
            dbus_error_free(&err);
        } else {
            fprintf(stderr, "not primary owner of %s (already taken?)\n",
                    BENCH_NAME);
        }
        disconnect_bus(conn);
        return 1;
    }

    puts("ready");
    fflush(stdout);

    while (!srv.quit) {
        if (!dbus_connection_read_write_dispatch(conn, -1)) {
            fputs("serve: disconnected from bus\n", stderr);
            disconnect_bus(conn);
            return 1;
        }
    }

    /* The Quit reply is queued; make sure it leaves before we close. */
    dbus_connection_flush(conn);
    disconnect_bus(conn);
    return 0;
}

/* ------------------------------------------------------------------- call */

int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return (x > y) - (x < y);
}

void print_latency(const char *mode, uint64_t *samples, uint32_t n)
{
    uint64_t total = 0, median, p99;

    for (uint32_t i = 0; i < n; i++)
        total += samples[i];
    qsort(samples, n, sizeof *samples, cmp_u64);
    median = (n % 2) ? samples[n / 2]
                     : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    /* Nearest-rank percentile: the smallest sample with at least 99% of
     * all samples at or below it. */
    p99 = samples[((uint64_t)n * 99 + 99) / 100 - 1];

    printf("{\"mode\":\"%s\",\"n\":%" PRIu32 ",\"median_ns\":%" PRIu64
           ",\"p99_ns\":%" PRIu64 ",\"mean_ns\":%" PRIu64
           ",\"total_ns\":%" PRIu64 "}\n",
           mode, n, median, p99, total / n, total);
    fflush(stdout);
}

/* Returns 0 on success; prints the reason and returns -1 otherwise. */
static int echo_once(DBusConnection *conn, const char *payload, size_t len)
{
    DBusMessage *call, *reply;
    DBusMessageIter it;
    DBusError err;
    const char *back;
    int ok;

    call = dbus_message_new_method_call(BENCH_NAME, BENCH_PATH, BENCH_IFACE,
                                        "Echo");
    if (call == NULL ||
        !dbus_message_append_args(call, DBUS_TYPE_STRING, &payload,
                                  DBUS_TYPE_INVALID))
        die_oom();

    dbus_error_init(&err);
    reply = dbus_connection_send_with_reply_and_block(conn, call,
                                                      CALL_TIMEOUT_MS, &err);
    dbus_message_unref(call);
    if (reply == NULL) {
        fprintf(stderr, "Echo failed: %s\n", err.message);
        dbus_error_free(&err);
        return -1;
    }

    /* A client that does not look at the answer is not doing a round trip
     * the way a real caller would, so the echo is decoded and checked. */
    ok = dbus_message_has_signature(reply, "s") != 0;
    if (ok) {
        dbus_message_iter_init(reply, &it);
        dbus_message_iter_get_basic(&it, &back);
        ok = strlen(back) == len && memcmp(back, payload, len) == 0;
    }
    dbus_message_unref(reply);
    if (!ok) {
        fputs("Echo returned something other than its argument\n", stderr);
        return -1;
    }
    return 0;
}

static int run_call(uint32_t n, size_t payload_len)
{
    DBusConnection *conn;
    uint64_t *samples;
    char *payload;
    uint64_t t;

    payload = malloc(payload_len + 1);
    samples = malloc((size_t)n * sizeof *samples);
    if (payload == NULL || samples == NULL)
        die_oom();
    memset(payload, 'x', payload_len);
    payload[payload_len] = '\0';

    conn = connect_bus();

    /* Warm-up lets the daemon, caches and allocator settle, so the first
     * measured call is not paying for one-time setup. */
    for (uint32_t i = 0; i < WARMUP_CALLS; i++) {
        if (echo_once(conn, payload, payload_len) != 0)
            goto fail;
    }

    /* Each sample covers building the call, the round trip and decoding the
     * reply; chaining timestamps keeps one clock read per call. */
    t = now_ns();
    for (uint32_t i = 0; i < n; i++) {
        uint64_t end;

        if (echo_once(conn, payload, payload_len) != 0)
            goto fail;
        end = now_ns();
        samples[i] = end - t;
        t = end;
    }

    print_latency("call", samples, n);

    disconnect_bus(conn);
    free(samples);
    free(payload);
    return 0;

fail:
    disconnect_bus(conn);
    free(samples);
    free(payload);
    return 1;
}

/* --------------------------------------------------- listen/count receive */

struct tick_run {
    uint32_t received;
    uint64_t first_ns; /* when the first Tick was taken off the queue */
    uint64_t last_ns;  /* when the last expected Tick was */
};

/*
 * Receives Tick signals until `want` have arrived or `deadline_ns` passes.
 * Messages are popped straight off the incoming queue: no handler lookup
 * or filter chain, which is the cheapest way libdbus offers to consume
 * them. Returns 0 on success, 1 after reporting the failure.
 */
static int receive_ticks(DBusConnection *conn, uint32_t want,
                         int must_start_at_zero, uint64_t deadline_ns,
                         struct tick_run *run)
{
    uint32_t prev = 0;
    int disconnected = 0;

    run->received = 0;
    while (run->received < want) {
        DBusMessage *msg = dbus_connection_pop_message(conn);
        DBusMessageIter it;
        uint32_t v;

        if (msg == NULL) {
            uint64_t now;

            if (disconnected) {
                fprintf(stderr, "disconnected after %" PRIu32 " of %" PRIu32
                        " Tick signals\n", run->received, want);
                return 1;
            }
            now = now_ns();
            if (now >= deadline_ns) {
                fprintf(stderr, "timed out: %" PRIu32 " of %" PRIu32
                        " Tick signals arrived within 30 s\n",
                        run->received, want);
                return 1;
            }
            /* Round up so a sub-millisecond remainder does not turn into a
             * zero timeout and a busy loop. */
            if (!dbus_connection_read_write(
                    conn, (int)((deadline_ns - now + 999999) / 1000000)))
                disconnected = 1;
            continue;
        }

        /* NameAcquired and similar bus chatter share the queue. */
        if (!dbus_message_is_signal(msg, BENCH_IFACE, "Tick")) {
            dbus_message_unref(msg);
            continue;
        }
        if (!dbus_message_has_signature(msg, "u")) {
            fprintf(stderr, "Tick with signature '%s' instead of 'u'\n",
                    dbus_message_get_signature(msg));
            dbus_message_unref(msg);
            return 1;
        }
        dbus_message_iter_init(msg, &it);
        dbus_message_iter_get_basic(&it, &v);
        dbus_message_unref(msg);

        if (run->received == 0) {
            run->first_ns = now_ns();
            if (must_start_at_zero && v != 0) {
                fprintf(stderr, "first Tick carried %" PRIu32
                        " instead of 0\n", v);
                return 1;
            }
        } else if (v != prev + 1) {
            fprintf(stderr, "out of order: Tick %" PRIu32 " followed %"
                    PRIu32 " after %" PRIu32 " signals\n",
                    v, prev, run->received);
            return 1;
        }
        prev = v;
        run->received++;
    }
    run->last_ns = now_ns();
    return 0;
}

static double per_second(uint32_t n, uint64_t ns)
{
    return ns ? (double)n * 1e9 / (double)ns : 0.0;
}

static int run_listen(uint32_t n)
{
    DBusConnection *conn = connect_bus();
    DBusMessage *call, *reply;
    DBusError err;
    struct tick_run run;
    uint64_t start, total;
    int rc;

    add_tick_match(conn);

    call = dbus_message_new_method_call(BENCH_NAME, BENCH_PATH, BENCH_IFACE,
                                        "Emit");
    if (call == NULL ||
        !dbus_message_append_args(call, DBUS_TYPE_UINT32, &n,
                                  DBUS_TYPE_INVALID))
        die_oom();

    dbus_error_init(&err);
    start = now_ns();
    /* Signals that overtake the reply stay queued; only the reply is taken
     * out by the blocking call. */
    reply = dbus_connection_send_with_reply_and_block(conn, call,
                                                      CALL_TIMEOUT_MS, &err);
    dbus_message_unref(call);
    if (reply == NULL) {
        fprintf(stderr, "Emit failed: %s\n", err.message);
        dbus_error_free(&err);
        disconnect_bus(conn);
        return 1;
    }
    dbus_message_unref(reply);

    rc = receive_ticks(conn, n, 1, start + RECEIVE_BOUND_NS, &run);
    disconnect_bus(conn);
    if (rc != 0)
        return rc;

    total = run.last_ns - start;
    printf("{\"mode\":\"listen\",\"n\":%" PRIu32 ",\"received\":%" PRIu32
           ",\"total_ns\":%" PRIu64 ",\"per_second\":%.1f}\n",
           n, run.received, total, per_second(run.received, total));
    fflush(stdout);
    return 0;
}

static int run_count(uint32_t n)
{
    DBusConnection *conn = connect_bus();
    struct tick_run run;
    uint64_t total;
    int rc;

    add_tick_match(conn);
    puts("ready");
    fflush(stdout);

    /* The emitter numbering is not ours to dictate, so only consecutive
     * order is required; a lost start still shows up as a shortfall. */
    rc = receive_ticks(conn, n, 0, now_ns() + RECEIVE_BOUND_NS, &run);
    disconnect_bus(conn);
    if (rc != 0)
        return rc;

    total = run.last_ns - run.first_ns;
    printf("{\"mode\":\"count\",\"n\":%" PRIu32 ",\"total_ns\":%" PRIu64
           ",\"per_second\":%.1f}\n",
           n, total, per_second(n, total));
    fflush(stdout);
    return 0;
}

/* ------------------------------------------------------------------- emit */

static int run_emit(uint32_t n)
{
    DBusConnection *conn = connect_bus();
    uint64_t start, total;

    start = now_ns();
    for (uint32_t i = 0; i < n; i++) {
        DBusMessage *sig = new_tick(i);

        if (!dbus_connection_send(conn, sig, NULL))
            die_oom();
        dbus_message_unref(sig);
    }
    /* Until the flush returns the signals may still sit in our own queue,
     * and a send is not done until the bytes are with the daemon. */
    dbus_connection_flush(conn);
    total = now_ns() - start;

    disconnect_bus(conn);
    printf("{\"mode\":\"emit\",\"n\":%" PRIu32 ",\"total_ns\":%" PRIu64 "}\n",
           n, total);
    fflush(stdout);
    return 0;
}

/* ------------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    const char *argv0 = argc > 0 ? argv[0] : "dbus-raw-baseline";
    const char *mode;
    uint64_t n, payload = DEFAULT_PAYLOAD;
    int ret;

    if (argc < 2)
        usage(argv0);
    mode = argv[1];

    /* The notification modes answer -1 for a mode they do not know. */
    ret = run_notification_mode(mode, argc - 2, argv + 2);
    if (ret != -1)
        return ret;

    if (strcmp(mode, "serve") == 0) {
        if (argc != 2)
            usage(argv0);
        return run_serve();
    }

    /* Every other mode takes a count; Tick carries it as a uint32. */
    if (argc < 3 || parse_number(argv[2], 1, UINT32_MAX, &n) != 0)
        usage(argv0);

    if (strcmp(mode, "call") == 0) {
        if (argc > 4 ||
            (argc == 4 && parse_number(argv[3], 0, MAX_PAYLOAD, &payload) != 0))
            usage(argv0);
        return run_call((uint32_t)n, (size_t)payload);
    }
    if (argc != 3)
        usage(argv0);
    if (strcmp(mode, "listen") == 0)
        return run_listen((uint32_t)n);
    if (strcmp(mode, "emit") == 0)
        return run_emit((uint32_t)n);
    if (strcmp(mode, "count") == 0)
        return run_count((uint32_t)n);
    usage(argv0);
    return 2;
}
