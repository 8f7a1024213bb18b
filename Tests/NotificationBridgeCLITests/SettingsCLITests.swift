import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// `notification-bridge settings`: the user silences, demotes or hides one app's notifications from the command line.
@Suite("notification-bridge settings")
struct SettingsCLITests {
    @Test("--deny and --style change an app's settings; its next send is refused and says how to allow it")
    func denyThenSend() async throws {
        try await CLIFixture.with { fixture in
            let changed = try await fixture.cli(["settings", "Mail", "--deny", "--style", "alert", "--sound", "off"])
            #expect(changed.status == 0, "\(changed.standardError)")
            let lines = changed.output.split(separator: "\n").map(String.init)
            #expect(lines.contains("allowed: no"), "\(changed.output)")
            #expect(lines.contains("style: alert"), "\(changed.output)")
            #expect(lines.contains("sound: off"), "\(changed.output)")
            #expect(lines.contains("kept in: the bridge's settings file"), "\(changed.output)")

            let sent = try await fixture.cli(["send", "-a", "Mail", "Ann", "Lunch?"])
            #expect(sent.status == 1)
            #expect(sent.standardError.contains("notification-bridge settings Mail --allow"), "\(sent.standardError)")

            let allowed = try await fixture.cli(["settings", "Mail", "--allow"])
            #expect(allowed.status == 0, "\(allowed.standardError)")
            let again = try await fixture.cli(["send", "-a", "Mail", "Ann", "Lunch?"])
            #expect(again.status == 0, "\(again.standardError)")
            let shown = try await fixture.nextNotification()
            #expect(shown.expireTimeout == 0, "alert: stays until acted on")
            #expect(shown.hints["suppress-sound"]?.unwrappedVariant == .boolean(true))
        }
    }

    @Test("--critical-alerts: the default is said in words until set, then on or off, in text and --json")
    func criticalAlerts() async throws {
        try await CLIFixture.with { fixture in
            let before = try await fixture.cli(["settings", "Pager"])
            #expect(before.status == 0, "\(before.standardError)")
            #expect(
                before.output.contains(
                    "\(SettingsKeys.critical.name): default (on for a host program, off for a sandboxed app)"),
                "\(before.output)")
            let json = try await fixture.cli(["settings", "Pager", "--json"])
            let unset = try #require(try parsedJSON(json.output) as? [String: Any])
            #expect(unset[SettingsKeys.critical.name] == nil, "absent while the default holds")

            let off = try await fixture.cli(["settings", "Pager", "--\(SettingsKeys.critical.name)", "off"])
            #expect(off.status == 0, "\(off.standardError)")
            #expect(off.output.contains("\(SettingsKeys.critical.name): off"), "\(off.output)")
            let set = try await fixture.cli(["settings", "Pager", "--json"])
            let object = try #require(try parsedJSON(set.output) as? [String: Any])
            #expect(object[SettingsKeys.critical.name] as? Bool == false)

            let wrong = try await fixture.cli(["settings", "Pager", "--\(SettingsKeys.critical.name)", "yes"])
            #expect(wrong.status != 0)
            #expect(wrong.standardError.contains("takes on or off, not 'yes'"), "\(wrong.standardError)")
        }
    }

    @Test("without an app: every app that posted, in text and --json, after do-not-disturb")
    func listing() async throws {
        try await CLIFixture.with { fixture in
            #expect(try await fixture.cli(["send", "-a", "Builds", "Build 41 passed"]).status == 0)
            #expect(
                try await fixture.cli(["settings", "Mail", "--badge", "off", "--lock-screen", "private"]).status == 0)
            #expect(try await fixture.cli(["settings", "--do-not-disturb", "on"]).status == 0)

            let text = try await fixture.cli(["settings"])
            #expect(text.status == 0, "\(text.standardError)")
            #expect(
                text.output.split(separator: "\n").map(String.init) == [
                    "do-not-disturb\ton\t(the bridge's settings file)",
                    "Builds\tallowed\tstyle banner\tsound on\tbadge on\tlock-screen show\ttime-sensitive off",
                    "Mail\tallowed\tstyle banner\tsound on\tbadge off\tlock-screen private\ttime-sensitive off",
                ])

            let json = try await fixture.cli(["settings", "--json"])
            #expect(json.status == 0, "\(json.standardError)")
            let object = try #require(try parsedJSON(json.output) as? [String: Any])
            #expect(object[SettingsKeys.doNotDisturb.name] as? Bool == true)
            #expect(object[SettingsKeys.source.name] as? String == "file")
            let apps = try #require(object["apps"] as? [[String: Any]])
            #expect(apps.compactMap { $0[SettingsKeys.app.name] as? String } == ["Builds", "Mail"])
            #expect(apps.last?[SettingsKeys.badge.name] as? Bool == false)
            #expect(apps.last?[SettingsKeys.lockScreen.name] as? String == "private")
        }
    }

    @Test("--time-sensitive on lets the app's send --level time-sensitive through do-not-disturb; doctor shows it")
    func timeSensitive() async throws {
        try await CLIFixture.with { fixture in
            #expect(try await fixture.cli(["settings", "--do-not-disturb", "on"]).status == 0)
            let held = try await fixture.cli(["send", "-a", "Door", "--level", "time-sensitive", "Courier"])
            #expect(held.status == 1)
            #expect(held.standardError.contains("do-not-disturb is on"), "\(held.standardError)")

            let allowed = try await fixture.cli(["settings", "Door", "--time-sensitive", "on"])
            #expect(allowed.status == 0, "\(allowed.standardError)")
            #expect(allowed.output.split(separator: "\n").contains("time-sensitive: on"), "\(allowed.output)")
            let sent = try await fixture.cli(["send", "-a", "Door", "--level", "time-sensitive", "Courier"])
            #expect(sent.status == 0, "\(sent.standardError)")
            #expect(try await fixture.nextNotification().summary == "Courier")
            let critical = try await fixture.cli(["send", "-a", "Smoke", "--interruption-level", "critical", "Fire"])
            #expect(critical.status == 0, "\(critical.standardError)")
            #expect(try await fixture.nextNotification().summary == "Fire")

            let doctor = try await fixture.cli(["doctor", "--json", "--app", "Door"])
            let report = try #require(try parsedJSON(doctor.output) as? [String: Any], "\(doctor.output)")
            let settings = try #require(report["settings"] as? [String: Any], "\(report)")
            #expect(settings[SettingsKeys.timeSensitive.name] as? String == "on")
            let problems = report["problems"] as? [String] ?? []
            #expect(problems.contains { $0.contains("this app's time-sensitive ones") }, "\(problems)")

            let off = try await fixture.cli(["settings", "Door", "--time-sensitive", "off", "--json"])
            let object = try #require(try parsedJSON(off.output) as? [String: Any], "\(off.output)")
            #expect(object[SettingsKeys.timeSensitive.name] as? Bool == false)
            let bad = try await fixture.cli(["send", "--level", "loud", "Hi"])
            #expect(bad.status == 2)
            #expect(bad.standardError.contains("passive, active, time-sensitive or critical"), "\(bad.standardError)")
        }
    }

    @Test("invalid settings are usage errors that name the option and what it takes")
    func invalidSettings() async throws {
        try await CLIFixture.with { fixture in
            let style = try await fixture.cli(["settings", "Mail", "--style", "loud"])
            #expect(style.status == 2)
            #expect(
                style.standardError.contains("--style takes alert, banner or none, not 'loud'"),
                "\(style.standardError)")
            let sound = try await fixture.cli(["settings", "Mail", "--sound", "maybe"])
            #expect(sound.status == 2)
            #expect(sound.standardError.contains("--sound takes on or off"), "\(sound.standardError)")
            let both = try await fixture.cli(["settings", "Mail", "--allow", "--deny"])
            #expect(both.status == 2)
            let noApp = try await fixture.cli(["settings", "--deny"])
            #expect(noApp.status == 2)
            #expect(noApp.standardError.contains("name the app"), "\(noApp.standardError)")
        }
    }
}
