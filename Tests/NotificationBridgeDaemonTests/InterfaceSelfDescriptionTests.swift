import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// The interface describes itself: its properties answer `org.freedesktop.DBus.Properties`, its introspection names
/// every error the contract defines, and a listed fire date is readable as well as countable.
@Suite("the interface describes itself")
struct InterfaceSelfDescriptionTests {
    /// `Properties.Get` of one of the interface's properties, with `gdbus` as a user runs it.
    private static func property(_ name: String, in fixture: DaemonFixture) async throws -> ProcessResult {
        try await fixture.sh(
            """
            gdbus call --session --dest \(BridgeAPI.busName) --object-path \(BridgeAPI.objectPath.rawValue) \
              --method org.freedesktop.DBus.Properties.Get \(BridgeAPI.interfaceName) \(name)
            """)
    }

    @Test("Version is the daemon's version; ServerName is the name the notification server gives")
    func properties() async throws {
        try await DaemonFixture.with(.dunst) { fixture in
            let version = try await Self.property(BridgeProperty.version.name, in: fixture)
            #expect(version.status == 0, "\(version.standardError)")
            #expect(version.output == "(<'\(BridgeAPI.version)'>,)")
            let server = try await Self.property(BridgeProperty.serverName.name, in: fixture)
            #expect(server.status == 0, "\(server.standardError)")
            #expect(server.output == "(<'dunst'>,)")
        }
    }

    @Test("an unknown property is refused with the standard error, naming it")
    func unknownProperty() async throws {
        try await DaemonFixture.with { fixture in
            let result = try await Self.property("Colour", in: fixture)
            #expect(result.status != 0)
            #expect(
                result.standardError.contains("org.freedesktop.DBus.Error.UnknownProperty"), "\(result.standardError)")
            #expect(result.standardError.contains("Colour"), "\(result.standardError)")
        }
    }

    /// What each error means is in notification-bridge-dbus(7), whose ERRORS the XML names: every meaning inline made
    /// a DocString of several kilobytes.
    @Test("the interface XML names every error of BridgeError.all, under the interface's error prefix")
    func everyErrorInTheXML() throws {
        let xml = try String(contentsOf: PackageFiles.interfaceXML, encoding: .utf8)
        #expect(BridgeError.all.count == Set(BridgeError.all).count, "an error is listed twice in BridgeError.all")
        #expect(xml.contains("Errors, under \(BridgeAPI.errorPrefix) (notification-bridge-dbus(7), ERRORS): "))
        let words = Set(xml.split { !$0.isLetter && !$0.isNumber }.map(String.init))
        for error in BridgeError.all {
            #expect(!error.meaning.isEmpty, "\(error) says nothing about what it means")
            let name = String(error.rawValue.dropFirst(BridgeAPI.errorPrefix.count))
            #expect(words.contains(name), "\(error) is not in the interface XML")
        }
    }

    @Test("ListPending gives next-fire-date-iso8601, the same instant as next-fire-date")
    func readableFireDate() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await fixture.post([
                PostKeys.title.name: .string("Tea is ready"), PostKeys.delay.name: .double(240),
                PostKeys.appName.name: .string("Kettle"),
            ])
            let listed = try await fixture.call(
                BridgeMethod.listPending.name, [.vardict([FilterKeys.appName.name: .string("Kettle")])])
            guard case .array(_, let notifications)? = listed.first,
                let entries = notifications.first?.stringKeyedEntries,
                case .int64(let seconds)? = entries[ListedKeys.nextFireDate.name]?.unwrappedVariant
            else {
                Issue.record("ListPending answered \(listed)")
                return
            }
            let text = try #require(entries[ListedKeys.nextFireDateISO8601.name]?.unwrappedVariant.stringValue)
            let parsed = try #require(ISO8601DateFormatter().date(from: text), "'\(text)' is not ISO 8601")
            #expect(Int64(parsed.timeIntervalSince1970) == seconds, "\(text) is not \(seconds) s since 1970")
            #expect(text.hasSuffix("Z"), "\(text)")
        }
    }
}
