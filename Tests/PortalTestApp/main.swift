import Foundation
import NotificationBridge
import NotificationModel

// An app as its developer writes it, with nothing about sandboxes in it: it registers a category, posts one
// notification through DesktopNotificationCenter, prints where it went and the user's response, and exits. The tests
// run it with the environment of a Flatpak (`container=flatpak`), so the center chooses the portal by itself.
//
// With `--activated` it is the run that D-Bus activation starts when the user acts on a notification of an earlier
// run: it posts nothing, owns its app id (`FLATPAK_ID`, as Flatpak sets it), and prints the response it is given.

let open = NotificationAction(id: "open", title: "Open", activation: .foreground)
let archive = NotificationAction(id: "archive", title: "Archive", activation: .background)
let message = NotificationCategory(id: "message", actions: [archive, open])
let activated = CommandLine.arguments.contains("--activated")

/// Writes one line at once, unbuffered: the test reads it while the app runs.
func say(_ words: String...) {
    FileHandle.standardOutput.write(Data((words.joined(separator: " ") + "\n").utf8))
}

var configuration = DesktopNotificationCenter.Configuration(appName: "Mail")
if activated { configuration.activatableAppID = ProcessInfo.processInfo.environment["FLATPAK_ID"] }
let center = try await DesktopNotificationCenter.connect(configuration)
// The center's work runs beside the app's, in one task group, until the app cancels the group.
try await withThrowingDiscardingTaskGroup { group in
    group.addTask { await center.run() }
    try await center.setNotificationCategories([message])
    if activated {
        say("started", await center.serverInformation().name)
    } else {
        var content = NotificationContent(title: "Ann", body: "Lunch at 12?")
        content.categoryID = "message"
        content.userInfo = ["conversation": "t-42"]
        let id = try await center.post(content)
        say("posted", id, await center.serverInformation().name)
    }
    for await response in center.responses {
        say("response", response.notificationID, response.actionID, JSONValue.object(response.userInfo).jsonText)
        break
    }
    group.cancelAll()
}
