import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// `notification-bridge doctor` against each known server's profile, with and without a prompt program and a
/// display in the daemon's environment; and the daemon's refusal of a prompt command that cannot run.
@Suite("doctor")
struct DoctorTests {
    /// A folder holding a program named `name` that prints a reply, to put on the daemon's `PATH`.
    static func folder(withProgram name: String?) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nb-doctor-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let name {
            let path = folder.appendingPathComponent(name).path
            FileManager.default.createFile(
                atPath: path, contents: Data("#!/bin/sh\necho typed\n".utf8), attributes: [.posixPermissions: 0o755])
        }
        return folder
    }

    /// The daemon's environment: programs only from `folder`, and `display` as its display.
    static func daemonEnvironment(programs folder: URL, display: String?) -> [String: String] {
        ["PATH": folder.path, "DISPLAY": display ?? "", "WAYLAND_DISPLAY": ""]
    }

    /// Runs `doctor --json` on the fixture's bus and reads the object.
    static func doctor(_ fixture: CLIFixture) async throws -> (status: Int32, report: [String: Any]) {
        let result = try await fixture.cli(["doctor", "--json"])
        let report = try #require(
            try parsedJSON(result.output) as? [String: Any], "\(result.output) \(result.standardError)")
        return (result.status, report)
    }

    @Test(
        "each known server: its name, capabilities and quirks; zenity found but no display is a problem",
        arguments: NotificationServerProfile.presets.map(\.name))
    func knownServers(_ name: String) async throws {
        let profile = try #require(NotificationServerProfile.preset(named: name))
        let programs = try Self.folder(withProgram: "zenity")
        defer { try? FileManager.default.removeItem(at: programs) }
        try await CLIFixture.with(profile, daemonEnvironment: Self.daemonEnvironment(programs: programs, display: nil))
        {
            fixture in
            let (status, report) = try await Self.doctor(fixture)
            let daemon = try #require(report["daemon"] as? [String: Any])
            #expect(daemon["running"] as? Bool == true)
            #expect(daemon["started-by"] as? String == "hand (a command line)", "\(daemon)")
            let server = try #require(report["server"] as? [String: Any], "\(report)")
            #expect(server["name"] as? String == profile.serverName)
            #expect(server["version"] as? String == profile.version)
            #expect(Set(server["capabilities"] as? [String] ?? []) == Set(profile.capabilities))
            let quirks = server["quirks"] as? [String] ?? []
            if ["gnome-shell", "gnome-shell-43"].contains(name) {
                #expect(quirks.contains { $0.contains("at most 3 buttons") }, "\(quirks)")
            }
            if name == "lxqt-notificationd" { #expect(quirks.contains { $0.contains("preselects") }, "\(quirks)") }
            if name == "full" || name == "dunst" { #expect(quirks.isEmpty, "\(quirks)") }

            let actions = try #require(report["actions"] as? [String: Any])
            let hasInlineReply = profile.capabilities.contains("inline-reply")
            #expect(actions["inline-reply"] as? Bool == hasInlineReply)
            #expect(actions["buttons"] as? Bool == profile.capabilities.contains("actions"))
            #expect(actions["prompt-program"] as? String == "zenity")
            #expect(actions["prompt-available"] as? Bool == false, "zenity cannot open a window without a display")
            let textInput = actions["text-input"] as? [String: String] ?? [:]
            #expect(!textInput.values.contains("prompt"), "capabilities do not promise a prompt it cannot show")
            let problems = report["problems"] as? [String] ?? []
            if hasInlineReply {
                #expect(!problems.contains { $0.contains("cannot show a window") }, "\(problems)")
            } else {
                #expect(problems.contains { $0.contains("zenity cannot show a window") }, "\(problems)")
                #expect(status == 1, "a problem found")
            }
        }
    }

    @Test("dunst with zenity and a display: the prompt asks; no problem, exit 0; plain text says so")
    func promptWithDisplay() async throws {
        let programs = try Self.folder(withProgram: "zenity")
        defer { try? FileManager.default.removeItem(at: programs) }
        try await CLIFixture.with(.dunst, daemonEnvironment: Self.daemonEnvironment(programs: programs, display: ":99"))
        {
            fixture in
            let (status, report) = try await Self.doctor(fixture)
            let actions = try #require(report["actions"] as? [String: Any])
            #expect(actions["prompt-available"] as? Bool == true)
            #expect(actions["prompt-display"] as? String == ":99")
            #expect((actions["text-input"] as? [String: String])?.values.allSatisfy { $0 == "prompt" } == true)
            #expect(report["problems"] as? [String] == [], "\(report)")
            #expect(status == 0)

            let plain = try await fixture.cli(["doctor"])
            #expect(plain.status == 0, "\(plain.standardError)")
            #expect(plain.output.contains("server: dunst"), "\(plain.output)")
            #expect(plain.output.contains("prompt program: zenity, can ask (display :99)"), "\(plain.output)")
            #expect(plain.output.contains("no problems found"), "\(plain.output)")
            #expect(report[ServerInformationKeys.caller.name] as? String == "a host process", "\(report)")
            #expect(plain.output.contains("caller: a host process"), "\(plain.output)")
            #expect(plain.output.contains("focus mode: none"), "\(plain.output)")
            #expect((report["focus"] as? [String: Any])?[FocusKeys.name.name] as? String == "", "\(report)")
        }
    }

    @Test(
        "a shell the daemon cannot identify (a sandbox whose /.flatpak-info names no app): doctor fails and says why",
        .enabled(if: FlatpakSandbox.unavailableReason == nil, "\(FlatpakSandbox.unavailableReason ?? "")"))
    func unidentifiedCaller() async throws {
        try await CLIFixture.with(.dunst) { fixture in
            let sandbox = try await FlatpakSandbox.start(
                appID: "unnamed", on: fixture.bus, talk: [BridgeAPI.busName], flatpakInfo: "[Instance]\nbranch=x\n")
            defer { sandbox.stop() }
            let cli = URL(fileURLWithPath: try await BuiltPrograms.path(of: "notification-bridge"))
            let result = try await sandbox.run(
                [cli.path, "doctor", "--json"], exposing: try await FlatpakSandbox.foldersNeeded(by: cli))
            let report = try #require(
                try parsedJSON(result.output) as? [String: Any], "\(result.output) \(result.standardError)")
            let caller = report[ServerInformationKeys.caller.name] as? String ?? ""
            #expect(caller.hasPrefix("a Flatpak app that could not be identified"), "\(report)")
            let problems = report["problems"] as? [String] ?? []
            #expect(problems.contains { $0.contains("refuses its posts") }, "\(problems)")
            #expect(result.status == 1, "a problem found")
        }
    }

    @Test("dunst with no prompt program: typed replies cannot be asked for, and doctor says what to install")
    func noPromptProgram() async throws {
        let programs = try Self.folder(withProgram: nil)
        defer { try? FileManager.default.removeItem(at: programs) }
        try await CLIFixture.with(.dunst, daemonEnvironment: Self.daemonEnvironment(programs: programs, display: ":99"))
        {
            fixture in
            let (status, report) = try await Self.doctor(fixture)
            let actions = try #require(report["actions"] as? [String: Any])
            #expect(actions["prompt-program"] is NSNull)
            let problems = report["problems"] as? [String] ?? []
            #expect(problems.contains { $0.contains("install zenity, kdialog or yad") }, "\(problems)")
            #expect(status == 1)
        }
    }

    @Test("a configured prompt command needs no display; an app's settings are shown and a denied app is a problem")
    func promptCommandAndSettings() async throws {
        let programs = try Self.folder(withProgram: "my-prompt")
        defer { try? FileManager.default.removeItem(at: programs) }
        let command = programs.appendingPathComponent("my-prompt").path
        try await CLIFixture.with(
            .dunst, daemonArguments: ["--prompt-command", command],
            daemonEnvironment: Self.daemonEnvironment(programs: programs, display: nil)
        ) { fixture in
            #expect(try await fixture.cli(["settings", "Mail", "--deny"]).status == 0)
            let result = try await fixture.cli(["doctor", "--json", "--app", "Mail"])
            let report = try #require(try parsedJSON(result.output) as? [String: Any], "\(result.output)")
            let actions = try #require(report["actions"] as? [String: Any])
            #expect(actions["prompt-available"] as? Bool == true)
            let settings = try #require(report["settings"] as? [String: Any], "\(report)")
            #expect(settings[SettingsKeys.allowed.name] as? String == "no")
            let problems = report["problems"] as? [String] ?? []
            #expect(problems.contains { $0.contains("notification-bridge settings Mail --allow") }, "\(problems)")
            #expect(result.status == 1)
        }
    }

    @Test("doctor tells whether the notify-send on PATH is this bridge")
    func notifySendOnPath() async throws {
        try await CLIFixture.with { fixture in
            let link = try await NotifySendPrograms.bridge()
            for (folder, isBridge) in [
                (URL(fileURLWithPath: link).deletingLastPathComponent().path, true), ("/usr/bin", false),
            ] {
                var environment = fixture.environment
                environment["PATH"] = folder
                let result = try await ProcessRunner.run(
                    [try await BuiltPrograms.path(of: "notification-bridge"), "doctor", "--json"],
                    environment: environment)
                let report = try #require(try parsedJSON(result.output) as? [String: Any], "\(result.output)")
                let notifySend = report["notify-send"] as? [String: Any]
                if isBridge || NotifySendPrograms.realNotifySend == "/usr/bin/notify-send" {
                    #expect(notifySend?["path"] as? String == folder + "/notify-send", "\(report)")
                    #expect(notifySend?["is-bridge"] as? Bool == isBridge, "\(report)")
                }
            }
        }
    }

    @Test("no notification server: doctor says so, and what to start")
    func noServer() async throws {
        try await CLIFixture.with(.dunst) { fixture in
            // The server's process exits.
            await fixture.serverConnection.close()
            // The daemon hears of the server leaving through the bus: ask until it has.
            let plain = try await withTimeout(waitingFor: "doctor to see that the server has gone") {
                while true {
                    let result = try await fixture.cli(["doctor"])
                    if result.output.contains("server: none") { return result }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            #expect(plain.status == 1)
            #expect(plain.output.contains("no notification server runs on the session bus: start"), "\(plain.output)")
        }
    }

    @Test("the daemon refuses a prompt command that cannot run: exit 2, the option named, what to do")
    func daemonRefusesMissingPromptCommand() async throws {
        let daemon = try await BuiltPrograms.path(of: "notification-bridged")
        let result = try await ProcessRunner.run(
            [daemon, "--prompt-command", "/nonexistent/prompt"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus", "PATH": "/usr/bin:/bin"],
            timeout: .seconds(20))
        #expect(result.status == 2, "\(result.standardError)")
        #expect(
            result.standardError.contains("--prompt-command '/nonexistent/prompt' is not an executable file"),
            "\(result.standardError)")
        #expect(result.standardError.contains("leave the option out"), "\(result.standardError)")
    }
}
