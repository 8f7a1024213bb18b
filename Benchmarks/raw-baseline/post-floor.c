/*
 * serve-post DIR: the floor under the daemon's Post. A server on libdbus
 * and SQLite alone that does for each Post what the daemon cannot leave
 * out: it reads the title and the body from the call's a{sv}, shows them
 * with Notify on the notification server (waiting for its id, as a client
 * of the server must), keeps where the response goes as one row of a
 * database in write-ahead-log mode (synchronous=NORMAL, one transaction a
 * Post, as the daemon's store), and answers with an id. One thread, no
 * hand-offs, nothing checked beyond the two strings: `post N NAME` timed
 * against it is the least a Post can cost on this machine.
 *
 * It answers under POST_FLOOR_NAME, so that it runs beside the daemon and
 * the benchmark alternates the two in the same rounds.
 */

#define _POSIX_C_SOURCE 200809L

#include "baseline.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BRIDGE_IFACE "io.github.NotificationBridge1"

struct store {
    sqlite3 *db;
    sqlite3_stmt *begin, *insert, *commit;
};

static int fail_sqlite(sqlite3 *db, const char *what)
{
    fprintf(stderr, "serve-post: %s: %s\n", what, sqlite3_errmsg(db));
    return -1;
}

static int open_store(struct store *st, const char *directory)
{
    char path[4096];

    snprintf(path, sizeof path, "%s/post-floor.db", directory);
    if (sqlite3_open(path, &st->db) != SQLITE_OK)
        return fail_sqlite(st->db, "cannot open the database");
    if (sqlite3_exec(st->db,
                     "PRAGMA locking_mode = EXCLUSIVE;"
                     "PRAGMA journal_mode = WAL;"
                     "PRAGMA synchronous = NORMAL;"
                     "CREATE TABLE IF NOT EXISTS delivered "
                     "(id TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL);",
                     NULL, NULL, NULL) != SQLITE_OK)
        return fail_sqlite(st->db, "cannot set the database up");
    if (sqlite3_prepare_v2(st->db, "BEGIN IMMEDIATE", -1, &st->begin,
                           NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(st->db,
                           "INSERT OR REPLACE INTO delivered (id, body) "
                           "VALUES (?1, ?2)",
                           -1, &st->insert, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(st->db, "COMMIT", -1, &st->commit, NULL) !=
            SQLITE_OK)
        return fail_sqlite(st->db, "cannot prepare the statements");
    return 0;
}

static int step_once(sqlite3_stmt *stmt)
{
    int rc = sqlite3_step(stmt);

    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Keeps `route` (who posted, the server's id) under `id`. */
static int keep_route(struct store *st, const char *id, const char *route)
{
    if (step_once(st->begin) != 0)
        return fail_sqlite(st->db, "BEGIN failed");
    sqlite3_bind_text(st->insert, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st->insert, 2, route, (int)strlen(route),
                      SQLITE_STATIC);
    if (step_once(st->insert) != 0) {
        sqlite3_clear_bindings(st->insert);
        return fail_sqlite(st->db, "INSERT failed");
    }
    sqlite3_clear_bindings(st->insert);
    if (step_once(st->commit) != 0)
        return fail_sqlite(st->db, "COMMIT failed");
    return 0;
}

/* The string values of `title` and `body` in the call's a{sv}. */
static void read_texts(DBusMessage *call, const char **title,
                       const char **body)
{
    DBusMessageIter it, dict, entry, variant;

    *title = "";
    *body = "";
    if (!dbus_message_iter_init(call, &it) ||
        dbus_message_iter_get_arg_type(&it) != DBUS_TYPE_ARRAY)
        return;
    dbus_message_iter_recurse(&it, &dict);
    while (dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY) {
        const char *key;

        dbus_message_iter_recurse(&dict, &entry);
        dbus_message_iter_get_basic(&entry, &key);
        dbus_message_iter_next(&entry);
        dbus_message_iter_recurse(&entry, &variant);
        if (dbus_message_iter_get_arg_type(&variant) == DBUS_TYPE_STRING) {
            if (strcmp(key, "title") == 0)
                dbus_message_iter_get_basic(&variant, title);
            else if (strcmp(key, "body") == 0)
                dbus_message_iter_get_basic(&variant, body);
        }
        dbus_message_iter_next(&dict);
    }
}

struct post_server {
    DBusConnection *conn;
    struct store store;
    uint64_t serial;
};

/* The reply to a Post, its id or an error saying what failed; NULL for
 * any other call. */
static DBusMessage *answer_post(DBusMessage *post, void *context)
{
    struct post_server *server = context;
    const char *title, *body;
    char id[64], route[512];
    const char *id_text = id;
    dbus_uint32_t server_id;
    DBusMessageIter it;
    DBusMessage *shown, *reply;

    if (!dbus_message_is_method_call(post, BRIDGE_IFACE, "Post"))
        return NULL;
    read_texts(post, &title, &body);
    shown = call(server->conn, new_notify_text(0, title, body), "Notify",
                 "u");
    if (shown == NULL)
        return dbus_message_new_error(post, DBUS_ERROR_FAILED,
                                      "the notification server failed");
    dbus_message_iter_init(shown, &it);
    dbus_message_iter_get_basic(&it, &server_id);
    dbus_message_unref(shown);
    snprintf(id, sizeof id, "floor-%" PRIu64, ++server->serial);
    snprintf(route, sizeof route, "{\"poster\":\"%s\",\"server\":%u}",
             dbus_message_get_sender(post), (unsigned)server_id);
    if (keep_route(&server->store, id, route) != 0)
        return dbus_message_new_error(post, DBUS_ERROR_FAILED,
                                      "the route was not kept");
    reply = dbus_message_new_method_return(post);
    if (reply == NULL ||
        !dbus_message_append_args(reply, DBUS_TYPE_STRING, &id_text,
                                  DBUS_TYPE_INVALID))
        die_oom();
    return reply;
}

int run_serve_post(const char *directory)
{
    struct post_server server = { 0 };
    int status;

    if (open_store(&server.store, directory) != 0)
        return 1;
    server.conn = connect_bus();
    status = serve_calls(server.conn, "serve-post", POST_FLOOR_NAME, 0,
                         answer_post, &server, "serve-post answers Post alone");
    disconnect_bus(server.conn);
    sqlite3_finalize(server.store.begin);
    sqlite3_finalize(server.store.insert);
    sqlite3_finalize(server.store.commit);
    sqlite3_close(server.store.db);
    return status;
}
