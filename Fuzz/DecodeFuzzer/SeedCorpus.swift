import DBusCore

/// Messages to start fuzzing from: calls of every method of `io.github.NotificationBridge1` as a client would send
/// them, valid and not, in their wire form.
enum SeedCorpus {
    static func messages() throws -> [[UInt8]] {
        try bodies.map { arguments in
            try DBusWire.encodeSignal(
                path: "/io/github/NotificationBridge", interface: "io.github.NotificationBridge1", member: "Post",
                arguments: arguments)
        }
    }

    private static let action = DBusValue.vardict([
        "id": .string("reply"), "title": .string("Reply"), "behavior": .string("text-input"),
        "activation": .string("background"), "text-input-button-title": .string("Send"),
        "text-input-placeholder": .string("Your answer"), "destructive": .boolean(false),
    ])
    private static let actions = DBusValue.array(
        element: "a{sv}",
        [
            action, .vardict(["id": .string("open"), "title": .string("Open"), "activation": .string("foreground")]),
        ])

    private static let bodies: [[DBusValue]] = [
        [.vardict(["title": .string("Hello")])],
        [
            .vardict([
                "title": .string("Ann"), "body": .string("Lunch at noon?"), "app-name": .string("Mail"),
                "desktop-entry": .string("org.example.Mail"), "icon": .string("mail-unread"),
                "category": .string("org.example.mail.message"), "user-info": .string(#"{"thread": [1, 2.5, null]}"#),
                "default-action": .string("Open"), "sound": .string("message-new-instant"),
                "urgency": .string("critical"),
                "timeout": .int32(5000), "resident": .boolean(true), "transient": .boolean(false),
                "thread": .string("t-42"), "badge": .int32(3), "actions": actions,
            ])
        ],
        [
            .vardict([
                "title": .string("Stretch"), "fire-date": .string("2026-12-24T09:00:00"), "time-zone": .string("local"),
                "repeat": .string("day"),
            ])
        ],
        [.vardict(["title": .string("Soon"), "in": .double(60), "urgency": .byte(2)])],
        [.vardict(["title": .string("Then"), "fire-date": .int64(1_900_000_000), "repeat": .string("week")])],
        [
            .vardict([
                "title": .string("Run"), "exec": .strings(["/bin/true", "--flag"]),
                "replaces": .string("0123456789abcdef"),
            ])
        ],
        [
            .vardict([
                "title": .string("App"), "desktop-entry": .string("org.example.App"), "app-action": .string("open"),
            ])
        ],
        [.vardict(["app-name": .string("Mail"), "category": .string("c"), "thread": .string("t")])],
        [
            .string("org.example.mail.message"), actions,
            .vardict([
                "minimal-actions": .strings(["reply"]), "reports-dismissal": .boolean(true),
            ]),
        ],
        [.vardict(["title": .variant(.variant(.array(element: "ay", [.array(element: "y", [.byte(0xff)])])))])],
        [.vardict(["title": .structure([.int32(1), .objectPath("/a/b"), .signature("a{sv}")])])],
        [.string("0123456789abcdef")],
    ]
}
