/// The reply to a method call: its values, and the connection that sent it.
public struct DBusReply: Sendable, Hashable {
    /// The values of the reply.
    public var values: [DBusValue]
    /// The unique name (`:1.42`) of the connection that answered: the owner of the called name when it answered,
    /// which may differ from the owner a caller last heard of. Empty on a peer-to-peer connection.
    public var sender: String

    /// Makes a reply.
    public init(values: [DBusValue], sender: String) {
        self.values = values
        self.sender = sender
    }
}
