internal import CDBus

/// One outgoing method call waiting for its reply, confined to the loop thread.
///
/// `@unchecked Sendable`: created on a caller's thread but read and written only inside jobs on the loop thread
/// and inside libdbus's notify callback, which also runs there.
final class PendingCallBox: @unchecked Sendable {
    var continuation: CheckedContinuation<DBusReply, any Error>?
    var pending: OpaquePointer?
    var cancelled = false
    /// The connection the call waits on, which fails it should it close first.
    weak var core: ConnectionCore?

    func resume(_ result: Result<DBusReply, any Error>) {
        core?.waitingCalls[ObjectIdentifier(self)] = nil
        core = nil
        guard let continuation else { return }
        self.continuation = nil
        continuation.resume(with: result)
    }
}

extension ConnectionCore {
    /// Sends a method call and arranges for `box` to be resumed with the reply, an error reply, or a timeout.
    func startCall(
        destination: String?, path: DBusObjectPath, interface: String?, member: String, arguments: [DBusValue],
        timeoutMilliseconds: Int32, box: PendingCallBox
    ) {
        if box.cancelled {
            box.resume(.failure(CancellationError()))
            return
        }
        let message: OpaquePointer
        do {
            message = try Self.makeMethodCall(
                destination: destination, path: path, interface: interface, member: member, arguments: arguments,
                validated: true)
        } catch {
            box.resume(.failure(error))
            return
        }
        defer { dbus_message_unref(message) }
        var pending: OpaquePointer? = nil
        guard dbus_connection_send_with_reply(connection, message, &pending, timeoutMilliseconds) != 0,
            let pending
        else {
            box.resume(.failure(DBusFailure.disconnected()))
            return
        }
        box.pending = pending
        box.core = self
        waitingCalls[ObjectIdentifier(box)] = box
        let context = Unmanaged.passRetained(box).toOpaque()
        dbus_pending_call_set_notify(
            pending,
            { pending, data in
                let box = Unmanaged<PendingCallBox>.fromOpaque(data!).takeUnretainedValue()
                let reply = dbus_pending_call_steal_reply(pending)
                box.pending = nil
                if let reply {
                    box.resume(ConnectionCore.result(of: reply))
                    dbus_message_unref(reply)
                } else {
                    box.resume(.failure(DBusFailure(name: DBusFailure.Name.noReply, message: "no reply")))
                }
                dbus_pending_call_unref(pending)
            },
            context,
            { data in Unmanaged<PendingCallBox>.fromOpaque(data!).release() }
        )
    }

    /// Cancels the call of `box` if it is still waiting.
    func cancelCall(_ box: PendingCallBox) {
        box.cancelled = true
        endCall(box, with: CancellationError())
    }

    /// Stops waiting for the reply to the call of `box` and fails it with `error`.
    func endCall(_ box: PendingCallBox, with error: any Error) {
        guard let pending = box.pending else { return }
        box.pending = nil
        dbus_pending_call_cancel(pending)
        dbus_pending_call_unref(pending)
        box.resume(.failure(error))
    }

    /// The values and sender of a method return, or the ``DBusFailure`` of an error reply.
    static func result(of reply: OpaquePointer) -> Result<DBusReply, any Error> {
        if dbus_message_get_type(reply) == CDBUS_MESSAGE_TYPE_ERROR {
            let name = string(dbus_message_get_error_name(reply)) ?? DBusFailure.Name.failed
            let text: String
            if case .string(let first)? = (try? MessageCodec.values(of: reply))?.first {
                text = first
            } else {
                text = ""
            }
            return .failure(DBusFailure(name: name, message: text))
        }
        let sender = string(dbus_message_get_sender(reply)) ?? ""
        return Result { () throws(DBusFailure) in
            DBusReply(values: try MessageCodec.values(of: reply), sender: sender)
        }.mapError { $0 }
    }
}
