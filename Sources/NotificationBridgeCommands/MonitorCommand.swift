import ArgumentParser
import DBusCore
import NotificationBridgeAPI
import NotificationModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `monitor APP`: attaches as a running app and prints the responses to its notifications until interrupted.
struct MonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Print the responses to an app's notifications as they come, until interrupted.",
        discussion: """
            Attaches to notification-bridged as the running app APP (Attach), so that the responses to APP's \
            notifications whose poster has gone — those sent with `send` and no --wait, scheduled ones included — \
            come here. The most recently started monitor of an app gets them; only one place does. \
            One line per response: id, action and, for a text-input action, the typed text (tabs and newlines \
            escaped), separated by tabs; with --json one object per line (id, action, text, activation-token, \
            user-info). With --foreground the app counts as frontmost: its scheduled notifications are not shown \
            but printed here as they fire (`fired`, id, title; with --json an object with "fired": true). \
            Stop it with Ctrl-C. If notification-bridged restarts, it attaches again.
            """)

    @Argument(help: "The app name the notifications are posted under (send --app-name).")
    var appName: String

    @Flag(help: "Take the app's scheduled notifications instead of showing them (the app is frontmost).")
    var foreground = false

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let client = try await BridgeClient.connect()
        let attachment = try await attach(client)
        // On standard error, so that standard output holds responses only.
        printError("notification-bridge: monitoring the responses of \(appName) (Ctrl-C stops)")
        // The attachment attaches again after a restart of the daemon for as long as the responses are printed.
        await withDiscardingTaskGroup { group in
            group.addTask { await attachment.run() }
            for await event in attachment.events {
                switch event {
                case .responded(let response):
                    let printed = Response(
                        id: response.notificationID, action: response.actionID, dictionary: response.dictionary)
                    if output.json {
                        Output.printJSON(printed.json)
                    } else {
                        let text = response.text.map { [Self.escaped($0)] } ?? []
                        print(([response.notificationID, response.actionID] + text).joined(separator: "\t"))
                    }
                case .fired(let notification):
                    if output.json {
                        guard case .object(var members) = Output.json(.vardict(notification.entries)) else { continue }
                        members["fired"] = .bool(true)
                        Output.printJSON(.object(members))
                    } else {
                        print("fired\t\(notification.id)\t\(Self.escaped(notification.title))")
                    }
                case .closed, .settingsChanged, .desktopDoNotDisturbChanged:
                    continue
                }
                // A pipe is block-buffered: each response goes out as it comes (nil flushes every output stream).
                Terminal.current.flush()
            }
            group.cancelAll()
        }
        throw CLIFailure(
            "notification-bridge: the connection to the session bus closed; monitor stopped (start it "
                + "again once the session bus is back)")
    }

    /// Attaches as the app; the attachment attaches again when the daemon restarts, as a new daemon knows nothing of
    /// the old one's attachments.
    private func attach(_ client: BridgeClient) async throws -> BridgeAttachment {
        do {
            return try await client.call {
                try await BridgeAttachment(proxy: $0, appName: appName, foreground: foreground)
            }
        } catch let failure as CLIFailure where failure.message.contains("unknown method") {
            throw CLIFailure("notification-bridge: this notification-bridged cannot attach apps; update it")
        }
    }

    /// Text on one line: backslash, tab and newline escaped as `\\`, `\t`, `\n`.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result.append(character)
            }
        }
        return result
    }
}
