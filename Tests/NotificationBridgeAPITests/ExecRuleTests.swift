import DBusCore
import NotificationBridgeAPI
import Testing

/// The one `exec` rule: what the daemon accepts when it reads `Post` is what every client checks before sending.
@Suite("the exec rule")
struct ExecRuleTests {
    @Test(
        "a program name (searched on PATH) or an absolute path is accepted",
        arguments: [["sh", "-c", "true"], ["/bin/sh"], ["notify-handler", "--flag"]])
    func accepted(argv: [String]) throws {
        try ExecRule.checkForm(argv)
    }

    @Test(
        "an empty argv, an empty program, a relative path and an oversized argv are refused, saying why",
        arguments: [
            ([], "needs the program first"), ([""], "needs the program first"),
            (["./handler"], "a relative path"), (["bin/handler"], "a relative path"),
            (["many"], "at most 256"), (["long"], "bytes long"),
        ])
    func refused(argv: [String], says: String) {
        // Oversized argvs are made here, so that the test's name stays short.
        let argv =
            switch argv {
            case ["many"]: Array(repeating: "x", count: ExecRule.maximumArguments + 1)
            case ["long"]: ["sh", String(repeating: "x", count: ExecRule.maximumBytes)]
            default: argv
            }
        #expect {
            try ExecRule.checkForm(argv)
        } throws: { error in
            // The refusal names the key, as a part of the error a client can name in its own terms.
            guard let failure = error as? DBusFailure, let refusal = KeyFailure(failure) else { return false }
            return refusal.key == PostKeys.exec.name && refusal.problem.contains(says)
                && failure.message.hasPrefix("notification key 'exec' ")
        }
    }

    @Test("the daemon's check also finds the program: on PATH for a name, as a file for a path")
    func resolution() throws {
        try ExecRule.check(["sh"])
        #expect(ExecRule.resolve("sh", path: "/nonexistent:/bin:/usr/bin") != nil)
        #expect(ExecRule.resolve("sh", path: "/nonexistent") == nil)
        #expect(throws: DBusFailure.self) { try ExecRule.check(["no-such-program-anywhere"]) }
        #expect(throws: DBusFailure.self) { try ExecRule.check(["/no/such/file"]) }
    }

    @Test("Post's exec key applies the rule when it is read")
    func postKeyApplesTheRule() throws {
        var entries = WireEntries()
        entries[PostKeys.title] = "T"
        entries[PostKeys.exec] = ["./relative"]
        #expect(throws: DBusFailure.self) { _ = try NotificationPost(decoding: entries.value) }
        entries[PostKeys.exec] = ["sh", "-c", "true"]
        let post = try NotificationPost(decoding: entries.value)
        #expect(post.route == .command(["sh", "-c", "true"]))
    }
}
