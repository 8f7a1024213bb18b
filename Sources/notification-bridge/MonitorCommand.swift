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
        let connection = client.connection
        let signals = try await connection.signals(matching: BridgeProxy.signals())
        let owners = try await connection.nameOwnerChanges(of: BridgeAPI.busName)
        try await attach(client)
        // On standard error, so that standard output holds responses only.
        printError("notification-bridge: monitoring the responses of \(appName) (Ctrl-C stops)")
        let appName = self.appName
        let foreground = self.foreground
        // The daemon forgets an attachment when it stops; a new daemon gets it again.
        let reattaching = Task {
            for await owner in owners where owner != nil {
                _ = try? await client.proxy.attach(appName: appName, foreground: foreground)
            }
        }
        defer { reattaching.cancel() }
        for await signal in signals {
            switch signal.member {
            case "Responded":
                guard signal.arguments.count == 3, let id = signal.arguments[0].stringValue,
                    let action = signal.arguments[1].stringValue
                else { continue }
                let response = Response(id: id, action: action, dictionary: signal.arguments[2])
                if output.json {
                    Output.printJSON(response.json)
                } else {
                    print(([id, action] + (response.text.map { [Self.escaped($0)] } ?? [])).joined(separator: "\t"))
                }
            case "Fired":
                guard signal.arguments.count == 2, let id = signal.arguments[0].stringValue else { continue }
                if output.json {
                    guard case .object(var members) = Output.json(signal.arguments[1]) else { continue }
                    members["fired"] = .bool(true)
                    Output.printJSON(.object(members))
                } else {
                    let title = ListedNotification(signal.arguments[1])?.title ?? ""
                    print("fired\t\(id)\t\(Self.escaped(title))")
                }
            default:
                continue
            }
            // A pipe is block-buffered: each response goes out as it comes (nil flushes every output stream).
            fflush(nil)
        }
        throw CLIFailure(
            "notification-bridge: the connection to the session bus closed; monitor stopped (start it "
                + "again once the session bus is back)")
    }

    private func attach(_ client: BridgeClient) async throws {
        do {
            try await client.call("Attach") { try await $0.attach(appName: appName, foreground: foreground) }
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
