import DBusCore
import DBusTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Unix file descriptors (`h`) on the wire: read and written inside containers, as a bus's `ProcessFD` comes inside
/// `GetConnectionCredentials`' dictionary, each closed by whoever holds it last.
@Suite("File descriptors on the wire")
struct FileDescriptorTests {
    static let path: DBusObjectPath = "/org/example/Descriptors"
    static let interfaceName = "org.example.Descriptors"

    /// `Relay(a{sv}) -> a{sv}`: writes one byte, `x`, into the descriptor under `writer` and answers with the
    /// dictionary it was given, descriptors included.
    static var relay: DBusInterface {
        DBusInterface(
            interfaceName,
            methods: [
                DBusMethod("Relay", inputs: [.init("values", "a{sv}")], outputs: [.init("values", "a{sv}")]) { call in
                    let values = call.arguments.first?.stringKeyedEntries ?? [:]
                    guard case .unixFD(let writer)? = values["writer"]?.unwrappedVariant else {
                        throw DBusFailure(name: DBusFailure.Name.invalidArgs, message: "no writer")
                    }
                    var byte = UInt8(ascii: "x")
                    guard write(writer.rawValue, &byte, 1) == 1 else {
                        throw DBusFailure(name: DBusFailure.Name.failed, message: "write: \(errno)")
                    }
                    return call.arguments
                }
            ])
    }

    /// A pipe: its read end as a plain descriptor the test closes, its write end owned by a value.
    static func pipe() throws -> (reader: Int32, writer: DBusFileDescriptor) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw TestSupportError("pipe: errno \(errno)") }
        return (ends[0], DBusFileDescriptor(taking: ends[1]))
    }

    /// The descriptors this process has open.
    static func openDescriptorCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    /// One round: a pipe's write end sent to the object inside a dictionary; the object writes through the copy it
    /// received, and the copy that comes back in the reply writes too: both bytes arrive at the read end.
    static func round(_ client: DBusConnection) async throws {
        let (reader, writer) = try pipe()
        defer { close(reader) }
        let reply = try await client.call(
            destination: TestObject.busName, path: path, interface: interfaceName, method: "Relay",
            arguments: [.vardict(["writer": .unixFD(writer), "label": .string("pipe")])])
        guard case .unixFD(let returned)? = reply.first?.stringKeyedEntries?["writer"]?.unwrappedVariant else {
            Issue.record("the reply holds no descriptor under 'writer': \(reply)")
            return
        }
        #expect(returned.rawValue != writer.rawValue, "a received descriptor is the receiver's own copy")
        var byte = UInt8(ascii: "y")
        #expect(write(returned.rawValue, &byte, 1) == 1)
        var bytes = [UInt8](repeating: 0, count: 2)
        #expect(read(reader, &bytes, 2) == 2)
        #expect(String(decoding: bytes, as: UTF8.self) == "xy")
    }

    @Test("a descriptor inside a dictionary goes to a peer and comes back, and a thousand rounds leak none")
    func roundTripWithoutLeaks() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            try await server.export([Self.relay], at: Self.path)
            _ = try await server.requestName(TestObject.busName)
            let client = try await bus.connect()
            #expect(client.canPassFileDescriptors, "a unix-socket bus passes descriptors")
            try await Self.round(client)
            let before = try Self.openDescriptorCount()
            for _ in 0..<1000 { try await Self.round(client) }
            let after = try Self.openDescriptorCount()
            // Each round opens four descriptors here (a pipe, the copy received back) and two in the object; a leak of
            // even one a round would show a thousand. Other tests of this process open and close theirs meanwhile,
            // which the margin allows for.
            #expect(after - before < 100, "open descriptors went from \(before) to \(after) over 1,000 rounds")
            await client.close()
            await server.close()
        }
    }

    @Test("a value owns its descriptor: it is closed when the last holder lets go, and not before")
    func ownership() throws {
        let (reader, writer) = try Self.pipe()
        defer { close(reader) }
        let number = writer.rawValue
        var value: DBusValue? = .vardict(["ProcessFD": .unixFD(writer)])
        let copy = value
        value = nil
        #expect(fcntl(number, F_GETFD) >= 0, "a copy of the value still holds the descriptor")
        _ = copy
        let duplicate = try DBusFileDescriptor(duplicating: number)
        #expect(duplicate.rawValue != number)
        #expect(duplicate != writer, "two descriptors of one pipe are two values")
        #expect(DBusValue.unixFD(writer).description == "handle \(number)")
        #expect(DBusValue.unixFD(writer).signature == "h")
    }

    @Test("credentials read ProcessFD beside ProcessID, and a key or a type they do not know is left out")
    func credentialsWithProcessFD() throws {
        let (reader, writer) = try Self.pipe()
        defer { close(reader) }
        let other = try DBusFileDescriptor(duplicating: writer.rawValue)
        let credentials = ConnectionCredentials(
            .vardict([
                "ProcessID": .uint32(42), "ProcessFD": .unixFD(writer), "UnixUserID": .uint32(1000),
                "UnixGroupIDs": .array(element: "u", [.uint32(1000)]), "FutureKey": .unixFD(other),
                "LinuxSecurityLabel": .string("of another type than the specification's"),
            ]))
        #expect(credentials.processID == 42)
        #expect(credentials.processFD === writer)
        #expect(credentials.userID == 1000)
        #expect(credentials.securityLabel == nil)
    }

    @Test("the bus's credentials of a connection name this process, by its pidfd where the bus gives one")
    func credentialsFromTheBus() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            let credentials = try await connection.credentials(of: connection.uniqueName)
            #expect(credentials.processID == UInt32(getpid()))
            if ProcessInfo.processInfo.environment["NB_EXPECT_PROCESS_FD"] == "1" {
                #expect(credentials.processFD != nil, "this bus (dbus-daemon 1.15.8 or later) reports ProcessFD")
            }
            if let pidfd = credentials.processFD {
                let info = try String(contentsOfFile: "/proc/self/fdinfo/\(pidfd.rawValue)", encoding: .utf8)
                #expect(info.contains("Pid:\t\(getpid())\n"), "the pidfd refers to this process: \(info)")
            }
            await connection.close()
        }
    }
}
