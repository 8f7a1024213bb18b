import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeDaemon
import Testing

/// The daemon against a real dunst under Xvfb, driven only by `gdbus` (the scripts of GdbusScripts) and dunst's own menu.
@Suite("End to end with dunst")
struct DunstEndToEndTests {
    @Test(
        "gdbus registers a category and posts; the user picks an action in dunst; WaitForResponse returns it",
        .enabled(if: Dunst.isInstalled, "dunst and Xvfb are needed: 'make test' installs them"))
    func dunstActionReachesWaitForResponse() async throws {
        try await withPrivateBus { bus in
            let dunst = try await Dunst.start(on: bus)
            defer { dunst.stop() }
            try await DaemonFixture.run(bus: bus, server: nil, events: AsyncStream { $0.finish() }) { fixture in
                let registered = try await fixture.sh(GdbusScripts.registerCategory.script)
                #expect(registered.output == GdbusScripts.registerCategory.output, "\(registered.standardError)")
                let information = try await fixture.sh(GdbusScripts.serverInformation.script)
                #expect(information.output.contains("'server-name': <'dunst'>"), "\(information.output)")

                let answer = Answer()
                let waiting = Task {
                    let result = try await fixture.sh(GdbusScripts.postAndWait.script, timeout: .seconds(30))
                    await answer.set(result)
                }
                try await dunst.invoke(actionLabel: "Archive", until: { await answer.result != nil })
                try await waiting.value
                let result = try #require(await answer.result)
                #expect(result.status == 0, "\(result.standardError); dunst: \(dunst.log); menu: \(dunst.lastMenu)")
                let id = try idInDictionary(result.output)
                #expect(
                    result.output == """
                        ('archive', {'action': <'archive'>, 'id': <'\(id)'>, 'user-info': <'{"message":42}'>})
                        """)
                #expect(dunst.lastMenu.contains { $0.contains("Delete") }, "\(dunst.lastMenu)")
                #expect(!dunst.lastMenu.contains { $0.contains("Reply") }, "no prompt here, so the reply is hidden")
            }
        }
    }
}

/// What the waiting script printed, once it has finished.
private actor Answer {
    var result: ProcessResult?
    func set(_ result: ProcessResult) { self.result = result }
}
