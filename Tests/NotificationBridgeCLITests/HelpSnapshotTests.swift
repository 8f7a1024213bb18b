import DBusTestSupport
import Foundation
import Testing

/// Every command's `--help`, compared with the text stored in `HelpSnapshots/` (80 columns wide). After an intended
/// change, regenerate with `NB_UPDATE_HELP_SNAPSHOTS=1 swift test --filter HelpSnapshotTests` and read the diff.
@Suite("notification-bridge --help")
struct HelpSnapshotTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("HelpSnapshots")

    static let commands: [[String]] = [
        [], ["send"], ["alert"], ["wait"], ["list"], ["withdraw"], ["category"], ["category", "add"],
        ["category", "remove"], ["category", "list"], ["server-info"], ["monitor"], ["settings"], ["doctor"],
        ["history"], ["act"], ["focus"], ["focus", "on"], ["focus", "off"], ["focus", "status"],
        ["focus", "schedule"], ["focus", "modes"],
    ]

    @Test("--help prints the stored text and exits 0", arguments: commands)
    func help(command: [String]) async throws {
        let result = try await BuiltPrograms.cli(command + ["--help"], columns: 80)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        let name = (["notification-bridge"] + command).joined(separator: "-") + ".txt"
        let file = Self.folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["NB_UPDATE_HELP_SNAPSHOTS"] != nil {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try result.standardOutput.write(to: file, atomically: true, encoding: .utf8)
        }
        let stored = try String(contentsOf: file, encoding: .utf8)
        #expect(
            result.standardOutput == stored,
            "\(name) differs; regenerate with NB_UPDATE_HELP_SNAPSHOTS=1 if the change is intended")
    }

    @Test("help for a command is also reached by 'help COMMAND' and '-h'")
    func otherSpellings() async throws {
        let long = try await BuiltPrograms.cli(["send", "--help"], columns: 80)
        let short = try await BuiltPrograms.cli(["send", "-h"], columns: 80)
        let word = try await BuiltPrograms.cli(["help", "send"], columns: 80)
        #expect(short.standardOutput == long.standardOutput)
        #expect(word.standardOutput == long.standardOutput)
        #expect(short.status == 0 && word.status == 0)
    }

    @Test("every documented exit status is in --help of the commands that can end with it")
    func exitStatuses() async throws {
        for command in [[], ["send"], ["alert"], ["wait"]] {
            let result = try await BuiltPrograms.cli(command + ["--help"], columns: 80)
            for line in ["0  ", "1  ", "2  usage error", "3  "] {
                #expect(result.output.contains("EXIT STATUS:\n") && result.output.contains("  " + line), "\(command)")
            }
        }
    }

    @Test("help is wrapped to the terminal's width, as COLUMNS gives it to the program")
    func wrappedToTheTerminal() async throws {
        let narrow = try await BuiltPrograms.cli(["send", "--help"], columns: 60)
        let wide = try await BuiltPrograms.cli(["send", "--help"], columns: 80)
        #expect(narrow.status == 0 && wide.status == 0)
        // Wrapped again: more lines, and an option's line within 60 columns.
        let lines = { (text: String) in text.split(separator: "\n", omittingEmptySubsequences: false) }
        #expect(lines(narrow.standardOutput).count > lines(wide.standardOutput).count)
        let urgency = lines(narrow.standardOutput).filter { $0.contains("--urgency") }
        #expect(!urgency.isEmpty && urgency.allSatisfy { $0.count <= 60 }, "\(narrow.standardOutput)")
    }
}
