import ArgumentParser
import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// `focus on|off|status|schedule|modes`.
struct FocusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract: "Turn a focus mode on or off, set its schedules, and say which is on: notifications it does not let "
            + "through wait.",
        discussion: """
            While a focus mode is on, a notification of an app or thread it does not let through waits (listed by \
            `list`) and is shown when the mode ends. Critical notifications of the apps allowed them, and \
            time-sensitive ones of the apps allowed them (`settings APP --time-sensitive on`), still pass. The \
            daemon keeps the mode across restarts.
            """,
        subcommands: [On.self, Off.self, Status.self, Schedule.self, Modes.self])

    struct On: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn on a focus mode (made if there is none of that name).",
            discussion: """
                The apps and threads given replace those the mode let through before; given none, it keeps them. \
                The mode is defined in settings.ini (man notification-bridge-settings), where this writes them. \
                Without --for or --until it stays on until `focus off`. Prints nothing.
                """)

        @Argument(help: "The mode's name, e.g. work or sleep.")
        var name: String

        @Option(
            name: .customLong("for"),
            help: ArgumentHelp("How long it stays on: 90s, 30m, 8h, 1d, 1h30m.", valueName: "duration"))
        var duration: String?

        @Option(
            help: ArgumentHelp(
                "When it ends: HH:MM or HH:MM:SS on your wall clock, the next time it shows that time.",
                valueName: "time"))
        var until: String?

        @Option(
            name: .customLong("allow-app"),
            help: ArgumentHelp(
                "An app whose notifications still reach you (repeatable): its desktop id or app name.",
                valueName: "app"))
        var apps: [String] = []

        @Option(
            name: .customLong("allow-thread"),
            help: ArgumentHelp(
                "A conversation whose notifications still reach you (repeatable): APP/THREAD, e.g. "
                    + "org.example.Chat/ann.",
                valueName: "app/thread"))
        var threads: [String] = []

        func validate() throws {
            guard !name.isEmpty else { throw ValidationError("the mode's name is empty; give one, e.g. work or sleep") }
            if duration != nil, until != nil {
                throw ValidationError("--for and --until both say when the mode ends; give one")
            }
            if let duration { _ = try Self.seconds(duration) }
            if let until { _ = try Self.wallClock(until) }
            _ = try Self.threads(threads)
        }

        func run() async throws {
            var end = FocusRequest.End.never
            if let duration { end = .after(seconds: Int64(try Self.seconds(duration).rounded(.up))) }
            if let until {
                let (hour, minute, second) = try Self.wallClock(until)
                end = .at(seconds: try LocalClock.next(hour: hour, minute: minute, second: second))
            }
            let request = FocusRequest(name: name, apps: apps, threads: try Self.threads(threads), end: end)
            let client = try await BridgeClient.connect()
            try await client.call { try await $0.turnOnFocus(request) }
        }

        /// Seconds in `--for`.
        static func seconds(_ text: String) throws -> Double {
            do {
                return try ScheduleOptions.seconds(text)
            } catch {
                throw ValidationError(
                    "--for '\(text)' is not a duration; use a number with s, m, h or d, e.g. 30m, 8h, 1h30m")
            }
        }

        /// The hour, minute and second of `--until`.
        static func wallClock(_ text: String) throws -> (Int, Int, Int) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            guard (2...3).contains(parts.count), let hour = parts[0], let minute = parts[1],
                (0..<24).contains(hour), (0..<60).contains(minute)
            else {
                throw ValidationError("--until '\(text)' is not a time of day; use HH:MM or HH:MM:SS, e.g. 18:00")
            }
            let second = parts.count == 3 ? parts[2] : 0
            guard let second, (0..<60).contains(second) else {
                throw ValidationError("--until '\(text)' is not a time of day; use HH:MM or HH:MM:SS, e.g. 18:00")
            }
            return (hour, minute, second)
        }

        /// The threads of `--allow-thread`.
        static func threads(_ texts: [String]) throws -> [FocusRequest.Thread] {
            try texts.map { text in
                guard let thread = FocusRequest.Thread(written: text) else {
                    throw ValidationError(
                        "--allow-thread '\(text)' names no app and thread; write APP/THREAD, e.g. org.example.Chat/ann")
                }
                return thread
            }
        }
    }

    struct Off: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn off the focus mode that is on, and show what it held.",
            discussion: "One a schedule turned on stays off until its period ends. Prints nothing.")

        func run() async throws {
            let client = try await BridgeClient.connect()
            try await client.call { try await $0.turnOffFocus() }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say which focus mode is on, how it came on, and until when.",
            discussion: """
                One line: the mode, then 'by hand' or 'by its schedule' and when it ends; 'none' when no mode is \
                on. JSON: an object with the keys of the ActiveFocus property (its end in ISO 8601 UTC, absent while \
                it is on until turned off; the name empty when none is on).
                """)

        @OptionGroup var output: OutputOptions

        func run() async throws {
            let client = try await BridgeClient.connect()
            let focus = try await client.call { try await DoctorProbe.activeFocus($0) } ?? .none
            if output.json { Output.printJSON(focus.json) } else { print(DoctorReport.describe(focus)) }
        }
    }
}

extension ActiveFocusState {
    /// As `focus status --json` and `doctor --json` print it: the property's keys, `until` in ISO 8601 UTC.
    var json: JSONValue {
        var members: [String: JSONValue] = [FocusKeys.name.name: .string(name), FocusKeys.cause.name: .string(cause)]
        if let until { members[FocusKeys.until.name] = .string(ISO8601Text.utc(seconds: until)) }
        return .object(members)
    }
}
