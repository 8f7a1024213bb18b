internal import CDBus

extension DBusConnection {
    /// Why ``callOnce(on:destination:path:interface:method:arguments:timeout:)`` failed.
    public enum OneShotFailure: Error, Sendable {
        /// The bus could not be reached or refused the connection.
        case cannotConnect(DBusFailure)
        /// The call failed: a value could not be sent, no reply came in time, or the reply was an error (its name
        /// and message, as ``call(destination:path:interface:method:arguments:timeout:)`` throws it).
        case failed(DBusFailure)
    }

    /// Makes one method call on a connection of its own, opened for it on the calling thread, used by no other
    /// thread, and closed before this returns: for a short-lived program whose only work is this call (a command
    /// line's plain `send`), which then starts no connection thread and no executor. The calling thread blocks until
    /// the reply comes or `timeout` passes.
    ///
    /// - Returns: The reply's values.
    public static func callOnce(
        on bus: Bus = .session, destination: String, path: DBusObjectPath, interface: String, method: String,
        arguments: [DBusValue] = [], timeout: Duration = .seconds(25)
    ) throws(OneShotFailure) -> [DBusValue] {
        do {
            try checkCall(destination: destination, interface: interface, method: method, arguments: arguments)
        } catch {
            throw .failed(error)
        }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = open(bus, &error) else {
            throw .cannotConnect(ConnectionCore.failure(error, message: "cannot connect to the bus"))
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        defer {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
        }
        guard let message = dbus_message_new_method_call(destination, path.rawValue, interface, method) else {
            throw .failed(DBusFailure(name: DBusFailure.Name.noMemory, message: "out of memory building \(method)"))
        }
        defer { dbus_message_unref(message) }
        do {
            try MessageCodec.append(arguments, to: message, validated: true)
        } catch {
            throw .failed(error)
        }
        guard let reply = dbus_connection_send_with_reply_and_block(connection, message, milliseconds(timeout), &error)
        else {
            throw .failed(ConnectionCore.failure(error, message: "\(method) failed"))
        }
        defer { dbus_message_unref(reply) }
        do {
            return try MessageCodec.values(of: reply)
        } catch {
            throw .failed(error)
        }
    }
}
