import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// The shell and `gdbus` examples of the README, `docs/` and the manual pages, run as they are written: each in a
/// fresh private bus, daemon, notification server and home folder of its own, so none depends on another having run.
/// What the user does on the server (choose an action, type a reply) is the runner's part; what the example then
/// prints must be what the document shows.
@Suite("the documentation's examples")
struct DocumentedExampleTests {
    /// Every example block of the documents.
    static let examples: [DocumentedExample] = (try? DocumentedExamples.all()) ?? []
    /// The examples that run.
    static let runnable = examples.filter { $0.name != nil }

    @Test("every shell block of the documents is marked, and every marked example has a runner")
    func everyBlockIsCovered() throws {
        let examples = try DocumentedExamples.all()
        let documents = try DocumentedExamples.documents()
        #expect(!examples.isEmpty, "no example found in \(documents)")
        for example in examples {
            switch example.marker {
            case .missing:
                let message =
                    "\(example): a shell block without a marker; put '<!-- example: NAME -->' (or "
                    + "'.\\\" example: NAME' in a manual page) before it and add NAME to ExampleRunner.all"
                Issue.record(Comment(rawValue: message))
            case .notRun(let reason):
                #expect(
                    DocumentedExamples.onlyBuildsOrInstalls(example.script),
                    "\(example): only build and install commands may be left unrun ('\(reason)'); run this one")
            case .example(let name):
                #expect(ExampleRunner.all[name] != nil, "\(example): no runner named '\(name)' in ExampleRunner.all")
            }
        }
        let used = Set(examples.compactMap(\.name))
        for name in ExampleRunner.all.keys where !used.contains(name) {
            Issue.record("ExampleRunner.all has '\(name)', which no document shows any more; remove it")
        }
    }

    @Test("the example runs as written and prints what the document shows", arguments: runnable)
    func run(_ example: DocumentedExample) async throws {
        let name = try #require(example.name)
        let runner = try #require(ExampleRunner.all[name], "no runner for \(name)")
        try await CLIFixture.with(runner.profile, timeZone: "Europe/Berlin") { fixture in
            let watcher = try await fixture.bus.connect()
            let departures = try await watcher.signals(
                matching: DBusMatchRule(
                    sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                    member: "NameOwnerChanged")
            ) { signal -> String? in
                guard signal.arguments.count == 3, case .string(let name) = signal.arguments[0], name.hasPrefix(":"),
                    signal.arguments[2] == .string("")
                else { return nil }
                return name
            }
            async let running = fixture.sh(example.script, timeout: .seconds(40))
            var shown: ServedNotification?
            if runner.user != .nothing || runner.showsNotification {
                let notification = try await fixture.nextNotification()
                shown = notification
                if runner.waitsForPosterToLeave {
                    // As a person would answer: after the posting command has returned and left the bus (a response
                    // while the poster is connected goes to the poster alone).
                    _ = try await departures.first(waitingFor: "the posting command to leave the bus")
                }
                try await runner.user.act(on: notification, server: fixture.server)
            }
            let result = try await running
            await watcher.close()
            #expect(result.status == 0, "\(example) exited with \(result.status): \(result.standardError)")
            #expect(result.standardError.isEmpty, "\(example) wrote to standard error: \(result.standardError)")
            if let shownOutput = example.shownOutput {
                #expect(
                    Self.normalized(result.output) == Self.normalized(shownOutput),
                    "\(example) printed\n\(result.output)\nwhere the document shows\n\(shownOutput)")
            }
            try await runner.check(ExampleRun(fixture: fixture, result: result, shown: shown))
        }
    }

    /// Output with every notification id (16 hexadecimal digits) replaced, since each run makes new ones.
    static func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: "[0-9a-f]{16}", with: "<id>", options: .regularExpression)
    }
}

/// What an example left behind, for its runner's own checks.
struct ExampleRun: Sendable {
    let fixture: CLIFixture
    let result: ProcessResult
    /// The notification the server showed, for runners that wait for one.
    let shown: ServedNotification?

    /// The text of a file under the example's home folder once it holds `expected` (a command the daemon started
    /// writes it a moment after the response); waits up to ten seconds.
    func homeFile(_ path: String, toHold expected: String) async throws -> String {
        let url = fixture.home.appendingPathComponent(path)
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            if text == expected || ContinuousClock.now >= deadline { return text }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

/// What the user does on the notification server while an example runs.
enum UserAct: Sendable, Equatable {
    case nothing
    /// Chooses the action with this key.
    case invoke(String)
    /// Chooses the action whose button has this label.
    case invokeLabelled(String)
    /// Types this text in the reply field (inline reply).
    case reply(String)

    func act(on notification: ServedNotification, server: NotificationServer) async throws {
        switch self {
        case .nothing: break
        case .invoke(let key): try await server.invokeAction(id: notification.id, key: key)
        case .invokeLabelled(let label):
            let action = try #require(notification.actions.first { $0.label == label }, "\(notification.actions)")
            try await server.invokeAction(id: notification.id, key: action.key)
        case .reply(let text): try await server.reply(id: notification.id, text: text)
        }
    }
}

/// How one named example runs: the server it runs against, what the user does, and what must hold afterwards beyond
/// the output the document shows.
struct ExampleRunner: Sendable {
    var profile: NotificationServerProfile = .plasma
    var user: UserAct = .nothing
    /// Whether the runner waits for the server to show a notification even though the user does nothing.
    var showsNotification = false
    /// Whether the user answers only once the command that posted has left the bus.
    var waitsForPosterToLeave = false
    var check: @Sendable (ExampleRun) async throws -> Void = { _ in }

    /// The runners, by the name the documents' markers give.
    static let all: [String: ExampleRunner] = cli.merging(gdbus) { first, _ in first }

    static let cli: [String: ExampleRunner] = [
        "cli-send": ExampleRunner(showsNotification: true) { run in
            #expect(run.shown?.summary == "Backup finished")
            #expect(run.shown?.body == "42 files copied")
            #expect(run.result.output.isEmpty)
        },
        "cli-wait": ExampleRunner(user: .invoke("open")) { run in
            #expect(run.shown?.actions.map(\.label) == ["Open", "Later"])
        },
        "cli-reply": ExampleRunner(user: .reply("Yes, 12:30")) { run in
            #expect(run.shown?.inlineReplyPlaceholder == "Your answer")
        },
        "cli-later": ExampleRunner { run in
            // One line: the id, when it fires in the reader's zone (the fixture's, Europe/Berlin), the title.
            let columns = run.result.output.split(separator: "\t").map(String.init)
            #expect(columns.count == 3 && columns.last == "Tea is ready", "\(run.result.output)")
            let format = DateFormatter()
            format.dateFormat = "yyyy-MM-dd HH:mm:ss"
            format.locale = Locale(identifier: "en_US_POSIX")
            format.timeZone = TimeZone(identifier: "Europe/Berlin")
            let wallClock = columns.count == 3 ? String(columns[1].prefix(19)) : ""
            #expect(
                columns.count == 3 && (columns[1].hasSuffix(" CET") || columns[1].hasSuffix(" CEST")), "\(columns)")
            let fireDate = try #require(format.date(from: wallClock), "\(columns)")
            let fromNow = fireDate.timeIntervalSinceNow
            #expect(fromNow > 200 && fromNow <= 241, "fires \(fromNow) s from now; the example asks for 4 minutes")
        },
        "cli-focus": ExampleRunner { run in
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.result.output.hasPrefix("sleep, on by hand, until 20"), "\(run.result.output)")
        },
        "cli-exec": ExampleRunner(user: .reply("Yes, 12:30")) { run in
            let written = try await run.homeFile("lunch-answers.txt", toHold: "answer: Yes, 12:30\n")
            #expect(written == "answer: Yes, 12:30\n", "~/lunch-answers.txt holds '\(written)'")
        },
        "cli-category": ExampleRunner(user: .reply("Yes, 12:30")) { run in
            #expect(run.shown?.appName == "Mail")
            #expect(run.shown?.actions.map(\.label).contains("Archive") == true, "\(String(describing: run.shown))")
            let object = try #require(try parsedJSON(run.result.output) as? [String: Any], "\(run.result.output)")
            #expect(object[ResponseKeys.action.name] as? String == "reply", "\(object)")
            #expect(object[ResponseKeys.text.name] as? String == "Yes, 12:30", "\(object)")
        },
        "cli-settings": ExampleRunner { run in
            #expect(run.result.output.contains("org.example.Mail"), "\(run.result.output)")
            #expect(run.result.output.contains("alert"), "\(run.result.output)")
        },
        "cli-every": ExampleRunner { run in
            #expect(run.result.output.isEmpty)
            let pending = try await run.fixture.cli(["list", "--pending", "-a", "Team"])
            #expect(pending.output.hasSuffix("\tStand-up"), "\(pending.output)")
        },
        "cli-alert": ExampleRunner(profile: .fullFeatured, user: .invokeLabelled("Move to Trash")) { run in
            #expect(run.result.output == "2\tMove to Trash")
        },
    ]

    static let gdbus: [String: ExampleRunner] = [
        "daemon-properties": ExampleRunner { run in
            let lines = run.result.output.split(separator: "\n").map(String.init)
            #expect(lines.first == "s \"\(BridgeAPI.version)\"", "\(run.result.output)")
            #expect(lines.count == 2 && lines[1].hasPrefix("s \"") && lines[1] != "s \"\"", "\(run.result.output)")
        },
        "gdbus-category": ExampleRunner(showsNotification: true) { run in
            #expect(run.shown?.actions.map(\.label) == ["Delete", "Archive"], "\(String(describing: run.shown))")
            #expect(run.result.output.hasPrefix("()\n('"), "\(run.result.output)")
        },
        "gdbus-weekdays": ExampleRunner { run in
            #expect(run.result.output.contains("'title': <'Stand-up'>"), "\(run.result.output)")
            // 09:00 in the fixture's zone, Europe/Berlin, is 08:00 or 07:00 in UTC.
            #expect(
                run.result.output.range(of: "T0[78]:00:00Z", options: .regularExpression) != nil,
                "the ISO 8601 fire date is not 09:00 in Berlin: \(run.result.output)")
        },
        "gdbus-settings": ExampleRunner { run in
            let lines = run.result.output.split(separator: "\n").map(String.init)
            #expect(lines.first == "()", "\(run.result.output)")
            #expect(run.result.output.contains("'style': <'alert'>"), "\(run.result.output)")
            #expect(run.result.output.contains("'sound': <false>"), "\(run.result.output)")
        },
        "terminal-version": ExampleRunner { run in
            #expect(run.result.output == "notification-terminal-server \(BridgeAPI.version)")
        },
        "gdbus-post": ExampleRunner(showsNotification: true) { run in
            #expect(run.shown?.summary == "Backup finished")
        },
        "gdbus-focus": ExampleRunner { run in
            let lines = run.result.output.split(separator: "\n").map(String.init)
            #expect(lines.first == "()", "\(run.result.output)")
            #expect(run.result.output.contains("'mode-name': <'sleep'>"), "\(run.result.output)")
            #expect(run.result.output.contains("'cause': <'manual'>"), "\(run.result.output)")
            #expect(lines.last == "()", "turned off: \(run.result.output)")
        },
        "gdbus-focus-schedule": ExampleRunner { run in
            let lines = run.result.output.split(separator: "\n").map(String.init)
            #expect(lines.first == "()", "\(run.result.output)")
            #expect(
                run.result.output.contains("'schedules': <['sun-thu 22:00-07:00', 'fri,sat 22:00-09:00']>"),
                "listed as set: \(run.result.output)")
        },
        "gdbus-reply": ExampleRunner(user: .reply("Yes, 12:30"), waitsForPosterToLeave: true),
        "gdbus-later": ExampleRunner { run in
            let output = run.result.output
            #expect(output.contains("'title': <'Tea is ready'>"), "\(output)")
            let iso = try #require(
                output.range(of: "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z", options: .regularExpression),
                "no ISO 8601 fire date in \(output)")
            let fireDate = try #require(ISO8601DateFormatter().date(from: String(output[iso])))
            let fromNow = fireDate.timeIntervalSinceNow
            #expect(fromNow > 200 && fromNow <= 241, "fires \(fromNow) s from now; the example asks for 240")
        },
        "gdbus-exec": ExampleRunner(user: .invoke("retry"), waitsForPosterToLeave: true) { run in
            let written = try await run.homeFile("build-choices.txt", toHold: "retry\n")
            #expect(written == "retry\n", "~/build-choices.txt holds '\(written)'")
        },
    ]
}
