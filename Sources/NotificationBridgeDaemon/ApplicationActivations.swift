import DBusCore
import Logging
import NotificationBridge
import NotificationBridgeAPI

/// Hands responses to apps with `org.freedesktop.Application.ActivateAction`, one at a time, in the order they came.
///
/// A call may take long (the app is started by D-Bus activation), so it runs here rather than in the path that reads
/// the notification server's signals.
final class ApplicationActivations: Sendable {
    private struct Job: Sendable {
        let desktopEntry: String
        let action: String
        let response: BridgeResponse
    }

    private let continuation: AsyncStream<Job>.Continuation
    private let jobs: AsyncStream<Job>
    private let activator: AppActivator
    private let logger: Logger

    init(activator: AppActivator, logger: Logger) {
        (jobs, continuation) = AsyncStream.makeStream(of: Job.self)
        self.activator = activator
        self.logger = logger
    }

    /// Hands the queued responses over, one at a time, until ``finish()`` or cancellation (which drops the rest: the
    /// daemon is shutting down).
    func run() async {
        for await job in jobs {
            guard !Task.isCancelled else { return }
            do {
                // One parameter, the response dictionary, so that any GLib version hands it to the action whole.
                try await activator.activateAction(
                    desktopEntry: job.desktopEntry, action: job.action, parameters: [job.response.dictionary],
                    token: job.response.activationToken)
                logger.debug(
                    "app action activated",
                    metadata: [
                        "notification.id": "\(job.response.notificationID)", "app.desktop-entry": "\(job.desktopEntry)",
                        "app.action": "\(job.action)",
                    ])
            } catch {
                logger.warning(
                    "cannot hand the response to the app",
                    metadata: [
                        "notification.id": "\(job.response.notificationID)", "error": "\(error)",
                    ])
            }
        }
    }

    /// Queues one activation.
    func activate(desktopEntry: String, action: String, response: BridgeResponse) {
        continuation.yield(Job(desktopEntry: desktopEntry, action: action, response: response))
    }

    /// Takes no more activations; ``run()`` returns once the queued ones are handed over.
    func finish() {
        continuation.finish()
    }
}
