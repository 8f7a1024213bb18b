// The floor under `notification-bridge send TITLE BODY`: a Swift program built like the CLI that does what it does on
// the wire and nothing else. It connects to the session bus (libdbus), calls the daemon's `Post` with the string
// entries it is given (the benchmark gives the title and the body, under the contract's key names), waits for the id
// it answers, and exits. `dbus-bench` times it from spawn to exit beside the CLI and `notify-send`, so that what the
// CLI adds to the start of a Swift program and its two calls (the bus's `Hello`, then `Post`) is what lies between
// the two rows. Usage: bench-send-floor KEY VALUE [KEY VALUE...]
import CDBus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Ends the program with `message` on standard error.
func fail(_ message: String) -> Never {
    let line = "bench-send-floor: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

/// Appends the entry `key`: <`text`> to the `a{sv}` being written in `dictionary`.
func appendEntry(_ dictionary: inout DBusMessageIter, _ key: String, _ text: String) {
    var entry = DBusMessageIter()
    var variant = DBusMessageIter()
    guard dbus_message_iter_open_container(&dictionary, CDBUS_TYPE_DICT_ENTRY, nil, &entry) != 0 else {
        fail("no memory")
    }
    key.withCString { key in
        var pointer: UnsafePointer<CChar>? = key
        _ = dbus_message_iter_append_basic(&entry, CDBUS_TYPE_STRING, &pointer)
    }
    guard dbus_message_iter_open_container(&entry, CDBUS_TYPE_VARIANT, "s", &variant) != 0 else { fail("no memory") }
    text.withCString { text in
        var pointer: UnsafePointer<CChar>? = text
        _ = dbus_message_iter_append_basic(&variant, CDBUS_TYPE_STRING, &pointer)
    }
    _ = dbus_message_iter_close_container(&entry, &variant)
    _ = dbus_message_iter_close_container(&dictionary, &entry)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, arguments.count % 2 == 1 else { fail("usage: bench-send-floor KEY VALUE [KEY VALUE...]") }

var error = DBusError()
dbus_error_init(&error)
guard let connection = dbus_bus_get_private(DBUS_BUS_SESSION, &error) else { fail("no session bus") }
guard
    let call = dbus_message_new_method_call(
        "io.github.NotificationBridge", "/io/github/NotificationBridge", "io.github.NotificationBridge1", "Post")
else { fail("no memory") }
var body = DBusMessageIter()
var dictionary = DBusMessageIter()
dbus_message_iter_init_append(call, &body)
guard dbus_message_iter_open_container(&body, CDBUS_TYPE_ARRAY, "{sv}", &dictionary) != 0 else { fail("no memory") }
for index in stride(from: 1, to: arguments.count, by: 2) {
    appendEntry(&dictionary, arguments[index], arguments[index + 1])
}
_ = dbus_message_iter_close_container(&body, &dictionary)
guard let reply = dbus_connection_send_with_reply_and_block(connection, call, 25_000, &error) else {
    fail("Post failed: \(error.message.map { String(cString: $0) } ?? "no reason given")")
}
guard dbus_message_has_signature(reply, "s") != 0 else { fail("Post answered something other than an id") }
dbus_message_unref(reply)
dbus_message_unref(call)
dbus_connection_close(connection)
dbus_connection_unref(connection)
