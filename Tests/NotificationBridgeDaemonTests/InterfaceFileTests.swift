import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import Testing

/// The files under `dbus/` and `packaging/` say what the daemon does.
@Suite("Interface and service files")
struct InterfaceFileTests {
    @Test("the daemon's introspection of io.github.NotificationBridge1 equals dbus/io.github.NotificationBridge1.xml")
    func introspectionMatchesFile() async throws {
        try await DaemonFixture.with { fixture in
            let reply = try await fixture.client.call(
                destination: BridgeAPI.busName, path: BridgeAPI.objectPath,
                interface: "org.freedesktop.DBus.Introspectable", method: "Introspect")
            let served = try reply.decode(String.self)
            let start = try #require(served.range(of: "  <interface name=\"\(BridgeAPI.interfaceName)\">"))
            let end = try #require(served.range(of: "  </interface>\n", range: start.upperBound..<served.endIndex))
            let element = served[start.lowerBound..<end.upperBound]
            let document = """
                <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
                 "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
                <node>
                \(element)</node>

                """
            // Regenerate after changing the interface: NB_UPDATE_INTERFACE_XML=1 swift test --filter InterfaceFileTests
            if ProcessInfo.processInfo.environment["NB_UPDATE_INTERFACE_XML"] != nil {
                try document.write(to: PackageFiles.interfaceXML, atomically: true, encoding: .utf8)
            }
            let committed = try String(contentsOf: PackageFiles.interfaceXML, encoding: .utf8)
            #expect(committed == document, "regenerate with NB_UPDATE_INTERFACE_XML=1 if the change is intended")
        }
    }

    @Test("the activation file names the bus name, the installed program and the systemd unit")
    func activationFile() throws {
        let text = try String(contentsOf: PackageFiles.activationService, encoding: .utf8)
        let lines = Set(text.split(separator: "\n").map(String.init))
        #expect(lines.contains("[D-BUS Service]"))
        #expect(lines.contains("Name=\(BridgeAPI.busName)"))
        #expect(lines.contains("Exec=/usr/bin/notification-bridged"))
        #expect(lines.contains("SystemdService=notification-bridged.service"))
    }

    @Test("the systemd user unit is a D-Bus service owning the bus name")
    func systemdUnit() throws {
        let text = try String(contentsOf: PackageFiles.systemdUnit, encoding: .utf8)
        let lines = Set(text.split(separator: "\n").map(String.init))
        #expect(lines.contains("Type=dbus"))
        #expect(lines.contains("BusName=\(BridgeAPI.busName)"))
        #expect(lines.contains("ExecStart=/usr/bin/notification-bridged"))
    }
}
