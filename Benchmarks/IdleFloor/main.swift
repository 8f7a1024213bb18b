// The floor under the daemon's idle memory: a Swift program built like the daemon, on the same C libraries, each put
// to the use the daemon makes of it while idle, and nothing of the bridge's own. `dbus-bench` measures its resident
// memory beside the daemon's, with the same build flags, so that the difference is what the bridge's code adds.
//
// It connects to the session bus and takes a name (libdbus), opens a database in write-ahead-log mode (SQLite),
// watches a folder for changes (GIO, as the daemon watches its settings file), then waits in `poll` for the bus to
// close. Before it waits it lets go of its program's code pages, as the daemon does after a quiet second. Usage:
// bench-idle-floor NAME FOLDER
import CDBus
import CGIO
import CLinux
import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Ends the program with `message` on standard error.
func fail(_ message: String) -> Never {
    let line = "bench-idle-floor: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: bench-idle-floor NAME FOLDER") }
let (name, folder) = (arguments[1], arguments[2])

var database: OpaquePointer?
guard sqlite3_open(folder + "/floor.sqlite", &database) == SQLITE_OK,
    sqlite3_exec(
        database, "PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS pending (id TEXT PRIMARY KEY, body BLOB)",
        nil, nil, nil) == SQLITE_OK
else { fail("cannot open a database in \(folder)") }

// Through the local file system, as the daemon watches its settings file: no GVfs client on the bus.
let watched = g_vfs_get_file_for_path(g_vfs_get_local(), folder)
guard let monitor = g_file_monitor_directory(watched, G_FILE_MONITOR_NONE, nil, nil) else {
    fail("cannot watch \(folder)")
}

var error = DBusError()
dbus_error_init(&error)
guard let connection = dbus_bus_get_private(DBUS_BUS_SESSION, &error) else { fail("no session bus") }
guard dbus_bus_request_name(connection, name, 0, &error) == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER else {
    fail("cannot own \(name)")
}
dbus_connection_flush(connection)

var descriptor: Int32 = -1
guard dbus_connection_get_unix_fd(connection, &descriptor) != 0 else { fail("the bus connection has no socket") }
var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
_ = nb_release_program_pages()
// Reads whatever the bus sends (name changes it broadcasts) and waits again, until the bus goes away.
while poll(&waiting, 1, -1) >= 0 || errno == EINTR {
    guard dbus_connection_read_write_dispatch(connection, 0) != 0 else { break }
}
withExtendedLifetime(monitor) {}
