import DBusTestSupport
import Foundation

/// The `Notify` calls on the test's bus, as `busctl monitor` prints them: what the harness needs to press an action of
/// a server that takes actions by position (SwayNotificationCenter 0.11's `LatestInvokeAction`), not by label.
final class NotifyWatch: Sendable {
    private let process: ChildProcess
    private let log: URL

    /// Starts watching every message on the bus of `environment`.
    static func start(in folder: URL, environment: [String: String]) throws -> NotifyWatch {
        let log = folder.appendingPathComponent("notify-watch.json")
        let output = open(log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(output) }
        let process = try ChildProcess.spawn(
            ["busctl", "--user", "monitor", "--json=short"], environment: environment, standardOutput: output,
            standardError: open("/dev/null", O_WRONLY))
        return NotifyWatch(process: process, log: log)
    }

    private init(process: ChildProcess, log: URL) {
        self.process = process
        self.log = log
    }

    /// The labels of the actions the newest `Notify` with `summary` sent, in order, leaving out the body click
    /// (`default`) and the inline reply, which a server does not count among its buttons; waits until the server has
    /// answered that call, so that the notification is its newest.
    func buttons(of summary: String, within limit: Duration = .seconds(15)) async throws -> [String] {
        try await withTimeout(limit, waitingFor: "a Notify call with the summary '\(summary)'") {
            while true {
                if let actions = self.newestActions(of: summary) {
                    return stride(from: 0, to: actions.count - 1, by: 2)
                        .filter { !["default", "inline-reply"].contains(actions[$0]) }
                        .map { actions[$0 + 1] }
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    private func newestActions(of summary: String) -> [String]? {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let messages = text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        for (index, message) in messages.enumerated().reversed() {
            guard message["member"] as? String == "Notify", message["type"] as? String == "method_call",
                let data = (message["payload"] as? [String: Any])?["data"] as? [Any], data.count == 8,
                data[3] as? String == summary, let cookie = message["cookie"] as? Int
            else { continue }
            let answered = messages[(index + 1)...].contains {
                $0["type"] as? String == "method_return" && $0["reply_cookie"] as? Int == cookie
                    && $0["destination"] as? String == message["sender"] as? String
            }
            return answered ? data[5] as? [String] : nil
        }
        return nil
    }

    func stop() {
        process.stop(grace: .seconds(1))
    }
}
