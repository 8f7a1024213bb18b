import DBusCore
import DBusTestSupport
import Foundation
import Testing

/// libnotify's notify-send cases under a sandbox (`NOTIFY_FORCE_PORTAL`, as its tests force it), against a fake
/// desktop portal: one `AddNotification` under libnotify's id, with only what the portal takes, and the portal's
/// `ActionInvoked` ending the wait.
@Suite(
    "libnotify's notify-send cases: the desktop portal",
    .enabled(if: DBusMock.python != nil, "python-dbusmock is not installed; make test installs python3-dbusmock"))
struct LibnotifyPortalTests {
    /// The id libnotify gives notification `number` of notify-send outside a real sandbox.
    static func id(_ number: Int) -> String { "libnotify-flatpak.(null)-notify-send-\(number)" }

    /// Runs `arguments` to their end and returns the one `AddNotification`: its id and its content.
    static func added(_ arguments: [String], on bus: PrivateBus, _ mock: DBusMock) async throws -> (
        String, [String: DBusValue]
    ) {
        let run = try await NotifySendRun.start(arguments, route: .portal, on: bus)
        defer { run.remove() }
        let status = try await run.status()
        #expect(status == 0, "\(arguments): \(run.standardError)")
        return try decode(try await mock.onlyCall("AddNotification"))
    }

    static func decode(_ arguments: [DBusValue]) throws -> (String, [String: DBusValue]) {
        let (id, content) = try arguments.decode(String.self, [String: DBusVariant].self)
        return (id, content.mapValues(\.value.unwrappedVariant))
    }

    static func themed(_ name: String) -> DBusValue {
        .structure([.string("themed"), .variant(.strings([name, name + "-symbolic"]))])
    }

    @Test("no options: the title, body and normal priority under the id of notification 1; no Notify")
    func noOptions() async throws {
        try await withMockedPortal { bus, mock in
            let (id, content) = try await Self.added(["title", "my text"], on: bus, mock)
            #expect(id == Self.id(1))
            #expect(content == ["title": .string("title"), "body": .string("my text"), "priority": .string("normal")])
        }
    }

    @Test("every option: -r names the id, -u the priority, -i a themed icon; the portal takes nothing else")
    func options() async throws {
        try await withMockedPortal { bus, mock in
            let (id, content) = try await Self.added(
                [
                    "--replace-id", "1234", "--expire-time", "27", "--app-name", "foo.App", "--app-icon",
                    "some-app-icon", "--icon", "some-icon", "--category", "some.category", "--transient", "--hint",
                    "string:desktop-entry:notify-send-app", "--urgency", "critical", "title", "my text",
                ], on: bus, mock)
            #expect(id == Self.id(1234))
            #expect(
                content == [
                    "title": .string("title"), "body": .string("my text"), "priority": .string("urgent"),
                    "icon": Self.themed("some-icon"),
                ])
            let removed = try await mock.calls("RemoveNotification")
            #expect(removed == [[.string(Self.id(1234))]], "the one it replaces is taken away first")
        }
    }

    @Test("-i: a name is a themed icon, an existing file is sent as its bytes; -n and -h are not sent")
    func icons() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nb-icon-\(UUID()).png")
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 255]
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let cases: [([String], DBusValue?)] = [
            (["image-only", "-i", "my-image"], Self.themed("my-image")),
            (
                ["image-only", "-i", file.path],
                .structure([.string("bytes"), .variant(.array(element: "y", bytes.map(DBusValue.byte)))])
            ),
            (["app-icon-only", "-n", "my-app-icon"], nil),
            (["hints!", "-h", "int:int-hint:55", "-h", "string:string-hint:value"], nil),
        ]
        for (arguments, icon) in cases {
            try await withMockedPortal { bus, mock in
                let (_, content) = try await Self.added(arguments, on: bus, mock)
                var expected: [String: DBusValue] = [
                    "title": .string(arguments[0]), "body": .string(""), "priority": .string("normal"),
                ]
                expected["icon"] = icon
                #expect(content == expected, "\(arguments)")
            }
        }
    }

    @Test("-i naming a file that cannot be read: nothing sent, status 1")
    func missingIconFile() async throws {
        try await withMockedPortal { bus, mock in
            let run = try await NotifySendRun.start(
                ["image-path-only", "-i", "file:///this-must-not|exist"], route: .portal, on: bus)
            defer { run.remove() }
            #expect(try await run.status() == 1)
            #expect(run.standardError.hasPrefix("Failed to show notification: "), "\(run.standardError)")
            #expect(try await mock.calls("AddNotification").isEmpty)
        }
    }

    @Test(
        "the portal invokes an action: its name printed and written, the notification removed, success",
        arguments: [
            ("0", [("Foo", nil), ("Bar", "bar-action")]), ("bar-action", [("Foo", nil), ("Bar", "bar-action")]),
            ("2", [("foo", nil), ("default", "id"), ("baz", nil)]),
            ("foo-action", [("Foo", "foo-action"), ("FooBar", "foo-action")]),
        ] as [(String, [(label: String, name: String?)])])
    func activate(_ key: String, _ actions: [(label: String, name: String?)]) async throws {
        try await withMockedPortal { bus, mock in
            let (options, wire) = LibnotifyNotifySendActionTests.options(actions)
            let run = try await NotifySendRun.start(
                ["action!", "Choose it"] + options, descriptors: [.id, .selectedAction], route: .portal, on: bus)
            defer { run.remove() }
            #expect(try await run.line(of: .id) == "1")
            let (id, content) = try Self.decode(try await mock.onlyCall("AddNotification"))
            let buttons = stride(from: 0, to: wire.count, by: 2).map {
                DBusValue.vardict(["action": .string(wire[$0]), "label": .string(wire[$0 + 1])])
            }
            #expect(id == Self.id(1))
            #expect(
                content == [
                    "title": .string("action!"), "body": .string("Choose it"), "priority": .string("normal"),
                    "buttons": .array(element: "a{sv}", buttons),
                ])
            try await mock.emitPortalAction(id: id, action: key)
            #expect(try await run.status() == 0, "\(run.standardError)")
            #expect(run.standardOutput == key + "\n")
            #expect(run.written(.selectedAction) == key + "\n")
            #expect(try await mock.calls("RemoveNotification") == [[.string(id)]])
        }
    }

    @Test("the portal invokes an action the notification lacks: a warning, nothing chosen, the wait ends")
    func unknownAction() async throws {
        try await withMockedPortal { bus, mock in
            let run = try await NotifySendRun.start(
                ["action!", "Choose it", "--action=foo=Foo"], descriptors: [.id, .selectedAction], route: .portal,
                on: bus)
            defer { run.remove() }
            _ = try await run.line(of: .id)
            try await mock.emitPortalAction(id: Self.id(2), action: "foo")
            try await mock.emitPortalAction(id: Self.id(1), action: "bar")
            #expect(try await run.status() == 0, "\(run.standardError)")
            #expect(run.standardError.contains("Received unknown action bar"), "\(run.standardError)")
            #expect(run.standardOutput.isEmpty, "another notification's action is not this one's")
            #expect(run.written(.selectedAction).isEmpty)
        }
    }
}
