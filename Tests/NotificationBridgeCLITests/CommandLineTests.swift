import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

/// The command line, checked before any D-Bus call (`send --dry-run` prints the `Post` request; errors exit 2).
@Suite("notification-bridge command line")
struct CommandLineTests {
    @Test(
        "--action specs become the daemon's action dictionaries",
        arguments: [
            ("reply=Reply", ["'id': <'reply'>", "'title': <'Reply'>", "'activation': <'foreground'>"]),
            (
                "archive=Archive,background,destructive,auth",
                ["'activation': <'background'>", "'destructive': <true>", "'authentication-required': <true>"]
            ),
            (
                "reply=Reply,text-input=Send,placeholder=Say\\, hi",
                [
                    "'behavior': <'text-input'>", "'text-input-button-title': <'Send'>",
                    "'text-input-placeholder': <'Say, hi'>",
                ]
            ),
            ("x=A\\, B,text-input", ["'title': <'A, B'>", "'behavior': <'text-input'>"]),
            // notify-send's -A Text: the id is the action's position.
            ("Yes", ["'id': <'0'>", "'title': <'Yes'>"]),
        ])
    func goodActions(spec: String, expected: [String]) async throws {
        let result = try await BuiltPrograms.cli(["send", "Title", "--action", spec, "--dry-run"])
        #expect(result.status == 0, "\(result.standardError)")
        for part in expected { #expect(result.output.contains(part), "\(result.output)") }
    }

    @Test(
        "a bad --action exits 2, naming the option, the value and the accepted form",
        arguments: [
            ("", "the title is empty"), (",background", "the title is empty"), ("=Reply", "id before '=' is empty"),
            ("reply=", "title after '=' is empty"),
            ("default=Open", "reserved"), ("inline-reply=Reply", "reserved"),
            ("a=A,sideways", "unknown part 'sideways'"),
            ("a=A,foreground,background", "one or the other"), ("a=A,placeholder=x", "only to text-input"),
            ("a=A,,destructive", "empty part"), ("a=A,destructive=yes", "takes no value"),
            ("a=A,text-input=", "submit button's title"),
        ])
    func badActions(spec: String, says: String) async throws {
        let result = try await BuiltPrograms.cli(["send", "Title", "--action", spec, "--dry-run"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--action '\(spec)'"), "\(result.standardError)")
        #expect(result.standardError.contains(says), "\(result.standardError)")
        #expect(result.standardError.contains("[id=]Title[,foreground|background]"), "\(result.standardError)")
        #expect(!result.standardError.contains("Fatal error"))
    }

    @Test("notify-send's -A Text takes its position as id, like notify-send; named ones keep their names")
    func positionalActionIDs() async throws {
        let result = try await BuiltPrograms.cli([
            "send", "T", "-A", "Yes", "-A", "later=Later", "-A", "No", "--dry-run",
            "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try parsedJSON(result.output) as? [String: Any])
        let actions = try #require(object[PostKeys.actions.name] as? [[String: Any]])
        #expect(actions.map { $0[ActionKeys.id.name] as? String } == ["0", "later", "2"])
        #expect(actions.map { $0[ActionKeys.title.name] as? String } == ["Yes", "Later", "No"])
    }

    @Test("notify-send's options are all accepted, in its spelling")
    func notifySendOptions() async throws {
        let result = try await BuiltPrograms.cli([
            "-u", "critical", "-t", "5000", "-a", "Backup", "-i", "drive-harddisk", "-c", "transfer.complete",
            "--hint", "int:value:42", "-e", "-r", "0123456789abcdef", "-A", "open=Open", "--expire-time=6000",
            "--replace-id", "0123456789abcdef", "--urgency=low", "--app-name=Backup", "--icon=x", "--transient",
            "--hint=string:x-tag:a", "--action=more=More", "Done", "All files copied", "--dry-run",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        for part in [
            "'urgency': <'low'>", "'timeout': <6000>", "'app-name': <'Backup'>", "'icon': <'x'>",
            "'hints': <{'category': <'transfer.complete'>, 'value': <42>, 'x-tag': <'a'>}>", "'transient': <true>",
            "'replaces': <'0123456789abcdef'>", "'title': <'Done'>", "'body': <'All files copied'>",
            "'id': <'open'>", "'id': <'more'>",
        ] {
            #expect(result.output.contains(part), "\(part) in \(result.output)")
        }
        // notify-send's -h TYPE:NAME:VALUE is a hint; -h alone stays help.
        let shortHint = try await BuiltPrograms.cli(["-h", "int:value:42", "T", "-h", "string:x-a:b", "--dry-run"])
        #expect(shortHint.status == 0, "\(shortHint.standardError)")
        #expect(shortHint.output.contains("'hints': <{'value': <42>, 'x-a': <'b'>}>"), "\(shortHint.output)")
        // A malformed one is a hint still, refused as one: not the help, and not a success.
        let malformed = try await BuiltPrograms.cli(["send", "x", "-h", "int:value"])
        #expect(malformed.status == 2)
        #expect(malformed.standardError.contains("TYPE:NAME:VALUE"), "\(malformed.standardError)")
        #expect(!malformed.output.contains("OVERVIEW"), "\(malformed.output)")
        let help = try await BuiltPrograms.cli(["send", "-h"])
        #expect(help.output.hasPrefix("OVERVIEW: Post a notification"), "\(help.output)")
        // -p and -w take effect only against a daemon; here they must parse.
        let flags = try await BuiltPrograms.cli(["-p", "-w", "T", "--dry-run"])
        #expect(flags.status == 0, "\(flags.standardError)")
    }

    @Test("two actions with one id are refused")
    func duplicateActions() async throws {
        let result = try await BuiltPrograms.cli(["send", "T", "-A", "a=A", "-A", "a=B", "--dry-run"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("'a' is given twice"), "\(result.standardError)")
    }

    @Test("--hint takes nested GVariant values and notify-send's TYPE:NAME:VALUE; known hints become keys")
    func hints() async throws {
        let result = try await BuiltPrograms.cli([
            "send", "T", "--dry-run", "--hint", "x-test=<{'a': <[1, 2]>}>", "--hint", "int:x-level:5",
            "--hint", "string:x-name:plain text", "--hint", "boolean:transient:true", "--hint", "sound-name='bell'",
            "--hint", "variant:x-pair:('a', uint32 7)", "--hint", "double:x-ratio:0.5",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output.contains("'x-test': <<{'a': <[1, 2]>}>>"), "\(result.output)")
        #expect(result.output.contains("'x-level': <5>"), "\(result.output)")
        #expect(result.output.contains("'x-name': <'plain text'>"), "\(result.output)")
        #expect(result.output.contains("'transient': <true>"), "\(result.output)")
        #expect(result.output.contains("'sound': <'bell'>"), "\(result.output)")
        #expect(result.output.contains("'x-pair': <('a', uint32 7)>"), "\(result.output)")
        #expect(result.output.contains("'x-ratio': <0.5>"), "\(result.output)")

        // As notify-send users write them: int:transient:1, byte:urgency:2, string:image-path:…
        let numeric = try await BuiltPrograms.cli([
            "send", "T", "--dry-run", "--hint", "int:transient:1", "--hint", "byte:urgency:2",
            "--hint", "string:image-path:/tmp/a.png", "--hint", "boolean:suppress-sound:true",
        ])
        #expect(numeric.status == 0, "\(numeric.standardError)")
        for part in ["'transient': <true>", "'urgency': <byte 0x02>", "'image': <'/tmp/a.png'>", "'sound': <'none'>"] {
            #expect(numeric.output.contains(part), "\(part) in \(numeric.output)")
        }
        #expect(!numeric.output.contains("'hints'"), "\(numeric.output)")
    }

    @Test("--dry-run --json prints the request as valid JSON")
    func dryRunJSON() async throws {
        let result = try await BuiltPrograms.cli([
            "send", "T", "B", "--dry-run", "--json", "--user-info", "mail=42", "--user-info", "who=ann",
            "-A", "reply=Reply,text-input",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try parsedJSON(result.output) as? [String: Any])
        #expect(object[PostKeys.title.name] as? String == "T")
        #expect(object[PostKeys.userInfo.name] as? [String: Any] != nil)
        #expect((object[PostKeys.actions.name] as? [Any])?.count == 1)
    }

    @Test(
        "every malformed option exits 2 and says what it accepts",
        arguments: [
            (["send", "T", "--hint", "x-test"], "--hint 'x-test': no '='"),
            (["send", "T", "--hint", "x-test=hello"], "not GVariant text"),
            (["send", "T", "--hint", "int:x:five"], "not a 32-bit integer"),
            (["send", "T", "--hint", "byte:x:300"], "not a byte"),
            (["send", "T", "--hint", "boolean:x:yes"], "not true or false"),
            (["send", "T", "--hint", "double:x:much"], "'much' is not a number"),
            (["send", "T", "--hint", "variant:x:hello"], "'hello' is not GVariant text"),
            (["send", "T", "--hint", "int:x"], "no ':' between the name and the value"),
            (["send", "T", "--hint", "=5"], "the name is empty"),
            (["send", "T", "--hint", "x=<'a'"], "not GVariant text"),
            (["send", "T", "--hint", "x=just 5"], "maybe type"),
            (
                ["send", "T", "--hint", "urgency=2.5"],
                "--hint 'urgency': the bridge sets this hint itself; use --urgency"
            ),
            (["send", "T", "--hint", "sender-pid=int64 5"], "leave it out"),
            (["send", "T", "--hint", "string:x-kde-reply-placeholder-text:x"], "placeholder=Text"),
            (["send", "T", "--hint", "transient='yes'"], "use --transient"),
            (["send", "T", "-c", ""], "--server-category is empty"),
            (["send", "T", "-c"], "Missing value for '-c <type>'"),
            (["send", "T", "--expire-time", "soon"], "'soon' is invalid for '--expire-time <ms>'"),
            (["send", "T", "--replace-id"], "Missing value for '--replace-id <id>'"),
            (["send", "T", "B", "extra"], "Unexpected argument 'extra'"),
            (["alert", "T", "--cancel", ""], "--cancel is empty"),
            (["alert", "T", "--button", "A", "--button", ""], "--button is empty"),
            (["wait"], "Missing expected argument '<id>'"),
            (["category", "remove"], "Missing expected argument '<id>'"),
            (["category", "add", "", "-A", "a=A"], "the category id is empty"),
            (["category", "frobnicate"], "Unexpected argument 'frobnicate'"),
            (["list", "--app-name"], "Missing value for '--app-name <app-name>'"),
            (["send", "T", "--urgency", "loud"], "'low', 'normal'"),
            (["send", "T", "-u", "urgent"], "'low', 'normal'"),
            (["send", "T", "--timeout=-5"], "--timeout -5"),
            (["send", "T", "-t", "soon"], "'soon' is invalid for '-t <ms>'"),
            (["send", "T", "--user-info", "novalue"], "--user-info 'novalue': use key=value"),
            (["send", "T", "--user-info", "a=1", "--user-info", "a=2"], "given twice"),
            (["send", "T", "--sound", ""], "--sound is empty"),
            (["send", "T", "--resident", "--transient"], "not both"),
            (["send", "T", "--wait", "--", "/bin/true"], "responses go to one place"),
            (["send", "T", "--", "./true"], "a relative path"),
            (["send", "T", "--exec-on", "retry"], "--exec-on needs the command to run after '--'"),
            (
                ["send", "T", "-A", "retry=Retry", "--exec-on", "rerun", "--", "/bin/true"],
                "--exec-on 'rerun' is not one of the actions; use one of retry, default"
            ),
            (["send", "T", "--category", "c", "-A", "a=A"], "keep one"),
            (["send"], "Missing expected argument '<title>'"),
            (["send", "T", "--bogus"], "Unknown option '--bogus'"),
            (["list", "--pending", "--delivered"], "choose one"),
            (["withdraw"], "missing the id"),
            (["withdraw", "abc", "--all"], "give one id, or --all"),
            (["category", "add", "c"], "at least one --action"),
            (["category", "add", "c", "-A", "a=A", "--minimal", "b"], "--minimal 'b'"),
            (["alert", "T"], "an alert needs a button"),
            (["alert", "T", "--cancel", "No", "--text-input", "plain"], "--text-input needs a button"),
            (["alert", "T", "--button", "Go", "--text-input", "hidden"], "'plain' and 'secure'"),
            (["alert", "T", "--button", "Go", "--placeholder", "x"], "only with --text-input"),
        ])
    func malformed(arguments: [String], says: String) async throws {
        let result = try await BuiltPrograms.cli(arguments)
        #expect(result.status == 2, "\(arguments): \(result.standardError)")
        #expect(result.standardError.contains(says), "\(arguments): \(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        // No stack trace, no crash report: the error, the usage and where to read more.
        #expect(!result.standardError.contains("Fatal error") && !result.standardError.contains("Stack dump"))
        #expect(result.standardError.split(separator: "\n").count <= 4, "\(result.standardError)")
    }

    @Test("--help documents the exit statuses")
    func help() async throws {
        for arguments in [["--help"], ["send", "--help"], ["alert", "--help"]] {
            let result = try await BuiltPrograms.cli(arguments)
            #expect(result.status == 0)
            #expect(result.output.contains("EXIT STATUS"), "\(arguments)")
        }
    }

    @Test("with no bus it says so in one line and exits 1")
    func noBus() async throws {
        let result = try await BuiltPrograms.cli(["send", "Hello"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot connect to the session bus"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }
}
