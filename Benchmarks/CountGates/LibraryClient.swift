import DBusCore
import Foundation
import NotificationBridge
import NotificationModel

/// The process the library's gates count: an app on the session bus that makes a center and posts `count`
/// notifications through it, one after the other. With `dispatch`, each is of a category whose action `open` the
/// gates' notification server clicks as soon as it shows the notification; the next is posted once the handler ran.
enum LibraryClient {
    /// The app name the gates' server looks for to click `open`.
    static let dispatchAppName = "GateDispatch"
    static let categoryID = "gate"
    static let actionID = "open"

    static func run(count: Int, dispatch: Bool) async throws {
        let connection = try await DBusConnection.connect(to: .session)
        var configuration = DesktopNotificationCenter.Configuration(
            appName: dispatch ? dispatchAppName : "GatePost", activatesApplications: false)
        configuration.settingsLocation = .file
        let home = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? NSTemporaryDirectory()
        configuration.settingsDirectory = home + "/notification-bridge"
        let center = try await DesktopNotificationCenter(connection: connection, systemConnection: nil, configuration)
        // The center's work (the server's signals reach its handlers there) runs in its run(), as in an app.
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await center.run() }
            let open = NotificationAction(id: actionID, title: "Open", activation: .background)
            try await center.setNotificationCategories([NotificationCategory(id: categoryID, actions: [open])])
            let (handled, handledContinuation) = AsyncStream.makeStream(of: Void.self)
            await center.setHandler(forAction: actionID, inCategory: categoryID) { _ in
                handledContinuation.yield()
            }
            var content = NotificationContent(title: "Gate", body: "a notification from the gates")
            if dispatch { content.categoryID = categoryID }
            var responses = handled.makeAsyncIterator()
            for _ in 0..<count {
                try await center.post(content)
                if dispatch {
                    // Bounded by the gates, which end this process if it does not finish in time.
                    guard await responses.next() != nil else { throw GateError("the handler's stream ended") }
                }
            }
            group.cancelAll()
        }
        await connection.close()
    }
}
