import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

/// The cases that only GNOME Shell has: its three buttons, and its notification service restarting on its own.
extension InteropRun {
    /// A four-action category without a minimal set shows three buttons, the most GNOME Shell shows, with Archive and
    /// Open among them. The screenshot shows the banner expanded, as under the pointer.
    func threeButtons(on gnome: GnomeShellSession) async throws {
        let shown = try await gnome.awaitBanner("Ann")
        try await gnome.expand("Ann")
        try await gnome.screenshot(to: Interop.artifacts.appendingPathComponent("\(server.name).png").path)
        expectations.check(
            shown.buttons.count == 3 && shown.buttons.contains("Archive") && shown.buttons.contains("Open"),
            "the banner shows the buttons \(shown.buttons), not three with Archive and Open")
    }

    /// A passive notification goes into the message tray without a banner: the bridge sends it with urgency low,
    /// for which the shell shows none.
    func passiveLevel(on gnome: GnomeShellSession) async throws {
        let sent = try await cli(["send", "--level", "passive", "Album ready", "42 photos"])
        expectations.check(sent.status == 0, "send --level passive: \(sent.standardError)")
        for look in ["once it is listed", "a second later"] {
            let shown = try await withTimeout(.seconds(20), waitingFor: "the shell to list 'Album ready'") {
                while true {
                    let shown = try await gnome.shown()
                    if shown.notifications.contains("Album ready") { return shown }
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            expectations.check(
                shown.banner != "Album ready" && !shown.queue.contains("Album ready"),
                "\(look), the passive notification is shown or queued as a banner: \(shown)")
            try await Task.sleep(for: .seconds(1))
        }
    }

    /// The gjs notification service alone restarts while a notification is outstanding: the shell keeps its copy on
    /// the screen. The bridge must not show a second one, and Mute on the banner the user sees must answer
    /// `send --wait`.
    func notificationServiceRestart(on gnome: GnomeShellSession) async throws {
        let answer = waiting(["Eve", "Still there?", "--category", "chat", "--timeout", "0"])
        try await gnome.awaitBanner("Eve")
        try await gnome.markNotifications()
        try await restartServer()
        // The bridge takes in the new service and posts what is outstanding to it.
        let posted = try await withTimeout(.seconds(20), waitingFor: "the bridge to post 'Eve' to the new service") {
            while true {
                let posted = try await gnome.postedSinceMark()
                if !posted.isEmpty { return posted }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        let shown = try await gnome.shown()
        let copies = shown.notifications.filter { $0 == "Eve" }.count
        expectations.check(copies == 1, "the shell holds \(copies) notifications 'Eve' (posted again: \(posted))")
        try await gnome.press("Mute", on: "Eve")
        let result = try await withTimeout(.seconds(20), waitingFor: "send --wait to end after Mute") {
            try await answer.value
        }
        expectations.check(result.status == 0, "send --wait exited \(result.status): \(result.standardError)")
        let action = response(result)?[ResponseKeys.action.name] as? String
        expectations.check(action == "mute", "the answer is \(action ?? "none"), not mute: \(result.output)")
        // A copy left behind would keep the banner for the cases after this one.
        for _ in 1..<max(copies, 1) { try? await gnome.closeBanner("Eve") }
    }

    /// A foreground action (Open) answers `send --wait` with GNOME Shell's activation token when the notification's
    /// desktop entry names an installed app, and without one when it names none: the shell makes the token through
    /// the app it finds. GNOME Shell 43 sends none for either.
    func activationToken(on gnome: GnomeShellSession) async throws {
        let installed = ["org.gnome.Settings", "org.gnome.Shell.Extensions", "org.gnome.Shell"].first {
            FileManager.default.fileExists(atPath: "/usr/share/applications/\($0).desktop")
        }
        guard let installed else { throw TestSupportError("no GNOME desktop entry is installed to name") }
        let tokens = DebianRelease.current.gnomeShellSendsActivationTokens
        for (entry, summary, expectsToken) in [(installed, "Token", tokens), ("no.such.app", "No token", false)] {
            let answer = waiting([summary, "Open me", "--category", "mail", "--desktop-entry", entry])
            try await gnome.press("Open", on: summary)
            let result = try await withTimeout(.seconds(20), waitingFor: "send --wait to end after Open") {
                try await answer.value
            }
            let fields = response(result)
            expectations.check(
                fields?[ResponseKeys.action.name] as? String == "open", "the answer is not open: \(result.output)")
            let token = fields?[ResponseKeys.activationToken.name] as? String ?? ""
            expectations.check(
                token.isEmpty != expectsToken,
                "desktop entry \(entry): " + (expectsToken ? "no activation token" : "an activation token '\(token)'")
                    + " in \(result.output)")
        }
    }
}
