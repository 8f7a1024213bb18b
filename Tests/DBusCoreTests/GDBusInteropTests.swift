import DBusCore
import DBusTestSupport
import Testing

/// The exported object driven by a real client, `gdbus call`: what it sends arrives, what comes back prints as GLib
/// would print it, errors show their names and messages.
@Suite struct GDBusInteropTests {
    static func call(
        _ method: String, _ arguments: [String] = [], interface: String = TestObject.interfaceName,
        on bus: PrivateBus
    ) async throws -> ProcessResult {
        try await gdbusCall(
            on: bus, destination: TestObject.busName, path: TestObject.path, method: "\(interface).\(method)",
            arguments)
    }

    @Test func basicTypesSentByGdbusComeBackUnchanged() async throws {
        try await withTestObject { bus, _, _ in
            let result = try await Self.call(
                "Basics",
                [
                    "7", "true", "-16", "16", "-2147483648", "4294967295", "-9223372036854775808",
                    "18446744073709551615", "-0.5", "'Grüße 世界'", "'/org/example/x'", "'a{sv}'",
                ],
                on: bus)
            #expect(result.status == 0, "gdbus call failed: \(result.standardError)")
            let expected: [DBusValue] = [
                .byte(7), .boolean(true), .int16(-16), .uint16(16), .int32(.min), .uint32(.max), .int64(.min),
                .uint64(.max), .double(-0.5), .string("Grüße 世界"), .objectPath("/org/example/x"),
                .signature("a{sv}"),
            ]
            #expect(result.output == expected.gvariantTupleText)
        }
    }

    @Test func containersSentByGdbusComeBackUnchanged() async throws {
        try await withTestObject { bus, _, _ in
            let result = try await Self.call(
                "Containers", ["['a', 'b']", "{'k': <uint32 1>}", "(3, 'three')", "<<int16 2>>", "[[1], []]"],
                on: bus)
            #expect(result.status == 0, "gdbus call failed: \(result.standardError)")
            let expected: [DBusValue] = [
                .strings(["a", "b"]), .vardict(["k": .uint32(1)]), .structure([.int32(3), .string("three")]),
                .variant(.variant(.int16(2))),
                .array(
                    element: "ai",
                    [
                        .array(element: "i", [.int32(1)]),
                        .array(element: "i", []),
                    ]),
            ]
            #expect(result.output == expected.gvariantTupleText)
        }
    }

    @Test func callFromGdbusReachesTheHandlerWithItsSender() async throws {
        try await withTestObject { bus, object, _ in
            async let answer = Self.call("Hold", on: bus)
            let held = try await object.held.arrivals.first(waitingFor: "gdbus's call")
            #expect(held.member == "Hold")
            #expect(held.interface == TestObject.interfaceName)
            #expect(held.path == TestObject.path)
            #expect(held.sender.hasPrefix(":"))
            #expect(held.sender != object.connection.uniqueName)
            held.reply(with: "answered")
            let result = try await answer
            #expect(result.output == "('answered',)")
        }
    }

    @Test func errorReplyShowsItsNameAndMessageInGdbus() async throws {
        try await withTestObject { bus, _, _ in
            let result = try await Self.call("Fail", ["'org.example.Error.Custom'", "'it went wrong'"], on: bus)
            #expect(result.status != 0)
            #expect(result.standardError.contains("GDBus.Error:org.example.Error.Custom: it went wrong"))

            let crash = try await Self.call("Crash", on: bus)
            #expect(crash.status != 0)
            #expect(
                crash.standardError.contains(
                    "GDBus.Error:org.freedesktop.DBus.Error.Failed: something unexpected happened"))
        }
    }

    @Test func unknownMethodShowsUnknownMethodInGdbus() async throws {
        try await withTestObject { bus, _, _ in
            let result = try await Self.call("Missing", on: bus)
            #expect(result.status != 0)
            #expect(result.standardError.contains("org.freedesktop.DBus.Error.UnknownMethod"))
            #expect(try await Self.call("Echo", ["'after'"], on: bus).output == "('after',)")
        }
    }

    @Test func peerAnswersPingAndMachineID() async throws {
        try await withTestObject { bus, _, _ in
            let ping = try await Self.call("Ping", interface: "org.freedesktop.DBus.Peer", on: bus)
            #expect(ping.status == 0, "Ping failed: \(ping.standardError)")
            #expect(ping.output == "()")
            let machine = try await Self.call("GetMachineId", interface: "org.freedesktop.DBus.Peer", on: bus)
            #expect(machine.status == 0, "GetMachineId failed: \(machine.standardError)")
            #expect(machine.output.count == "('',)".count + 32)
        }
    }
}
