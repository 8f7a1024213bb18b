import ArgumentParser
import NotificationBridgeAPI
import NotificationModel

extension FocusCommand {
    /// `focus schedule NAME SCHEDULE... | --clear`.
    struct Schedule: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set when a focus mode turns itself on (made if there is none of that name).",
            discussion: """
                Each schedule is DAYS HH:MM-HH:MM on your wall clock, in your time zone: the days as names \
                (monday or mon), ranges (mon-fri) separated by commas, or every-day; an end before the start is on \
                the next day, so 'every-day 22:00-07:00' is every night. They replace the mode's schedules; --clear \
                leaves it only by hand. A mode turned on by hand wins over its schedules; `focus off` during a \
                scheduled period keeps it off until that period ends. Prints nothing.
                """)

        @Argument(help: "The mode's name, e.g. work or sleep.")
        var name: String

        @Argument(help: ArgumentHelp("When it is on, e.g. 'mon-fri 22:00-07:00'.", valueName: "schedule"))
        var schedules: [String] = []

        @Flag(help: "Remove its schedules: it comes on only by hand.")
        var clear = false

        func validate() throws {
            guard !name.isEmpty else { throw ValidationError("the mode's name is empty; give one, e.g. work or sleep") }
            if clear, !schedules.isEmpty {
                throw ValidationError("--clear removes the schedules that are also given; give one or the other")
            }
            if !clear, schedules.isEmpty {
                throw ValidationError(
                    "give a schedule, such as 'mon-fri 22:00-07:00', or --clear; 'focus modes' lists the schedules")
            }
        }

        func run() async throws {
            let client = try await BridgeClient.connect()
            try await client.call { try await $0.setFocusSchedules(name, clear ? [] : schedules) }
        }
    }

    /// `focus modes [--json]`.
    struct Modes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the focus modes, with what they let through and their schedules.",
            discussion: """
                One line a mode: its name, then its schedules and the apps and threads it lets through. JSON: an \
                array of objects with the keys of ListFocusModes.
                """)

        @OptionGroup var output: OutputOptions

        func run() async throws {
            let client = try await BridgeClient.connect()
            let modes = try await client.call { try await $0.focusModes() }
            if output.json {
                Output.printJSON(.array(modes.map { Output.json($0.value) }))
            } else if modes.isEmpty {
                print("no focus modes; make one with 'focus on NAME' or 'focus schedule NAME SCHEDULE'")
            } else {
                for mode in modes { print(Self.line(mode)) }
            }
        }

        /// "sleep: every-day 22:00-07:00; lets through Chat/ann", then "; holds time-sensitive ones" where it does.
        static func line(_ mode: FocusModeListing) -> String {
            let schedules = mode.schedules.isEmpty ? "by hand only" : mode.schedules.joined(separator: ", ")
            let through = mode.apps + mode.threads.map(\.written)
            return "\(mode.name): \(schedules); lets through "
                + (through.isEmpty ? "no app or thread" : through.joined(separator: ", "))
                + (mode.timeSensitive ? "" : "; holds time-sensitive ones")
        }
    }
}
