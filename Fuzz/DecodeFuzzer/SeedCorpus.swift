import DBusCore
import NotificationBridgeAPI

/// Messages to start fuzzing from: calls of every method of `io.github.NotificationBridge1` as a client would send
/// them, valid and not, in their wire form.
enum SeedCorpus {
    static func messages() throws -> [[UInt8]] {
        try bodies.map { arguments in
            try DBusWire.encodeSignal(
                path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName, member: BridgeMethod.post.name,
                arguments: arguments)
        }
    }

    private static let action = DBusValue.vardict([
        ActionKeys.id.name: .string("reply"), ActionKeys.title.name: .string("Reply"),
        ActionKeys.behavior.name: .string("text-input"), ActionKeys.activation.name: .string("background"),
        ActionKeys.textInputButtonTitle.name: .string("Send"),
        ActionKeys.textInputPlaceholder.name: .string("Your answer"), ActionKeys.destructive.name: .boolean(false),
    ])
    private static let actions = DBusValue.array(
        element: "a{sv}",
        [
            action,
            .vardict([
                ActionKeys.id.name: .string("open"), ActionKeys.title.name: .string("Open"),
                ActionKeys.activation.name: .string("foreground"),
            ]),
        ])

    private static let bodies: [[DBusValue]] = [
        [.vardict([PostKeys.title.name: .string("Hello")])],
        [
            .vardict([
                PostKeys.title.name: .string("Ann"), PostKeys.body.name: .string("Lunch at noon?"),
                PostKeys.appName.name: .string("Mail"), PostKeys.desktopEntry.name: .string("org.example.Mail"),
                PostKeys.icon.name: .string("mail-unread"), PostKeys.category.name: .string("org.example.mail.message"),
                PostKeys.userInfo.name: .string(#"{"thread": [1, 2.5, null]}"#),
                PostKeys.defaultAction.name: .string("Open"), PostKeys.sound.name: .string("message-new-instant"),
                PostKeys.urgency.name: .string("critical"),
                PostKeys.timeout.name: .int32(5000), PostKeys.resident.name: .boolean(true),
                PostKeys.transient.name: .boolean(false),
                PostKeys.thread.name: .string("t-42"), PostKeys.badge.name: .int32(3), PostKeys.actions.name: actions,
            ])
        ],
        [
            .vardict([
                PostKeys.title.name: .string("Stretch"), PostKeys.fireDate.name: .string("2026-12-24T09:00:00"),
                PostKeys.timeZone.name: .string("local"), PostKeys.repeat.name: .string("day"),
            ])
        ],
        [
            .vardict([
                PostKeys.title.name: .string("Soon"), PostKeys.delay.name: .double(60), PostKeys.urgency.name: .byte(2),
            ])
        ],
        [
            .vardict([
                PostKeys.title.name: .string("Then"), PostKeys.fireDate.name: .int64(1_900_000_000),
                PostKeys.repeat.name: .string("week"),
            ])
        ],
        [
            .vardict([
                PostKeys.title.name: .string("Run"), PostKeys.exec.name: .strings(["/bin/true", "--flag"]),
                PostKeys.replaces.name: .string("0123456789abcdef"),
            ])
        ],
        [
            .vardict([
                PostKeys.title.name: .string("App"), PostKeys.desktopEntry.name: .string("org.example.App"),
                PostKeys.appAction.name: .string("open"),
            ])
        ],
        [
            .vardict([
                FilterKeys.appName.name: .string("Mail"), FilterKeys.category.name: .string("c"),
                FilterKeys.thread.name: .string("t"),
            ])
        ],
        [
            .string("org.example.mail.message"), actions,
            .vardict([
                CategoryOptionKeys.minimalActions.name: .strings(["reply"]),
                CategoryOptionKeys.reportsDismissal.name: .boolean(true),
            ]),
        ],
        [
            .vardict([
                PostKeys.title.name: .variant(.variant(.array(element: "ay", [.array(element: "y", [.byte(0xff)])])))
            ])
        ],
        [.vardict([PostKeys.title.name: .structure([.int32(1), .objectPath("/a/b"), .signature("a{sv}")])])],
        [.string("0123456789abcdef")],
    ]
}
