import DBusCore
import DBusTestSupport
import Foundation
import Testing

/// `make demo AUTO=1`: the built demo, with the built daemon and terminal server, played by its script.
@Suite("make demo")
struct DemoTests {
    @Test("the scripted demo gets every response and stops everything it started")
    func scriptedDemo() async throws {
        let result = try await ProcessRunner.run(
            [try BuiltProgram.path("notification-bridge-demo"), "--auto"], timeout: .seconds(120))
        #expect(result.status == 0, "output: \(result.standardOutput)\nerrors: \(result.standardError)")
        let output = result.standardOutput
        for expected in [
            "“Message from Ann”: 'reply', typed text “On my way!”",
            "“Message from Bob”: 'mark-read'",
            "“Message from Cy”: 'delete'",
            "“Message from Dee”: 'open', activation token ",
            "│ [1] ⚠ Delete (destructive)",
            "notification-bridged (exit status 0), notification-terminal-server (exit status 0)",
        ] {
            #expect(output.contains(expected), "missing \(expected) in:\n\(output)")
        }
    }
}

extension DemoTests {
    @Test("SIGTERM in the middle of the demo stops the programs and the bus it started")
    func interrupted() async throws {
        let (reader, writeEnd) = try LineReader.pipe()
        let demo: ChildProcess
        do {
            defer { close(writeEnd) }
            demo = try ChildProcess.spawn(
                [try BuiltProgram.path("notification-bridge-demo"), "--auto"], standardOutput: writeEnd)
        }
        defer { demo.stop(grace: .seconds(1)) }
        let prefix = "◆ A private session bus is up: "
        var line = try reader.nextLine(within: .seconds(30), waitingFor: "the demo's bus")
        try #require(line.hasPrefix(prefix), "first line: \(line)")
        let address = String(line.dropFirst(prefix.count))
        repeat {
            line = try reader.nextLine(within: .seconds(30), waitingFor: "the first notification drawn")
        } while !line.hasPrefix("┌─ #")

        demo.signal(SIGTERM)
        #expect(await demo.wait(within: .seconds(20)) == 128 + SIGTERM)
        var rest: [String] = []
        while let next = try? reader.nextLine(within: .seconds(5), waitingFor: "the rest") { rest.append(next) }
        #expect(rest.contains("◆ Interrupted: everything the demo started has stopped."), "\(rest)")
        await #expect(throws: (any Error).self, "the demo's bus still accepts connections") {
            let connection = try await DBusConnection.connect(to: .address(address))
            await connection.close()
        }
    }
}
