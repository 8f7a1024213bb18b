/*
 * What serve-listing reads with `rows DATABASE`: every pending row the
 * daemon keeps, as the daemon's start reads them (one pass over the table,
 * in the table's order), each row's id, time and body read out of SQLite.
 * Nothing is decoded and nothing kept: the least a server that lists what
 * it keeps on disk must do before it can answer.
 */

#define _POSIX_C_SOURCE 200809L

#include "baseline.h"

#include <sqlite3.h>
#include <stdio.h>

/* Declared in baseline.h. */
int64_t read_kept_rows(const char *database)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *rows = NULL;
    int64_t count = 0;
    int rc;

    /* Opened for writing, though nothing is written: a connection that can
     * write folds the log away as it closes, and leaves the file as the
     * stopped daemon left it. */
    if (sqlite3_open_v2(database, &db, SQLITE_OPEN_READWRITE, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT id, scheduled_at, body FROM pending",
                           -1, &rows, NULL) != SQLITE_OK) {
        fprintf(stderr, "serve-listing: cannot read the pending rows of %s: "
                "%s\n", database, db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return -1;
    }
    while ((rc = sqlite3_step(rows)) == SQLITE_ROW) {
        /* Each column is read out of SQLite; nothing more is done. */
        if (sqlite3_column_text(rows, 0) == NULL ||
            (sqlite3_column_blob(rows, 2) == NULL &&
             sqlite3_column_bytes(rows, 2) != 0)) {
            fprintf(stderr, "serve-listing: a pending row of %s has no id "
                    "or body\n", database);
            count = -1;
            break;
        }
        (void)sqlite3_column_double(rows, 1);
        count++;
    }
    if (count >= 0 && rc != SQLITE_DONE) {
        fprintf(stderr, "serve-listing: reading the pending rows of %s: %s\n",
                database, sqlite3_errmsg(db));
        count = -1;
    }
    sqlite3_finalize(rows);
    sqlite3_close(db);
    return count;
}
