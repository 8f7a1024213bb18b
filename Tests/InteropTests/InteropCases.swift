import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

/// The cases each real server runs, as its user would meet them: the pointer on the server's own buttons (dunst's
/// menu), the bridge's CLI waiting for the answer.
extension InteropRun {
    /// Typed text with what breaks shells, markup and encodings: it must come back exactly as it was typed.
    static let trickyText = "He said \"hi\" & 'bye' $(id) `id` <b>bold</b> a\\b é ✓ 🦊"

    func everyCase() async {
        await expectations.run("categories") { try await addCategories() }
        await expectations.run("background action") { try await backgroundActionWithTheServersCategoryHint() }
        await expectations.run("dismissal") { try await dismissal() }
        if let gnome { await expectations.run("passive level") { try await passiveLevel(on: gnome) } }
        if gnome == nil {
            await expectations.run("expiry") { try await expiry() }
        } else {
            expectations.notRun("expiry", because: "GNOME Shell ignores expire_timeout: the notification stays")
        }
        if let gnome { await expectations.run("activation token") { try await activationToken(on: gnome) } }
        await expectations.run("cancelled prompt") { try await cancelledPrompt() }
        await expectations.run("typed text") { try await typedText() }
        await expectations.run("server restart") { try await serverRestart() }
        await expectations.run("daemon restart") { try await daemonRestart() }
        if dunst != nil || gnome != nil {
            await expectations.run("a thread of twenty") { try await thread() }
        } else {
            expectations.notRun("a thread of twenty", because: "run on dunst and GNOME Shell, the two kinds of server")
        }
        await expectations.run("snooze button") { try await snooze() }
        if PlasmaSession.isPlasma(server), let desktop {
            await expectations.run("identical notifications") { try await identicalNotifications(on: desktop) }
        }
        if turnsDoNotDisturb {
            await expectations.run("desktop do-not-disturb") { try await doNotDisturb() }
            await expectations.run("focus mode and the desktop's switch") { try await focusWithDesktopSwitch() }
        } else {
            expectations.notRun(
                "desktop do-not-disturb",
                because: "the harness cannot turn this server's do-not-disturb on, or the bridge cannot read it")
        }
    }

    func addCategories() async throws {
        let mail = try await cli([
            "category", "add", "mail", "-A", "delete=Delete,background,destructive", "-A", "archive=Archive,background",
            "-A", "open=Open,foreground", "-A", "later=Later,background", "--reports-dismissal",
        ])
        expectations.check(mail.status == 0, "category add mail: \(mail.standardError)")
        let chat = try await cli([
            "category", "add", "chat", "-A", "reply=Reply,text-input=Send", "-A", "mute=Mute,background",
        ])
        expectations.check(chat.status == 0, "category add chat: \(chat.standardError)")
    }

    /// The bridge's category beside the server's own category hint; Archive chosen. On lxqt-notificationd, whose combo
    /// box preselects its first entry, a plain OK must not choose Delete: the bridge lists it last there.
    func backgroundActionWithTheServersCategoryHint() async throws {
        let answer = waiting(["Ann", "Lunch at noon?", "--category", "mail", "-c", "email.arrived"])
        if let desktop {
            let first = try await desktop.widget("the bridge's notification") {
                ($0.role == "push button" || $0.role == "combo box") && ["Archive", "Delete"].contains($0.name)
            }
            try await desktop.screenshot(to: Interop.artifacts.appendingPathComponent("\(server.name).png").path)
            if first.role == "combo box" {
                expectations.check(first.name != "Delete", "the combo box preselects the destructive action")
                try await desktop.clickButton("OK")
            } else {
                try await desktop.clickButton("Archive")
            }
        } else if let dunst {
            try await awaitDunstShowing()
            try await DesktopSession.screenshot(
                of: environment, to: Interop.artifacts.appendingPathComponent("\(server.name).png").path)
            try await dunst.invoke(actionLabel: "Archive", until: Finished.watching(answer))
            print("interop: dunst's menu: \(dunst.lastMenu)")
        } else if let gnome {
            try await threeButtons(on: gnome)
            try await gnome.press("Archive", on: "Ann")
        } else if let sway {
            try await awaitSwayShowing("Ann")
            try await sway.screenshot(to: Interop.artifacts.appendingPathComponent("\(server.name).png").path)
            try await chooseOnSway("Archive", on: "Ann")
        }
        let result = try await answer.value
        expectations.check(result.status == 0, "send --wait exited \(result.status): \(result.standardError)")
        let action = response(result)?[ResponseKeys.action.name] as? String
        expectations.check(action == "archive", "the answer is \(action ?? "none"), not archive: \(result.output)")
    }

    /// The close button (the body, on xfce4-notifyd; `dunstctl close` on dunst) gives `dismiss`, whatever reason the
    /// server gives.
    func dismissal() async throws {
        let answer = waiting(["Bob", "Closing this one", "--category", "mail", "--timeout", "0"])
        if let desktop {
            let summary = try await desktop.widget("the summary 'Bob'") { $0.role == "label" && $0.name == "Bob" }
            let close = try? await desktop.widget("a close button", within: .seconds(2)) {
                $0.role == "push button" && ($0.name.isEmpty || $0.name == "x" || $0.name == "Close")
                    && abs($0.y - summary.y) < 40
            }
            try await desktop.click(close ?? summary)
        } else if let gnome {
            try await gnome.closeBanner("Bob")
        } else if sway != nil {
            try await dismissOnSway("Bob")
        } else {
            try await awaitDunstShowing()
            let closed = try await ProcessRunner.run(["dunstctl", "close"], environment: environment)
            expectations.check(closed.status == 0, "dunstctl close: \(closed.standardError)")
        }
        let result = try await answer.value
        expectations.check(result.status == 0, "send --wait exited \(result.status): \(result.standardError)")
        let action = response(result)?[ResponseKeys.action.name] as? String
        expectations.check(action == "dismiss", "the answer is \(action ?? "none"), not dismiss: \(result.output)")
    }

    /// A notification left alone expires: `--wait` ends with the closed status, never hangs.
    func expiry() async throws {
        // The pointer left on a bubble holds its timeout on mate and notification-daemon: move it away, as a user
        // who is not looking would.
        if let desktop {
            _ = try await ProcessRunner.run(["xdotool", "mousemove", "0", "0"], environment: desktop.environment)
        }
        let result = try await cli(
            ["send", "Brief", "Gone soon", "--timeout", "1500", "--wait"], timeout: .seconds(20))
        expectations.check(result.status == 3, "send --wait exited \(result.status), not 3: \(result.standardError)")
    }

    /// Reply chosen, then the prompt cancelled: the notification is over, and `send --wait` says so with status 3.
    func cancelledPrompt() async throws {
        if PlasmaSession.isPlasma(server), let desktop { return try await cancelledInlineReply(on: desktop) }
        try? FileManager.default.removeItem(at: promptAnswer)
        let answer = waiting(["Cat", "Dinner?", "--category", "chat", "--timeout", "0"])
        try await choose("Reply", on: "Cat", until: answer)
        let result = try await answer.value
        expectations.check(
            result.status == 3, "send --wait exited \(result.status), not 3: \(result.output) \(result.standardError)")
    }

    /// Reply chosen and text typed at the prompt: `send --wait` prints it byte for byte.
    func typedText() async throws {
        if PlasmaSession.isPlasma(server), let desktop { return try await typedInlineReply(on: desktop) }
        try Data(Self.trickyText.utf8).write(to: promptAnswer)
        defer { try? FileManager.default.removeItem(at: promptAnswer) }
        let answer = waiting(["Dan", "Your order?", "--category", "chat", "--timeout", "0"])
        try await choose("Reply", on: "Dan", until: answer)
        checkReplied(try await answer.value)
    }

    /// The server restarts while a notification is outstanding: the bridge shows it again, and a click on it still
    /// answers `send --wait`.
    func serverRestart() async throws {
        if let gnome { return try await notificationServiceRestart(on: gnome) }
        let answer = waiting(["Eve", "Still there?", "--category", "chat", "--timeout", "0"])
        try await awaitShown("Eve")
        try await restartServer()
        try await choose("Mute", on: "Eve", until: answer)
        let result = try await answer.value
        expectations.check(result.status == 0, "send --wait exited \(result.status): \(result.standardError)")
        let action = response(result)?[ResponseKeys.action.name] as? String
        expectations.check(action == "mute", "the answer is \(action ?? "none"), not mute: \(result.output)")
    }

    /// The daemon is killed (SIGKILL) and started again while a notification is outstanding: the user's choice on it
    /// still answers `wait ID`, on servers that send their signals to the poster alone (dunst) too.
    func daemonRestart() async throws {
        let sent = try await cli(["send", "Fay", "Back soon?", "--category", "chat", "--timeout", "0", "--print-id"])
        expectations.check(sent.status == 0, "send exited \(sent.status): \(sent.standardError)")
        let id = sent.output.trimmingCharacters(in: .whitespacesAndNewlines)
        try await awaitShown("Fay")
        if let gnome {
            // The restarted daemon closes GNOME Shell's copy and shows it anew (the center's `showAgain`): the button to press
            // is the new copy's, not the old one's, which may still be up for a moment.
            try await gnome.markNotifications()
            try await restartDaemon()
            try await withTimeout(.seconds(20), waitingFor: "the restarted daemon to show 'Fay' again") {
                while try await !gnome.postedSinceMark().contains("Fay") {
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
        } else {
            try await restartDaemon()
        }
        let answer = Task { try await self.cli(["wait", id, "--json"], timeout: .seconds(60)) }
        try await choose("Mute", on: "Fay", until: answer)
        let result = try await answer.value
        expectations.check(result.status == 0, "wait exited \(result.status): \(result.standardError)")
        let action = response(result)?[ResponseKeys.action.name] as? String
        expectations.check(action == "mute", "the answer is \(action ?? "none"), not mute: \(result.output)")
    }

    // MARK: The user's hand

    /// Waits until the notification whose summary is `summary` is on the screen.
    func awaitShown(_ summary: String) async throws {
        if let desktop {
            _ = try await desktop.widget("'\(summary)' on the screen", within: .seconds(20)) {
                $0.role == "label" && $0.name == summary
            }
        } else if dunst != nil {
            try await awaitDunstShowing()
        } else if let gnome {
            _ = try await gnome.awaitBanner(summary)
        } else {
            try await awaitSwayShowing(summary)
        }
    }

    /// Picks the action labelled `label` on the notification whose summary is `summary`: its button, or its line in
    /// dunst's menu, until `answer` has ended.
    func choose(
        _ label: String, on summary: String, until answer: Task<ProcessResult, any Error>
    ) async throws {
        try await press(label, on: summary, until: Finished.watching(answer))
    }

    /// Picks the action labelled `label` on the notification whose summary is `summary`; dunst's menu is opened
    /// again until `done` says the choice was heard.
    func press(_ label: String, on summary: String, until done: @escaping @Sendable () async -> Bool) async throws {
        if let desktop {
            let bubble = try await desktop.widget("the summary '\(summary)'") {
                $0.role == "label" && $0.name == summary
            }
            try await desktop.clickButton(label, near: bubble)
        } else if let dunst {
            try await dunst.invoke(actionLabel: label, until: done)
        } else if let gnome {
            try await gnome.press(label, on: summary)
        } else if sway != nil {
            try await chooseOnSway(label, on: summary)
        }
    }

    /// Waits until dunst has drawn at least one notification.
    private func awaitDunstShowing() async throws {
        try await withTimeout(.seconds(10), waitingFor: "dunst to show the notification") {
            while true {
                let count = try await ProcessRunner.run(
                    ["dunstctl", "count", "displayed"], environment: self.environment)
                if let shown = Int(count.output.trimmingCharacters(in: .whitespaces)), shown > 0 { return }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Checks that `send --wait --json` ended with the "reply" action and the tricky text, byte for byte.
    func checkReplied(_ result: ProcessResult) {
        expectations.check(result.status == 0, "send --wait exited \(result.status): \(result.standardError)")
        let fields = response(result)
        expectations.check(fields?[ResponseKeys.action.name] as? String == "reply", "no reply: \(result.output)")
        let text = fields?[ResponseKeys.text.name] as? String
        expectations.check(
            text.map { Array($0.utf8) } == Array(Self.trickyText.utf8),
            "the text came back as \(text.map { "\"\($0)\"" } ?? "nothing"), not \"\(Self.trickyText)\"")
    }

    /// The JSON object `send --wait --json` printed, or `nil` when it printed none.
    func response(_ result: ProcessResult) -> [String: Any]? {
        let lines = result.output.split(separator: "\n").map(String.init)
        for candidate in [result.output] + lines.reversed() {
            if let object = try? JSONSerialization.jsonObject(with: Data(candidate.utf8)) as? [String: Any] {
                return object
            }
        }
        return nil
    }
}

/// Whether a waiting command has ended: dunst's menu is opened again until it has.
actor Finished {
    private(set) var isSet = false
    func set() { isSet = true }

    /// A check that says whether `task` has ended, without waiting for it.
    static func watching(_ task: Task<ProcessResult, any Error>) -> @Sendable () async -> Bool {
        let finished = Finished()
        Task {
            _ = try? await task.value
            await finished.set()
        }
        return { await finished.isSet }
    }
}
