import DBusCore
import DBusTestSupport
import Foundation
import Testing

@testable import NotificationBridge

@Suite struct AppActivatorTests {
    /// An app on the bus that exports `org.freedesktop.Application` and reports each call it receives.
    private struct TestApp {
        struct Call: Sendable, Equatable {
            var method: String
            var arguments: [DBusValue]
        }

        let calls: AsyncStream<Call>

        static func start(on bus: PrivateBus, id: String) async throws -> TestApp {
            let connection = try await bus.connect()
            let (calls, continuation) = AsyncStream.makeStream(of: Call.self)
            let record: @Sendable (DBusMethodCall) -> [DBusValue] = { call in
                continuation.yield(Call(method: call.member, arguments: call.arguments))
                return []
            }
            let interface = DBusInterface(
                "org.freedesktop.Application",
                methods: [
                    DBusMethod("Activate", inputs: [.init("platform_data", "a{sv}")], handler: record),
                    DBusMethod(
                        "Open", inputs: [.init("uris", "as"), .init("platform_data", "a{sv}")], handler: record),
                    DBusMethod(
                        "ActivateAction",
                        inputs: [.init("action_name", "s"), .init("parameter", "av"), .init("platform_data", "a{sv}")],
                        handler: record),
                ])
            let path = try #require(AppActivator.applicationObjectPath(forDesktopEntry: id))
            try await connection.export([interface], at: path)
            _ = try await connection.requestName(id)
            // Keep the connection open as long as the stream is used.
            continuation.onTermination = { _ in _ = connection }
            return TestApp(calls: calls)
        }
    }

    private static func writeDesktopFile(id: String, in directory: URL, lines: [String]) throws {
        let text = (["[Desktop Entry]", "Type=Application", "Name=Test App"] + lines).joined(separator: "\n") + "\n"
        try text.write(to: directory.appendingPathComponent(id + ".desktop"), atomically: true, encoding: .utf8)
    }

    private static let tokenData = DBusValue.vardict([
        "activation-token": .string("token-42"), "desktop-startup-id": .string("token-42"),
    ])

    @Test(arguments: [
        ("org.example.App", "/org/example/App"),
        ("org.example.My-App", "/org/example/My_App"),
        ("io.github.some_user.Tool-2", "/io/github/some_user/Tool_2"),
        ("org.example.App.desktop", "/org/example/App"),
    ])
    func objectPathFollowsTheDesktopEntrySpecification(id: String, path: String) {
        #expect(AppActivator.applicationObjectPath(forDesktopEntry: id)?.rawValue == path)
    }

    @Test(arguments: ["", "single", "org.7zip.App", "org..App", "../org.example.App", ":1.42", "org/example.App"])
    func idsThatCannotBeBusNamesHaveNoObjectPath(id: String) {
        #expect(AppActivator.applicationObjectPath(forDesktopEntry: id) == nil)
    }

    @Test func activatesARunningAppOverDBusWithTheTokenInPlatformData() async throws {
        try await withPrivateBus { bus in
            let app = try await TestApp.start(on: bus, id: "org.example.TestApp")
            let folder = try DesktopFixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let activator = AppActivator(connection: try await bus.connect(), applicationDirectories: [folder.path])

            try await activator.activate(desktopEntry: "org.example.TestApp", token: "token-42")
            let call = try await app.calls.first(waitingFor: "Activate")
            #expect(call == TestApp.Call(method: "Activate", arguments: [Self.tokenData]))

            try await activator.activate(desktopEntry: "org.example.TestApp", token: nil)
            let untokened = try await app.calls.first(waitingFor: "Activate without a token")
            #expect(untokened == TestApp.Call(method: "Activate", arguments: [.vardict([:])]))
        }
    }

    @Test func activateActionSendsTheActionItsParametersAndTheToken() async throws {
        try await withPrivateBus { bus in
            let app = try await TestApp.start(on: bus, id: "org.example.TestApp")
            let folder = try DesktopFixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let activator = AppActivator(connection: try await bus.connect(), applicationDirectories: [folder.path])
            let userInfo = DBusValue.vardict(["thread": .string("42")])

            try await activator.activateAction(
                desktopEntry: "org.example.TestApp", action: "notification-response",
                parameters: [.string("reply"), .string("typed ünï text"), userInfo], token: "token-42")
            let call = try await app.calls.first(waitingFor: "ActivateAction")
            #expect(call.method == "ActivateAction")
            #expect(
                call.arguments == [
                    .string("notification-response"),
                    .array(
                        element: "v",
                        [.variant(.string("reply")), .variant(.string("typed ünï text")), .variant(userInfo)]),
                    Self.tokenData,
                ])
        }
    }

    @Test func aDBusActivatableDesktopFileIsActivatedOverDBusNotExecuted() async throws {
        try await withPrivateBus { bus in
            let id = "org.example.Test-App"
            let app = try await TestApp.start(on: bus, id: id)
            let folder = try DesktopFixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let marker = folder.appendingPathComponent("executed").path
            let script = try DesktopFixtures.writeScript("touch \(marker)", named: "app.sh", in: folder)
            try Self.writeDesktopFile(id: id, in: folder, lines: ["Exec=/bin/sh \(script)", "DBusActivatable=true"])
            let activator = AppActivator(
                connection: try await bus.connect(), applicationDirectories: [folder.path],
                useDBusWithoutDesktopFile: false)

            try await activator.activate(desktopEntry: id, token: "token-42")
            #expect(try await app.calls.first(waitingFor: "Activate at /org/example/Test_App").method == "Activate")
            try await activator.activateAction(desktopEntry: id, action: "compose", token: nil)
            let action = try await app.calls.first(waitingFor: "ActivateAction")
            #expect(action.arguments == [.string("compose"), .array(element: "v", []), .vardict([:])])
            #expect(!FileManager.default.fileExists(atPath: marker))
        }
    }

    /// The app gets the token, and none of the launching thread's blocked signals (so SIGTERM can stop it).
    @Test func anOrdinaryDesktopFileIsLaunchedWithTheTokenInItsEnvironment() async throws {
        try await withPrivateBus { bus in
            let folder = try DesktopFixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let output = folder.appendingPathComponent("environment").path
            let script = try DesktopFixtures.writeScript(
                """
                printf '%s\\n%s\\n' "$XDG_ACTIVATION_TOKEN" "$DESKTOP_STARTUP_ID" > \(output).part
                \(DesktopFixtures.printBlockedSignals) >> \(output).part
                mv \(output).part \(output)
                """, named: "launch.sh", in: folder)
            // Through /bin/sh: a script written a moment ago cannot always be executed directly, since a child another
            // test forks meanwhile briefly holds it open for writing (ETXTBSY), and GIO cannot report that failure.
            try Self.writeDesktopFile(id: "org.example.Launched", in: folder, lines: ["Exec=/bin/sh \(script)"])
            let activator = AppActivator(connection: try await bus.connect(), applicationDirectories: [folder.path])

            try await activator.activate(desktopEntry: "org.example.Launched", token: "token-42")
            let written = try await DesktopFixtures.contents(of: output)
            #expect(written == "token-42\ntoken-42\nSigBlk:\t0000000000000000\n")
        }
    }

    @Test func anActionForAnAppThatIsNotDBusActivatableIsRefused() async throws {
        try await withPrivateBus { bus in
            let folder = try DesktopFixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            try Self.writeDesktopFile(id: "org.example.Plain", in: folder, lines: ["Exec=/bin/true"])
            let activator = AppActivator(connection: try await bus.connect(), applicationDirectories: [folder.path])
            let error = await #expect(throws: DesktopIntegrationError.self) {
                try await activator.activateAction(desktopEntry: "org.example.Plain", action: "reply", token: nil)
            }
            #expect(error == .actionNeedsDBusActivation(desktopEntry: "org.example.Plain", action: "reply"))
            #expect(error?.description.contains("DBusActivatable=true") == true)
        }
    }

    @Test func aMissingDesktopFileSaysWhereItLooked() async throws {
        try await withPrivateBus { bus in
            let folder = try DesktopFixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let activator = AppActivator(
                connection: try await bus.connect(), applicationDirectories: [folder.path],
                useDBusWithoutDesktopFile: false)
            let error = await #expect(throws: DesktopIntegrationError.self) {
                try await activator.activate(desktopEntry: "org.example.Missing", token: nil)
            }
            #expect(error == .desktopEntryNotFound("org.example.Missing", searched: [folder.path]))
            #expect(error?.description.contains(folder.path) == true)
        }
    }

    @Test func anAppThatDoesNotAnswerIsReportedWithTheDBusError() async throws {
        try await withPrivateBus { bus in
            let folder = try DesktopFixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let activator = AppActivator(connection: try await bus.connect(), applicationDirectories: [folder.path])
            let error = await #expect(throws: DesktopIntegrationError.self) {
                try await activator.activate(desktopEntry: "org.example.NotRunning", token: "token-42")
            }
            guard case .activationFailed(let id, let failure)? = error else {
                Issue.record("expected activationFailed, got \(String(describing: error))")
                return
            }
            #expect(id == "org.example.NotRunning")
            #expect(failure.name == DBusFailure.Name.serviceUnknown)
        }
    }

    @Test func anInvalidDesktopEntryIsRefusedBeforeAnyLookup() async throws {
        try await withPrivateBus { bus in
            let activator = AppActivator(connection: try await bus.connect())
            await #expect(throws: DesktopIntegrationError.invalidDesktopEntry("../org.example.App")) {
                try await activator.activate(desktopEntry: "../org.example.App", token: nil)
            }
        }
    }
}
