import DBusCore
import Glibc
import Logging
import NotificationModel
import Synchronization

/// The conversation with `org.freedesktop.Notifications` for one client: posting (`Notify`), closing, the server's
/// signals, the prompt for typed text, expiries the server does not report, and posting again after the server
/// restarts.
///
/// The session owns everything it says to the server and everything the server says back: the encoder, the router of
/// the server's signals, the notifications on the server and the server's identity. Its owner (the apps'
/// `DesktopNotificationCenter`, or the daemon) keeps the categories and decides where responses go; it reads one
/// ordered stream, ``events``.
///
/// - The server's signals and the changes of owner of its name are read by one loop, in the order the bus delivered
///   them (see ``ServerBusNews``).
/// - Each notification remembers the server that took it, from the sender of the `Notify` reply; a signal from
///   another connection is not about it, and a close or a replacement is addressed to that server alone, so that an
///   id of a server that has left never touches a notification of the one that replaced it.
/// - The operations on one notification happen one at a time, in the order they were asked for (``Turn``): a
///   replacement or a withdrawal asked while its `Notify` is out acts on the id the server gives.
/// - A `Notify` that the server answers after ``Configuration/serverTimeout`` has failed for the caller: the session
///   closes the notification on the server when the answer comes, so nothing stays on the screen that nobody follows.
///
/// Its work runs in ``run()``: the loop of the bus's news, open prompts, the calls that may outlive their caller. The
/// owner runs it for as long as it uses the session; cancelling it ends every piece and finishes ``events``.
package actor NotificationServerSession {
    /// How a session presents notifications and how long it waits for the server.
    package struct Configuration: Sendable {
        /// Where destructive actions go and how they are marked.
        package var rendering: NotificationRendering
        /// A command that asks for typed text where the server has no inline reply; `nil` uses the first of zenity,
        /// kdialog and yad found.
        package var promptCommand: [String]?
        /// Where zenity, kdialog and yad are looked for, `PATH` syntax; `nil` uses this process's `PATH`.
        package var promptSearchPath: String?
        /// How long the server may take to answer a call before it fails with `NoReply`.
        package var serverTimeout: Duration
        /// Whether the session starts when no server answers (it then waits for one); when `false`, the initializer
        /// throws.
        package var startsWithoutServer: Bool
        /// Where the session logs.
        package var logger: Logger

        /// Makes a configuration.
        package init(
            rendering: NotificationRendering = .init(), promptCommand: [String]? = nil,
            promptSearchPath: String? = nil, serverTimeout: Duration = .seconds(10), startsWithoutServer: Bool = false,
            logger: Logger = Logger(label: "io.github.NotificationBridge")
        ) {
            self.rendering = rendering
            self.promptCommand = promptCommand
            self.promptSearchPath = promptSearchPath
            self.serverTimeout = serverTimeout
            self.startsWithoutServer = startsWithoutServer
            self.logger = logger
        }
    }

    /// A reserved place in the line of operations on one notification (see ``reserveTurn(for:)``).
    package struct Turn: Sendable, Hashable {
        /// The notification's id.
        package let id: String
        let ticket: UInt64
    }

    /// Where a notification went: the server's id for it, and the unique bus name of the server that took it.
    package struct Placement: Sendable, Hashable {
        /// The server's id.
        package var serverID: UInt32
        /// The unique name of the server's connection.
        package var server: String
    }

    /// What ``serverInformation()`` reports while no server has answered: empty names, no capabilities.
    package static let noServer = NotificationServerInfo(
        name: "", vendor: "", version: "", specVersion: "", capabilities: [])

    let configuration: Configuration
    var logger: Logger { configuration.logger }
    /// The connection that posts and listens.
    package nonisolated let connection: DBusConnection
    let client: NotificationServerClient
    var serverInfo: NotificationServerInfo {
        didSet { serverCopy.withLock { $0.info = serverInfo } }
    }
    /// The server as the session knows it, for readers that do not wait for the session (``latestServerInformation``,
    /// ``currentServer``): changed with the properties, before the event that reports the change.
    private nonisolated let serverCopy: Mutex<(info: NotificationServerInfo, owner: String?, isAvailable: Bool)>
    /// Whether a server has answered and has not left the bus since.
    package internal(set) var isServerAvailable: Bool {
        didSet { serverCopy.withLock { $0.isAvailable = isServerAvailable } }
    }
    /// The unique name of the owner of the notification name, as the session last heard; `nil` while nobody owns it.
    package internal(set) var serverOwner: String? {
        didSet { serverCopy.withLock { $0.owner = serverOwner } }
    }
    /// The unique name of the process that shows the notifications, where the server names one apart from itself.
    var displayOwner: String?
    var encoder: NotifyEncoder
    var router = ResponseRouter()
    /// `Notify` calls whose reply has not been read yet, by ticket: how many signals the session had taken in when
    /// each was sent.
    var notifiesInFlight: [Int: UInt64] = [:]
    /// The server ids that a `Notify` out takes over for another notification (``post(_:category:id:hints:turn:inPlaceOf:)``),
    /// by ticket: until its answer says whether the server kept the id, a signal about it may be about either one.
    var takingOver: [Int: UInt32] = [:]
    /// The ticket of the next `Notify`.
    var nextNotifyTicket = 0
    /// How many signals the session has taken in: orders them against the `Notify` calls out.
    var signalsTakenIn: UInt64 = 0
    /// Signals about server ids not followed yet, held while a `Notify` sent before them is in flight: a server may act
    /// on a notification, or close it, before the session has read the id it returned.
    var earlySignals: [HeldSignal] = []
    /// `CloseNotification` calls out at once: a withdrawal of thousands sends them in turn, within the bus's bound on
    /// the replies one connection may wait for.
    var closeSlots = CallSlots(limit: 32)
    /// `Notify` calls whose caller waits for the answer, oldest first, each with the time it is due.
    var awaitedAnswers: [AwaitedAnswer] = []
    /// Whether a task fails the awaited answers that come too late (see ``awaitedAnswers``).
    var isWatchingAnswers = false
    /// Notifications whose `Notify` is out, with how many: a server that takes the name meanwhile may not be the one
    /// that answers, and then they are posted again to it.
    var postingIDs: [String: Int] = [:]
    /// Prompts open, by notification id.
    var openPrompts: [String: Int] = [:]
    /// Whether ``run()`` runs: until it does, a `Notify` goes on in a task of its own, not as a job.
    var isRunning = false
    /// Whether ``run()`` is ending: a re-posting to a new server stops before its next `Notify`.
    var isStopping = false
    /// Counts the servers that took the name, so that a re-posting for one stops when another arrives.
    var generation = 0
    let turns = NotificationTurns()
    let prompt: TextPrompt
    /// This process's id, sent with every `Notify` (`sender-pid`).
    let processID = Int64(getpid())

    /// What happens, in order (see ``SessionEvent``); finished when ``run()`` ends.
    package nonisolated let events: AsyncStream<SessionEvent>
    let eventSink: AsyncStream<SessionEvent>.Continuation
    /// Work that outlives the call that started it, run as children of ``run()``.
    let work: AsyncStream<@Sendable () async -> Void>.Continuation
    private let jobs: AsyncStream<@Sendable () async -> Void>
    private let bus: ServerBusNews.Subscription

    /// Opens a session on `connection`: subscribes to the server's signals and its name's owner, and reads the
    /// server's information.
    ///
    /// - Throws: `DBusFailure` when the bus refuses the subscriptions, or when no server answers and
    ///   ``Configuration/startsWithoutServer`` is false.
    package init(connection: DBusConnection, configuration: Configuration) async throws {
        self.connection = connection
        self.configuration = configuration
        client = NotificationServerClient(connection: connection, timeout: configuration.serverTimeout)
        prompt = TextPrompt(command: configuration.promptCommand, searchPath: configuration.promptSearchPath)
        bus = try await ServerBusNews.Subscription(connection: connection)
        // Read after subscribing, so that a change in between comes through the news.
        let owner = try? await connection.nameOwner(of: NotificationServerClient.busName)
        var info = Self.noServer
        var available = false
        do {
            info = try await client.serverInfo()
            available = true
        } catch let failure as DBusFailure {
            guard configuration.startsWithoutServer else { throw Self.noServerFailure(failure) }
            configuration.logger.warning(
                "no notification server answers yet; waiting for one", metadata: ["error": "\(failure.message)"])
        }
        serverOwner = owner
        serverCopy = Mutex((info, owner, available))
        serverInfo = info
        isServerAvailable = available
        router.server = info
        encoder = NotifyEncoder(server: info, rendering: configuration.rendering, promptAvailable: prompt.isAvailable)
        (events, eventSink) = AsyncStream.makeStream(of: SessionEvent.self)
        (jobs, work) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
        if available { _ = await displayKeptNotifications() }
        configuration.logger.debug(
            "notification server", metadata: ["server.name": "\(info.name)", "server.version": "\(info.version)"])
    }

    /// Runs the session's work until ``finish()`` or the calling task is cancelled: the loop of the bus's news, and the
    /// jobs that outlive their caller. Then lets the `Notify` calls out end (within the server's timeout), ends the
    /// rest, and finishes ``events``.
    package func run() async {
        isRunning = true
        defer { isRunning = false }
        let news = bus.news
        await withDiscardingTaskGroup { group in
            group.addTask { [weak self] in
                for await item in news {
                    guard let self else { return }
                    await self.handle(item)
                }
            }
            for await job in jobs { group.addTask(operation: job) }
            await notifiesEnded(within: configuration.serverTimeout)
            group.cancelAll()
        }
        bus.finish()
        eventSink.finish()
    }

    /// Lets the `Notify` calls out end before the work is cancelled, for at most `limit`, and starts no more: one cut
    /// off loses its answer, and a notification the server has taken (one posted again to a new server, which the
    /// daemon records as shown there when the answer is reported) would stay on the screen with nobody following it.
    private func notifiesEnded(within limit: Duration) async {
        isStopping = true
        let deadline = ContinuousClock.now + limit
        // At the end only, and a few round trips at most: looked at again every few milliseconds.
        while !notifiesInFlight.isEmpty, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Stops taking work: ``run()`` returns once the work under way has ended.
    package nonisolated func finish() {
        work.finish()
        bus.finish()
    }

    private func handle(_ news: ServerBusNews) async {
        switch news {
        case .signal(let signal): await process(signal)
        case .owner(let owner): await serverOwnerChanged(owner)
        }
    }

    // MARK: Server

    /// The server's name, version and capabilities (``noServer`` while none has answered).
    package func serverInformation() -> NotificationServerInfo { serverInfo }

    /// The same, read without waiting for the session: what it knew a moment ago.
    package nonisolated var latestServerInformation: NotificationServerInfo { serverCopy.withLock { $0.info } }

    /// The server the session posts to, read without waiting for the session: the owner of the name (`nil` for
    /// none), with its information once it has answered (`nil` before). It is never older than the last event read
    /// from ``events``: a change after it comes as ``SessionEvent/serverChanged(owner:)`` and
    /// ``SessionEvent/serverReady(owner:info:)``, and one reported already may still be read there.
    package nonisolated var currentServer: (owner: String?, info: NotificationServerInfo?) {
        serverCopy.withLock { known in
            // Between a change of owner and the new server's answer, the information is `noServer`.
            (known.owner, known.isAvailable && known.info != Self.noServer ? known.info : nil)
        }
    }

    /// How a text-input action is shown on the current server.
    package func textInputRendering(for action: NotificationAction) -> TextInputRendering {
        encoder.textInputRendering(for: action)
    }

    /// The program that asks for typed text where the server has no inline reply, or `nil` when none is found.
    package nonisolated var promptProgram: String? { prompt.programName }

    /// Whether the prompt can be shown.
    package nonisolated var isPromptAvailable: Bool { prompt.isAvailable }

    /// How long the server may take to answer a call.
    package nonisolated var serverTimeout: Duration { configuration.serverTimeout }

    /// The rendering choices in force.
    package nonisolated var rendering: NotificationRendering { configuration.rendering }

    static func noServerFailure(_ failure: DBusFailure) -> DBusFailure {
        DBusFailure(
            name: failure.name,
            message: "no notification server answered on the session bus (\(failure.message)); start one, "
                + "such as dunst, xfce4-notifyd or the desktop's own")
    }

    /// Asks the server for its information again when none had answered yet.
    ///
    /// - Throws: `DBusFailure` saying that no notification server runs, when it still does not answer.
    func ensureServer() async throws {
        guard !isServerAvailable else { return }
        do {
            // The name's owner first: the server that answers below is that one or a later one, never an earlier.
            let owner = try await connection.nameOwner(of: NotificationServerClient.busName)
            let info = try await client.serverInfo()
            guard !isServerAvailable else { return }
            serverInfo = info
            serverOwner = owner
            encoder.server = info
            router.server = info
            isServerAvailable = true
            if let owner { eventSink.yield(.serverReady(owner: owner, info: info)) }
        } catch let failure as DBusFailure {
            throw Self.noServerFailure(failure)
        }
    }
}
