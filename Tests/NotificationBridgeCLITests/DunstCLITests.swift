import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

/// The built CLI and daemon against a real dunst under Xvfb: everything is done with `notification-bridge`, and the
/// user's choice is made in dunst's own context menu.
@Suite("notification-bridge with dunst")
struct DunstCLITests {
    @Test(
        "category add, server-info, send --wait answered in dunst's menu, list, withdraw: only the CLI",
        .enabled(if: Dunst.isInstalled, "dunst and Xvfb are needed: 'make test' installs them"))
    func dunst() async throws {
        try await withPrivateBus { bus in
            let dunst = try await Dunst.start(on: bus)
            defer { dunst.stop() }
            let environment = CLIFixture.environment(bus: bus, home: try CLIFixture.homeFolder(on: bus))
            let daemon = try await CLIFixture.startDaemon(on: bus, environment: environment)
            defer { _ = daemon.stop(grace: .seconds(5)) }
            func cli(_ arguments: [String]) async throws -> ProcessResult {
                try await CLIFixture.cli(arguments, environment: environment, timeout: .seconds(30))
            }

            let added = try await cli([
                "category", "add", "org.example.mail", "-A", "archive=Archive,background",
                "-A", "delete=Delete,background,destructive",
            ])
            #expect(added.status == 0, "\(added.standardError)")
            let info = try await cli(["capabilities", "--json"])
            #expect(info.status == 0, "\(info.standardError)")
            let object = try #require(try parsedJSON(info.output) as? [String: Any], "\(info.output)")
            #expect(object[ServerInformationKeys.serverName.name] as? String == "dunst")

            let answer = Answer()
            let waiting = Task {
                await answer.set(
                    try await cli([
                        "send", "Ann", "Lunch at noon?", "--category", "org.example.mail", "--user-info", "message=42",
                        "--wait", "--json",
                    ]))
            }
            try await dunst.invoke(actionLabel: "Archive", until: { await answer.result != nil })
            try await waiting.value
            let result = try #require(await answer.result)
            #expect(result.status == 0, "\(result.standardError); dunst: \(dunst.log)")
            let response = try #require(try parsedJSON(result.output) as? [String: Any], "\(result.output)")
            #expect(response[ResponseKeys.action.name] as? String == "archive")
            #expect((response[ResponseKeys.userInfo.name] as? [String: Any])?["message"] as? Double == 42)
            #expect(dunst.lastMenu.contains { $0.contains("Delete") }, "\(dunst.lastMenu)")

            let posted = try await cli(["send", "Still here", "-p", "-c", "im.received", "--hint", "int:value:3"])
            #expect(posted.status == 0, "\(posted.standardError)")
            let listed = try await cli(["list"])
            #expect(listed.output.contains("\(posted.output)\tStill here"), "\(listed.output)")
            let withdrawn = try await cli(["withdraw", posted.output])
            #expect(withdrawn.status == 0, "\(withdrawn.standardError)")
            let after = try await cli(["list", "--json"])
            #expect((try parsedJSON(after.output) as? [Any])?.isEmpty == true, "\(after.output)")
        }
    }
}

/// What the waiting command printed, once it has finished.
private actor Answer {
    var result: ProcessResult?
    func set(_ result: ProcessResult) { self.result = result }
}
