import DBusCore
import DBusTestSupport
import Foundation
import NotificationServerKit
import Testing

/// More of notify-send's behaviour, compared with the real one where it has the option, and libnotify's newer
/// options (`-n`, `--id-fd`, `--selected-action-fd`, `--activation-token-fd`), which Debian's 0.8.1 lacks, against
/// their documented meaning.
@Suite(
    "notify-send options",
    .enabled(
        if: NotifySendPrograms.realNotifySend != nil, "notify-send is not installed; make test installs libnotify-bin"))
struct NotifySendOptionsTests {
    typealias Run = NotifySendCompatibilityTests.Run
    typealias NotifyCall = NotifySendCompatibilityTests.NotifyCall

    @Test("-A on a server without actions: notify-send's message, shown without buttons, no wait, failure")
    func serverWithoutActions() async throws {
        var profile = NotificationServerProfile.fullFeatured
        profile.capabilities.removeAll { $0 == "actions" }
        try await CLIFixture.with(profile) { fixture in
            var runs: [Run] = []
            for program in [try NotifySendPrograms.real(), try await NotifySendPrograms.bridge()] {
                runs.append(
                    try await NotifySendCompatibilityTests.run(
                        program, ["-A", "yes=Yes", "No buttons here"], on: fixture, notifies: true))
            }
            let (real, bridge) = (runs[0], runs[1])
            #expect(real.result.status != 0 && bridge.result.status != 0, "\(real) \(bridge)")
            #expect(bridge.result.standardError == real.result.standardError, "\(real) \(bridge)")
            #expect(bridge.notify.map(NotifyCall.init) == real.notify.map(NotifyCall.init), "\(real) \(bridge)")
        }
    }

    @Test("-A default=Label is the click on the body, and its name is printed")
    func defaultAction() async throws {
        try await CLIFixture.with { fixture in
            var runs: [Run] = []
            for program in [try NotifySendPrograms.real(), try await NotifySendPrograms.bridge()] {
                async let result = ProcessRunner.run(
                    [program, "-A", "default=Open", "Click me"], environment: fixture.environment)
                let shown = try await fixture.nextNotification()
                try await fixture.server.invokeAction(id: shown.id, key: "default")
                runs.append(Run(result: try await result, notify: shown))
            }
            let (real, bridge) = (runs[0], runs[1])
            #expect(bridge.notify.map(NotifyCall.init) == real.notify.map(NotifyCall.init), "\(real) \(bridge)")
            #expect(
                real.result.standardOutput == "default\n" && bridge.result.standardOutput == "default\n",
                "\(real) \(bridge)")
        }
    }

    @Test("-n names the app's icon and -i becomes the image; the fd options write the id, the action and the token")
    func newerOptions() async throws {
        try await CLIFixture.with { fixture in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nb-fds-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let bridge = try await NotifySendPrograms.bridge()
            let script = """
                exec "$0" -p -n mail-app -i /tmp/photo.png --id-fd=3 --selected-action-fd=4 --activation-token-fd=5 \
                -A reply=Reply "New mail" 3>"$1/id" 4>"$1/action" 5>"$1/token"
                """
            async let result = ProcessRunner.run(
                ["/bin/sh", "-c", script, bridge, folder.path], environment: fixture.environment)
            let shown = try await fixture.nextNotification()
            #expect(shown.icon == "mail-app")
            #expect(shown.imagePath == "/tmp/photo.png")
            try await fixture.server.invokeAction(id: shown.id, key: "reply", activationToken: "token-42")
            let finished = try await result
            #expect(finished.status == 0, "\(finished.standardError)")
            let lines = finished.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.count == 2 && lines.last == "reply", "-p's id, then the action: \(lines)")
            let read = { (name: String) in try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            }
            #expect(try read("id") == lines.first.map { $0 + "\n" }, "the id -p printed")
            #expect(try read("action") == "reply\n")
            #expect(try read("token") == "token-42\n")
        }
    }
}
