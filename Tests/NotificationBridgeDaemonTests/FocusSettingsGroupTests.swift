import DBusTestSupport
import Foundation
import NotificationBridge
import NotificationBridgeAPI
import Testing

@testable import NotificationBridgeDaemon

/// Focus modes as the settings file defines them, in `[focus NAME]` groups: what the daemon writes is what it reads
/// back, the manual page's example means what it says, and an entry that cannot be read is named by its line.
@Suite("Focus modes in settings.ini")
struct FocusSettingsGroupTests {
    /// Opens the settings kept in a new folder, with `text` as its settings.ini if given, and runs `body` with them.
    static func withStore<T: Sendable>(
        _ text: String? = nil, _ body: (NotificationSettingsStore) async throws -> T
    ) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("focus-file-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if let text {
            try text.write(to: directory.appendingPathComponent("settings.ini"), atomically: true, encoding: .utf8)
        }
        let store = try await NotificationSettingsStore.open(
            .file, directory: directory.path, environment: [:], warn: { _ in })
        let result = await outcome { try await body(store) }
        await store.close()
        return try result.get()
    }

    /// The modes `store`'s file defines, and the problems of each.
    static func read(_ store: NotificationSettingsStore) async -> [String: (mode: FocusMode?, problems: [String])] {
        await store.focusModes().mapValues { FocusMode.reading($0, in: "settings.ini") }
    }

    static let modes: [FocusMode] = {
        func mode(
            _ name: String, apps: Set<String> = [], threads: Set<FocusBreakthrough.Thread> = [],
            timeSensitive: Bool = true, schedules: [String] = []
        ) -> FocusMode {
            try! FocusMode(
                name: name,
                breakthrough: FocusBreakthrough(apps: apps, threads: threads, timeSensitive: timeSensitive),
                schedules: schedules.map { try FocusSchedule(written: $0) })
        }
        return [
            mode("sleep"),
            mode("work", apps: ["org.example.Doorbell", "Build Monitor"], timeSensitive: false),
            mode(
                "night shift", threads: [.init(app: "org.example.Chat", id: "ann"), .init(app: "Chat", id: "a;b c")],
                schedules: ["mon-fri 22:00-07:00", "sat,sun 23:30-09:00"]),
            mode(
                "Écoute", apps: ["Mail"], threads: [.init(app: "Mail", id: "boss")], timeSensitive: false,
                schedules: ["every-day 13:00-14:00"]),
        ]
    }()

    @Test("every key of a focus mode is written to settings.ini and read back as the same mode", arguments: modes)
    func roundTrip(_ mode: FocusMode) async throws {
        let read = try await Self.withStore { store in
            try await store.save(mode.settingsGroup)
            return await Self.read(store)
        }
        #expect(read.count == 1)
        #expect(read[mode.name]?.mode == mode)
        #expect(read[mode.name]?.problems == [])
    }

    @Test("a group holds the keys ListFocusModes lists, but the name its header gives")
    func sameKeysAsListed() async throws {
        let mode = Self.modes[3]
        let group = try await Self.withStore { store in
            try await store.save(mode.settingsGroup)
            return await store.focusModes()[mode.name]
        }
        let listed = try #require(WireEntries(mode.listing.value))
        #expect(Set(try #require(group).entries.keys) == Set(FocusModeKeys.settingsFileKeys.map(\.name)))
        #expect(Set(listed.values.keys) == Set(FocusModeKeys.all.map(\.name)))
        #expect(FocusModeKeys.all.map(\.name) == [FocusKeys.name.name] + FocusModeKeys.settingsFileKeys.map(\.name))
    }

    @Test("writing one mode leaves the others, comments and other groups as they were written")
    func writesOnlyItsGroup() async throws {
        let text = """
            # my modes
            [focus work]
            allow-apps = Doorbell ; Pager
            x-note=mine

            [app Mail]
            sound=false

            """
        let written = try await Self.withStore(text) { store in
            try await store.save(Self.modes[0].settingsGroup)
            let path = store.filePath
            return (try String(contentsOfFile: path, encoding: .utf8), await Self.read(store))
        }
        #expect(written.0.contains("# my modes"), "\(written.0)")
        #expect(written.0.contains("Doorbell ; Pager"), "\(written.0)")
        #expect(written.0.contains("x-note=mine"), "\(written.0)")
        #expect(written.0.contains("[focus sleep]"), "\(written.0)")
        #expect(written.1["work"]?.mode?.breakthrough.apps == ["Doorbell", "Pager"])
    }

    @Test("the example of notification-bridge-settings(5) is the mode it describes")
    func manualPageExample() async throws {
        let page = try String(contentsOfFile: repositoryFile("man/notification-bridge-settings.5"), encoding: .utf8)
        let start = try #require(page.range(of: "[focus sleep]\n"), "the manual page shows a focus group")
        let end = try #require(page.range(of: ".EE", range: start.upperBound..<page.endIndex))
        let example = String(page[start.lowerBound..<end.lowerBound]).replacingOccurrences(of: "\\-", with: "-")
        let read = try await Self.withStore(example) { await Self.read($0) }
        let sleep = try #require(read["sleep"])
        #expect(sleep.problems == [])
        #expect(sleep.mode?.breakthrough.apps == ["org.example.Doorbell"])
        #expect(sleep.mode?.breakthrough.threads == [.init(app: "org.example.Chat", id: "ann")])
        #expect(sleep.mode?.breakthrough.timeSensitive == false)
        #expect(sleep.mode?.schedules.map(\.written) == ["sun-thu 22:00-07:00", "fri,sat 22:00-09:00"])
    }

    /// An entry of `[focus sleep]` (on line 3), and what its warning must say.
    static let badEntries: [(entry: String, says: [String])] = [
        (
            "schedules=mon-fri 22-07",
            ["settings.ini:3: [focus sleep] schedules:", "'22' is not a time of day", "HH:MM"]
        ),
        ("schedules=22:00-07:00", ["settings.ini:3: [focus sleep] schedules:", "write it as mon-fri 22:00-07:00"]),
        ("schedules=someday 22:00-07:00", ["settings.ini:3:", "'someday' is not a day", "mon … sun"]),
        ("schedules=mon 25:00-07:00", ["settings.ini:3:", "'25:00' is not a time of day", "HH:MM"]),
        ("allow-threads=ann", ["settings.ini:3: [focus sleep] allow-threads:", "write each as APP/THREAD"]),
        ("allow-time-sensitive=no", ["settings.ini:3: [focus sleep] allow-time-sensitive:", "true or false"]),
        ("allow-app=Mail", ["settings.ini:3: [focus sleep] allow-app:", "use allow-apps, allow-threads"]),
    ]

    @Test(
        "an entry that cannot be read is named by its line, with what to write; the rest of the group stands",
        arguments: badEntries)
    func badEntry(_ entry: String, says: [String]) async throws {
        let text = "[focus sleep]\nallow-apps=Doorbell\n\(entry)\n"
        let sorted = try await Self.withStore(text) { await Self.read($0) }
        let sleep = try #require(sorted["sleep"])
        #expect(sleep.problems.count == 1, "\(sleep.problems)")
        for part in says { #expect(sleep.problems.first?.contains(part) == true, "\(sleep.problems)") }
        #expect(sleep.mode?.breakthrough.apps == ["Doorbell"], "the other entries stand")
    }

    @Test("a file that cannot be read at all keeps the modes read before; removed, it defines none")
    func unreadableFile() async throws {
        let modes = try await Self.withStore("[focus sleep]\nallow-apps=Doorbell;\n") { store in
            let before = await store.focusModes()
            try "[focus sleep]\nthis line is no entry\n".write(
                toFile: store.filePath, atomically: true, encoding: .utf8)
            let unreadable = await store.focusModes()
            try FileManager.default.removeItem(atPath: store.filePath)
            return (before, unreadable, await store.focusModes())
        }
        #expect(modes.0.keys.sorted() == ["sleep"])
        #expect(modes.1 == modes.0, "a slip of the pen does not turn the modes off")
        #expect(modes.2.isEmpty)
    }

    @Test("a group whose name cannot be a mode's is ignored, naming its line")
    func badName() async throws {
        let read = try await Self.withStore("# none\n[focus ]\nallow-apps=Mail\n") { await Self.read($0) }
        let group = try #require(read[""])
        #expect(group.mode == nil)
        #expect(group.problems.first?.hasPrefix("settings.ini:2: [focus ]: a focus mode needs a name") == true)
    }
}
