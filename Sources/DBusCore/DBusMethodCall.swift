import Synchronization

/// A method call received by an exported object, answered once with ``reply(_:)`` or ``fail(_:)``.
///
/// The call may be answered from any thread, at any time: right away by a returning handler, or minutes later for a
/// deferred method. A call dropped without an answer is answered with `org.freedesktop.DBus.Error.Failed`, so a caller
/// never waits for nothing.
public final class DBusMethodCall: Sendable {
    /// The unique name of the calling connection.
    public let sender: String
    /// The object path called.
    public let path: DBusObjectPath
    /// The interface named by the caller (resolved when the caller left it out).
    public let interface: String
    /// The method name.
    public let member: String
    /// The arguments, already checked against the method's input signature.
    public let arguments: [DBusValue]

    let replySerial: UInt32
    let expectsReply: Bool
    let outputSignature: String
    private let answered = Mutex(false)
    private let send: @Sendable (Answer) -> Void

    enum Answer: Sendable {
        case values([DBusValue])
        case failure(DBusFailure)
        /// A reply already built and checked (``reply(_:)-(DBusDictionaryList)``).
        case message(OutgoingMessage)
    }

    init(
        sender: String, path: DBusObjectPath, interface: String, member: String, arguments: [DBusValue],
        replySerial: UInt32, expectsReply: Bool, outputSignature: String, send: @escaping @Sendable (Answer) -> Void
    ) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
        self.replySerial = replySerial
        self.expectsReply = expectsReply
        self.outputSignature = outputSignature
        self.send = send
    }

    deinit {
        if !isAnswered {
            send(
                .failure(
                    DBusFailure(
                        name: DBusFailure.Name.failed, message: "\(interface).\(member) finished without an answer")))
        }
    }

    /// Whether the call has been answered.
    public var isAnswered: Bool { answered.withLock { $0 } }

    /// Answers with `values`, which must match the method's output signature; a mismatch is answered with
    /// `org.freedesktop.DBus.Error.Failed` naming both signatures, never sent malformed. Later answers are ignored.
    ///
    /// The reply is marshalled on the calling thread before this returns; the connection's thread only sends it.
    public func reply(_ values: [DBusValue]) {
        let actual = values.map(\.signatureText).joined()
        if actual != outputSignature {
            answer(
                .failure(
                    DBusFailure(
                        name: DBusFailure.Name.failed,
                        message:
                            "\(interface).\(member) produced a reply of signature '\(actual)' where '\(outputSignature)' "
                            + "is declared")))
            return
        }
        answer(.values(values))
    }

    /// Answers with a list of dictionaries written in wire form, for a method whose output is one `aa{sv}`.
    ///
    /// libdbus checks the whole message before it is sent, as it checks what it receives; when the check fails, the
    /// call is left unanswered and this throws, so that the caller can answer it value by value instead.
    ///
    /// - Throws: ``DBusFailure`` (`InvalidArgs`) when the method's output is not `aa{sv}` or the list is not valid.
    public func reply(_ list: DBusDictionaryList) throws(DBusFailure) {
        guard outputSignature == "aa{sv}" else {
            throw .invalidArgs(
                "\(interface).\(member) declares a reply of signature '\(outputSignature)', not 'aa{sv}'")
        }
        let message = try ConnectionCore.makeMethodReturn(
            signature: outputSignature, body: list.body, serial: replySerial, to: sender)
        if !answer(.message(OutgoingMessage(message))) { OutgoingMessage(message).release() }
    }

    /// Answers with typed values.
    public func reply(with values: any DBusArgument...) {
        reply(values.map(\.dbusValue))
    }

    /// Answers with an error. Later answers are ignored.
    public func fail(_ failure: DBusFailure) {
        answer(.failure(failure))
    }

    /// Answers with an error of the given name and message.
    public func fail(name: String, message: String) {
        fail(DBusFailure(name: name, message: message))
    }

    /// Sends `answer` unless the call was answered before; returns whether it was sent.
    @discardableResult
    private func answer(_ answer: Answer) -> Bool {
        let first = answered.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        if first { send(answer) }
        return first
    }
}
