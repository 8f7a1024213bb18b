import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

@testable import NotificationBridgeDaemon

/// A change of the focus modes that cannot be saved is not in force: the user is told it failed, and what they were
/// told failed must not silence their apps until the next restart undoes it.
@Suite(
    "A change of the focus modes that cannot be saved",
    .enabled(if: getuid() == 0, "mounts a small tmpfs as the daemon's state folder, which needs root"))
struct FocusSaveFailureTests {
    @Test("on a full state folder TurnOnFocus fails saying what to do, no mode is on; with space again it works")
    func fullStateFolder() async throws {
        try await withPrivateBus { bus in
            let state = bus.directory.appendingPathComponent("test/state")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            let mounted = try await ProcessRunner.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", state.path])
            try #require(mounted.status == 0, "cannot mount a tmpfs: \(mounted.standardError)")
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: NotificationServerProfile.fullFeatured)
            async let serverRunning: Void = server.run()
            let result = await outcome {
                try await DaemonFixture.run(
                    bus: bus, server: server, events: events,
                    doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)
                ) { fixture in
                    // Once the state is open: a call is answered only then.
                    try await fixture.call(BridgeMethod.listFocusModes.name)
                    let filler = state.appendingPathComponent("filler")
                    try Self.fill(filler)
                    let failure = await #expect(throws: DBusFailure.self) {
                        try await fixture.call(
                            BridgeMethod.turnOnFocus.name, [.string("sleep"), FocusRequest(name: "sleep").options])
                    }
                    #expect(failure?.name == BridgeError.serverError.rawValue, "\(failure?.message ?? "")")
                    #expect(failure?.message.contains("free some space") == true, "\(failure?.message ?? "")")
                    #expect(
                        try await FocusRestoreTests.activeFocus(fixture) == ActiveFocusState.none,
                        "the mode the user was told could not be turned on is not on")

                    try FileManager.default.removeItem(at: filler)
                    _ = try await fixture.post(FocusRestoreTests.notification("New mail", app: "Mail"))
                    #expect(try await fixture.nextNotification().summary == "New mail", "nothing holds it back")
                    try await fixture.call(
                        BridgeMethod.turnOnFocus.name, [.string("sleep"), FocusRequest(name: "sleep").options])
                    #expect(try await FocusRestoreTests.activeFocus(fixture)?.name == "sleep", "with space, it is on")
                }
            }
            await serverConnection.close()
            await serverRunning
            _ = try await ProcessRunner.run(["umount", "-l", state.path])
            try result.get()
        }
    }

    /// Writes `file` until the file system holding it is full.
    static func fill(_ file: URL) throws {
        FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let block = Data(count: 64 * 1024)
        // 4 MiB of file system in 64 KiB blocks: done well before this bound.
        for _ in 0..<1024 {
            do {
                try handle.write(contentsOf: block)
                try handle.synchronize()
            } catch {
                return
            }
        }
        Issue.record("the file system holding \(file.path) did not fill up")
    }
}
