/// Where notify-send shows its notification: the notification server (``NotifySendFreedesktop``), or the desktop
/// portal inside a sandbox (``NotifySendPortal``), as libnotify picks between them.
protocol NotifySendServer: Sendable {
    /// The action the server reports for a click on the body of a notification that has no such action.
    var clickKey: String { get }

    /// Whether the server shows actions.
    ///
    /// - Throws: The bus's failure.
    func supportsActions() async throws -> Bool

    /// The server's signals from now on, as events of the notification they are about; subscribe before ``show(_:)``
    /// so that none is missed.
    ///
    /// - Throws: The bus's failure.
    func signals() async throws -> AsyncStream<NotifySendServerSignal>

    /// Shows `notification` and returns how it is known from then on.
    ///
    /// - Throws: What kept it from being shown; its message follows "Failed to show notification: ".
    func show(_ notification: NotifySendNotification) async throws -> NotifySendShown

    /// Closes the notification `shown`; a failure (it may have closed already) is ignored, as libnotify ignores it.
    func close(_ shown: NotifySendShown) async
}

/// A notification notify-send showed.
struct NotifySendShown: Sendable, Equatable {
    /// The id `-p` and `--id-fd` print, and `-r` takes back.
    var printedID: Int32
    /// The name the server's signals give it (the server's id in decimal, or the portal's notification id).
    var key: String
}

/// What one signal of the server means for one notification.
struct NotifySendServerSignal: Sendable, Equatable {
    /// The notification it is about, as ``NotifySendShown/key``.
    var notification: String
    /// What happened to it, in order.
    var events: [NotifySendWait.Event]
}

/// Why a notification could not be shown, in words that follow "Failed to show notification: ".
struct NotifySendShowFailure: Error, Equatable {
    var message: String
}
