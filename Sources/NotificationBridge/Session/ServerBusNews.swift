import DBusCore

/// What the bus says about the notification server, in the order it said it: the server's signals and the changes of
/// owner of its name, from one source.
///
/// Two streams read by two loops would lose that order: a loop could handle a late `NotificationClosed` of a server
/// that has already left after the news that another one took the name, and match it to a notification of the new
/// one. Both subscriptions feed one stream from the connection's thread, which delivers each message to the
/// subscriptions in turn before the next one, so the stream keeps the bus's order.
enum ServerBusNews: Sendable, Hashable {
    /// A signal of `org.freedesktop.Notifications`, from the owner of the name when the bus delivered it.
    case signal(ReceivedServerSignal)
    /// The name changed owner: the new owner's unique name, or `nil` when nobody owns it.
    case owner(String?)

    /// The subscriptions that feed one ordered stream: kept alive as long as the stream is read.
    final class Subscription: Sendable {
        /// The news, in the bus's order.
        let news: AsyncStream<ServerBusNews>
        // Never yield: their transforms feed `news`; they are kept so that the subscriptions stay.
        private let signals: AsyncStream<Never>
        private let owners: AsyncStream<Never>
        private let sink: AsyncStream<ServerBusNews>.Continuation

        /// Subscribes to the server's signals and to the owner changes of its name on `connection`.
        init(connection: DBusConnection) async throws {
            let (news, sink) = AsyncStream.makeStream(of: ServerBusNews.self, bufferingPolicy: .unbounded)
            self.news = news
            self.sink = sink
            owners = try await connection.signals(matching: Self.ownerRule) { signal -> Never? in
                guard signal.arguments.count == 3, case .string(let newOwner) = signal.arguments[2] else { return nil }
                sink.yield(.owner(newOwner.isEmpty ? nil : newOwner))
                return nil
            }
            signals = try await connection.signals(matching: Self.signalRule) { signal -> Never? in
                if let decoded = ServerSignal(signal) {
                    sink.yield(.signal(ReceivedServerSignal(signal: decoded, sender: signal.sender)))
                }
                return nil
            }
        }

        deinit { sink.finish() }

        /// Ends the stream of news.
        func finish() { sink.finish() }

        private static let ownerRule = DBusMatchRule(
            sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameOwnerChanged", arg0: NotificationServerClient.busName)

        private static let signalRule = DBusMatchRule(
            sender: NotificationServerClient.busName, path: NotificationServerClient.path,
            interface: NotificationServerClient.interface)
    }
}
