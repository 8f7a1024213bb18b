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
