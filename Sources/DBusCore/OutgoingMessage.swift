internal import CDBus

/// A message built on one thread and handed to the loop thread to send.
///
/// `@unchecked Sendable`: the thread that built it touches it no more once it is handed over, so only one thread at a
/// time ever uses it, as libdbus requires of a message.
struct OutgoingMessage: @unchecked Sendable {
    let message: OpaquePointer

    init(_ message: OpaquePointer) {
        self.message = message
    }

    /// Drops a message that will not be sent (the loop has stopped).
    func release() {
        dbus_message_unref(message)
    }
}
