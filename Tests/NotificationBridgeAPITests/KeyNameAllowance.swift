import NotificationBridgeAPI

/// A file that may quote some key names of the tables as string literals, and why: where the same word is another
/// format's (the model's Codable keys, freedesktop hints, D-Bus argument names, command-line words) or a value.
struct KeyNameAllowance {
    /// The file, from the package root.
    let file: String
    /// The key names it may quote; `nil` for any.
    let keys: [String]?
    let reason: String

    init(_ file: String, _ keys: [String]?, _ reason: String) {
        self.file = file
        self.keys = keys
        self.reason = reason
    }

    static func allows(_ file: String, _ key: String) -> Bool {
        all.contains { $0.file == file && ($0.keys?.contains(key) ?? true) }
    }

    static let all = userScripts + otherFormats + values + textInputBehavior + doctorOutput

    /// Scripts as users write them: commands and their output, kept as literal text.
    static let userScripts = [
        KeyNameAllowance(
            "Tests/NotificationBridgeDaemonTests/GdbusScripts.swift", nil, "gdbus commands as users write them"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/CLIScripts.swift", nil, "command line output as users see it"),
        KeyNameAllowance(
            "Tests/NotificationBridgeDaemonTests/GdbusScriptTests.swift", [ResponseKeys.id.name],
            "the scripts' shell variable $id"),
    ]

    /// Other formats that use the same words: not this interface's dictionaries.
    static let otherFormats: [KeyNameAllowance] =
        notificationModel + freedesktop + dbus + commandLine + testData

    static let notificationModel = [
        KeyNameAllowance(
            "Sources/NotificationModel/AppNotificationSettings.swift",
            [SettingsKeys.sound.name, SettingsKeys.badge.name],
            "the names of the kinds an app asks for: values of 'requested', in the model, which has no key tables"),
        KeyNameAllowance(
            "Sources/NotificationModel/NotificationAction+Behavior.swift",
            [ActionKeys.textInputButtonTitle.name, ActionKeys.textInputPlaceholder.name], "the model's Codable keys"),
        KeyNameAllowance(
            "Sources/NotificationModel/NotificationAction+Codable.swift",
            [ActionKeys.authenticationRequired.name, ActionKeys.destructive.name, ActionKeys.textInputFallback.name],
            "the model's Codable keys"),
        KeyNameAllowance(
            "Sources/NotificationModel/NotificationAction+Validation.swift", [ResponseKeys.action.name],
            "the path named in validation errors"),
        KeyNameAllowance(
            "Sources/NotificationModel/NotificationCategory+Validation.swift", [PostKeys.category.name],
            "the path named in validation errors"),
        KeyNameAllowance(
            "Sources/NotificationModel/NotificationCategory.swift",
            [
                CategoryOptionKeys.minimalActions.name, CategoryOptionKeys.reportsDismissal.name,
                CategoryOptionKeys.summaryFormat.name,
                CategoryOptionKeys.snooze.name, CategoryOptionKeys.reportsSnooze.name,
            ],
            "the model's Codable keys"),
        KeyNameAllowance(
            "Tests/DBusCoreTests/DictionaryListReplyTests.swift", [CategoryOptionKeys.snooze.name],
            "an app's own action id: a value"),
        KeyNameAllowance(
            "Tests/ReliabilityTests/CategoryInUseTests.swift", [CategoryOptionKeys.snooze.name],
            "an app's own action id: a value"),
        KeyNameAllowance(
            "Sources/NotificationModel/NotificationContent+Codable.swift",
            [
                PostKeys.appName.name, PostKeys.category.name, PostKeys.defaultAction.name, PostKeys.desktopEntry.name,
                PostKeys.resident.name, PostKeys.thread.name, PostKeys.transient.name, PostKeys.userInfo.name,
                PostKeys.bodyMarkup.name, PostKeys.interruptionLevel.name, PostKeys.summaryArgument.name,
                PostKeys.summaryArgumentCount.name, PostKeys.threadSummary.name,
                PostKeys.bodyMarkup.name, PostKeys.snooze.name,
            ],
            "the model's Codable keys"),
        KeyNameAllowance(
            "Tests/NotificationModelTests/NotificationContentCodingTests.swift", [PostKeys.interruptionLevel.name],
            "the model's Codable keys"),
        KeyNameAllowance(
            "Tests/NotificationModelTests/InterruptionLevelTests.swift",
            [PostKeys.interruptionLevel.name, SettingsKeys.timeSensitive.name],
            "the model's Codable key, and a level's name (a value of it)"),
        KeyNameAllowance(
            "Sources/NotificationModel/NotificationResponse.swift",
            [ResponseKeys.activationToken.name, ResponseKeys.userInfo.name, CategoryOptionKeys.snooze.name],
            "the model's Codable keys, and the action id a reported snooze comes with (a value)"),
        KeyNameAllowance(
            "Sources/NotificationModel/Trigger+Codable.swift", [PostKeys.fireDate.name, PostKeys.repeat.name],
            "the model's Codable keys"),
        KeyNameAllowance(
            "Sources/NotificationScheduling/ScheduledNotification.swift",
            [PostKeys.appName.name, PostKeys.timeZone.name], "the store's Codable keys"),
        KeyNameAllowance(
            "Sources/NotificationBridgeDaemon/ResponseRoute.swift",
            [PostKeys.appAction.name, PostKeys.desktopEntry.name, PostKeys.exec.name],
            "the store's Codable route keys"),
        KeyNameAllowance(
            "Tests/NotificationModelTests/NotificationActionTests.swift",
            ActionKeys.all.map(\.name) + [AttachOptionKeys.foreground.name], "the model's JSON, and its values"),
        KeyNameAllowance(
            "Tests/NotificationModelTests/NotificationCategoryTests.swift",
            [CategoryKeys.id.name] + CategoryOptionKeys.all.map(\.name), "the model's JSON"),
        KeyNameAllowance(
            "Tests/NotificationModelTests/NotificationContentCodingTests.swift",
            PostKeys.content.map(\.name) + [ActionKeys.id.name], "the model's JSON, and user-info of its own"),
        KeyNameAllowance(
            "Tests/NotificationModelTests/NotificationContentValidationTests.swift",
            [ActionKeys.id.name, PostKeys.calendar.name], "user-info of its own, and a category id"),
        KeyNameAllowance(
            "Tests/NotificationModelTests/TriggerCodingTests.swift",
            [PostKeys.fireDate.name, PostKeys.repeat.name, PostKeys.calendar.name]
                + CalendarKeys.all.map(\.name)
                .filter { $0 != CalendarKeys.day.name && $0 != CalendarKeys.second.name },
            "the model's JSON"),
    ]

    /// Names of org.freedesktop.Notifications (hints, capabilities, arguments) and org.freedesktop.Application.
    static let freedesktop = [
        KeyNameAllowance(
            "Sources/NotificationBridge/Attention/DoNotDisturbReader+Mako.swift", [SettingsKeys.doNotDisturb.name],
            "the name of mako's mode that hides notifications, a user's mako configuration word"),
        KeyNameAllowance(
            "Tests/NotificationBridgeTests/Attention/DesktopDoNotDisturbRuleTests.swift",
            [SettingsKeys.doNotDisturb.name], "mako mode names, as a user's mako configuration writes them"),
        KeyNameAllowance(
            "Sources/NotificationBridge/Portal/PortalWire.swift", nil,
            "the XDG notification portal's keys and values (AddNotification, buttons, platform data, options)"),
        KeyNameAllowance(
            "Sources/FreedesktopNotifications/PortalInfo.swift", [PostKeys.category.name],
            "the portal's SupportedOptions key listing the desktop's categories"),
        KeyNameAllowance(
            "Sources/NotificationBridge/Portal/PortalInfo+ServerInfo.swift",
            [PostKeys.actions.name, PostKeys.body.name, PostKeys.sound.name],
            "freedesktop capabilities the portal's features correspond to"),
        KeyNameAllowance(
            "Tests/NotificationBridgeTests/Portal/PortalStandIn.swift",
            [ResponseKeys.action.name, ResponseKeys.id.name],
            "org.freedesktop.portal.Notification argument names"),
        KeyNameAllowance(
            "Sources/NotificationBridge/NotifyEncoder.swift", hints.filter { $0 != PostKeys.category.name },
            "freedesktop hint names (the category hint is only ever the caller's)"),
        KeyNameAllowance(
            "Sources/NotificationBridgeDaemon/Peers/DaemonCore+Peers.swift", [PostKeys.category.name],
            "the freedesktop category hint, one of those a sandboxed app may pass"),
        KeyNameAllowance(
            "Tests/NotificationBridgeTests/ServerQuirkTests.swift", [PostKeys.category.name],
            "the freedesktop category hint a caller sets"),
        KeyNameAllowance(
            "Tests/InteropTests/DesktopSession.swift", [ResponseKeys.text.name], "an accessibility role name"),
        KeyNameAllowance(
            "Tests/InteropTests/InteropCases+Plasma.swift", [ResponseKeys.text.name],
            "the accessibility role of Plasma's reply field"),
        KeyNameAllowance(
            "Tests/NotificationBridgeDaemonTests/SettingsTests.swift",
            [PostKeys.resident.name, PostKeys.transient.name], "freedesktop hints the server received"),
        KeyNameAllowance(
            "Sources/NotificationBridge/NotificationServerInfo.swift", [PostKeys.actions.name],
            "a freedesktop capability"),
        KeyNameAllowance(
            "Sources/NotificationBridge/Desktop/AppActivator.swift", [ResponseKeys.activationToken.name],
            "org.freedesktop.Application platform data"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/HintSpec.swift",
            [PostKeys.desktopEntry.name, PostKeys.resident.name, PostKeys.transient.name, PostKeys.urgency.name],
            "freedesktop hint names the CLI takes with --hint"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/HintSpec+Keys.swift", hints, "freedesktop hint names (--hint)"),
        KeyNameAllowance(
            "Benchmarks/DBusBench/AsyncFloor.swift", [PostKeys.urgency.name],
            "the freedesktop hint of the raw Notify the benchmark's floor sends"),
        KeyNameAllowance(
            "Sources/NotificationServerKit/NotificationServer+Interface.swift",
            [
                PostKeys.actions.name, PostKeys.body.name, PostKeys.hints.name, ListedKeys.id.name,
                ResponseKeys.text.name,
            ],
            "org.freedesktop.Notifications argument names"),
        KeyNameAllowance(
            "Sources/NotificationServerKit/NotificationServerProfile+Presets.swift",
            [PostKeys.actions.name, PostKeys.body.name, PostKeys.sound.name], "freedesktop capabilities"),
        KeyNameAllowance(
            "Sources/NotificationServerKit/NotificationServerProfile.swift", [PostKeys.actions.name],
            "a freedesktop capability"),
        KeyNameAllowance(
            "Sources/FreedesktopNotifications/StandardHint.swift", [PostKeys.desktopEntry.name],
            "the freedesktop hint names"),
        KeyNameAllowance(
            "Sources/NotificationServerKit/ServedNotification.swift",
            [PostKeys.category.name, PostKeys.desktopEntry.name, PostKeys.resident.name, PostKeys.transient.name],
            "freedesktop hint names"),
        KeyNameAllowance(
            "Sources/TerminalNotificationServer/TerminalServerConfiguration.swift",
            [PostKeys.actions.name, PostKeys.body.name], "freedesktop capabilities"),
        KeyNameAllowance(
            "Benchmarks/DBusBench/BenchNotificationServer.swift",
            [PostKeys.actions.name, PostKeys.body.name, PostKeys.hints.name, ListedKeys.id.name],
            "org.freedesktop.Notifications capabilities and argument names"),
        KeyNameAllowance(
            "Tests/NotificationBridgeTests/NotifyEncoderTests.swift",
            hints + [PostKeys.actions.name, PostKeys.body.name, PostKeys.sound.name],
            "freedesktop hint names and capabilities"),
        KeyNameAllowance(
            "Tests/NotificationBridgeTests/ActivationAndLockTests.swift", [ResponseKeys.activationToken.name],
            "org.freedesktop.Application platform data"),
        KeyNameAllowance(
            "Tests/NotificationBridgeTests/Desktop/AppActivatorTests.swift",
            [ResponseKeys.activationToken.name, PostKeys.thread.name],
            "org.freedesktop.Application platform data, and user-info of its own"),
        KeyNameAllowance(
            "Tests/NotificationBridgeDaemonTests/RoutingTests.swift", [ResponseKeys.activationToken.name],
            "org.freedesktop.Application platform data"),
        KeyNameAllowance(
            "Tests/NotificationBridgeTests/InterruptionLevelWireTests.swift", [PostKeys.urgency.name],
            "the freedesktop hint name"),
        KeyNameAllowance(
            "Tests/NotificationBridgeDaemonTests/InterruptionLevelTests.swift", [PostKeys.urgency.name],
            "the freedesktop hint name"),
        KeyNameAllowance(
            "Tests/NotificationBridgeDaemonTests/CriticalPermissionTests.swift", [PostKeys.urgency.name],
            "the freedesktop hint name"),
        KeyNameAllowance(
            "Tests/NotificationBridgeDaemonTests/HintsTests.swift",
            [PostKeys.category.name, PostKeys.transient.name, PostKeys.urgency.name], "freedesktop hint names"),
        KeyNameAllowance(
            "Tests/NotificationServerKitTests/ActionTests.swift", [PostKeys.resident.name], "a freedesktop hint name"),
        KeyNameAllowance(
            "Tests/NotificationServerKitTests/LifecycleTests.swift",
            [PostKeys.transient.name, CalendarKeys.second.name],
            "a freedesktop hint name, and a summary"),
        KeyNameAllowance(
            "Tests/NotificationServerKitTests/MalformedNotifyTests.swift",
            [PostKeys.urgency.name, ResponseKeys.text.name],
            "a freedesktop hint name, and a body"),
        KeyNameAllowance(
            "Tests/NotificationServerKitTests/NotifyRecordingTests.swift",
            [PostKeys.category.name, PostKeys.resident.name, PostKeys.urgency.name], "freedesktop hint names"),
        KeyNameAllowance(
            "Tests/NotificationServerKitTests/ProfileTests.swift", [PostKeys.actions.name, PostKeys.body.name],
            "freedesktop capabilities"),
        KeyNameAllowance(
            "Tests/TerminalNotificationServerTests/TerminalServerProcessTests.swift", [PostKeys.actions.name],
            "a freedesktop capability"),
    ]

    /// The freedesktop hints that share a name with a key of `Post`.
    static let hints = [
        PostKeys.category.name, PostKeys.desktopEntry.name, PostKeys.resident.name, PostKeys.transient.name,
        PostKeys.urgency.name,
    ]

    /// D-Bus itself: argument names, directions, and the test data of DBusCore's tests.
    static let dbus = [
        KeyNameAllowance("Sources/DBusCore/Introspection.swift", [PostKeys.delay.name], "an argument's direction"),
        KeyNameAllowance(
            "Sources/NotificationBridgeDaemon/NotificationID.swift", [ResponseKeys.id.name],
            "the D-Bus argument named in errors"),
        KeyNameAllowance("Tests/DBusCoreTests/CallTests.swift", [ResponseKeys.text.name], "test data"),
        KeyNameAllowance("Tests/DBusCoreTests/GVariantTextTests.swift", [ResponseKeys.text.name], "test data"),
        KeyNameAllowance("Tests/DBusCoreTests/IntrospectionTests.swift", [PostKeys.delay.name], "argument direction"),
        KeyNameAllowance("Tests/DBusCoreTests/MatchRuleTests.swift", [CalendarKeys.second.name], "test data"),
        KeyNameAllowance("Tests/DBusCoreTests/SignalDeliveryTests.swift", [ResponseKeys.text.name], "test data"),
        KeyNameAllowance("Tests/DBusCoreTests/TestObject.swift", [ResponseKeys.text.name], "an argument name"),
        KeyNameAllowance(
            "Tests/DBusCoreTests/TypedArgumentTests.swift",
            [PostKeys.category.name, CalendarKeys.second.name, PostKeys.urgency.name], "test data"),
    ]

    /// Command-line words: option names, value names, subcommands, help text, the terminal server's commands.
    static let commandLine = [
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/FocusCommand.swift", [FocusOptionKeys.duration.name],
            "the focus on command's --for option"),
        KeyNameAllowance(
            "Tests/InteropTests/InteropCases.swift", [PostKeys.category.name], "the CLI's category subcommand"),
        KeyNameAllowance(
            "Sources/NotificationBridgeDaemon/DaemonCommandLine.swift", [ResponseKeys.text.name],
            "a value name in the daemon's help"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/ActionSpec.swift",
            [ActionKeys.destructive.name, AttachOptionKeys.foreground.name], "words of the --action form"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/AlertCommand.swift",
            [ResponseKeys.text.name, ActionKeys.title.name, SettingsKeys.style.name],
            "value names, and a field of the alert command's own JSON output"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/CalendarSpec.swift", [CalendarKeys.day.name], "a word of --every"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/CategoryCommand.swift",
            [ResponseKeys.action.name, PostKeys.category.name, ActionKeys.id.name], "option and value names"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/ManageCommands.swift", [FilterKeys.appName.name, ActionKeys.id.name],
            "option and value names"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/PostOptions.swift",
            [
                PostKeys.appName.name, PostKeys.icon.name, ActionKeys.id.name, PostKeys.sound.name,
                PostKeys.timeout.name, PostKeys.transient.name, PostKeys.urgency.name, PostKeys.userInfo.name,
            ],
            "option and value names"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/ScheduleOptions.swift", [PostKeys.delay.name, PostKeys.repeat.name],
            "option names"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/NotifySendArguments.swift",
            [
                PostKeys.urgency.name, PostKeys.appName.name, PostKeys.icon.name, PostKeys.category.name,
                PostKeys.transient.name, ResponseKeys.action.name,
            ],
            "notify-send's option names"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/NotifySendNotification.swift",
            [PostKeys.category.name, PostKeys.urgency.name, PostKeys.transient.name, PostKeys.desktopEntry.name],
            "freedesktop hints, which notify-send sends the server itself"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/NotifySendPortal.swift",
            [
                PostKeys.defaultAction.name, PostKeys.body.name, PostKeys.title.name, ResponseKeys.action.name,
                PostKeys.icon.name,
            ],
            "the notification portal's keys, which notify-send sends the portal itself"),
        KeyNameAllowance("Tests/NotificationBridgeCLITests/DBusMock.swift", nil, "python-dbusmock's recorded calls"),
        KeyNameAllowance(
            "Tests/NotificationBridgeAPITests/InterfaceDocumentationTests.swift", nil,
            "the key tables' own names, which the manual page's sections are titled after"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/LibnotifyNotifySendActionTests.swift", nil,
            "freedesktop hints and capabilities, and python-dbusmock's recorded calls"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/LibnotifyNotifySendTests.swift", nil,
            "freedesktop hints, and python-dbusmock's recorded calls"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/LibnotifyPortalTests.swift", nil,
            "the notification portal's keys, as the fake portal records them"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/NotifySendSandboxTests.swift",
            [PostKeys.urgency.name, PostKeys.desktopEntry.name], "freedesktop hints"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/NotifySendWaitTests.swift", [PostKeys.defaultAction.name],
            "the freedesktop default action's name"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/DoctorProbe.swift", [PostKeys.actions.name],
            "the freedesktop capability"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/DoctorReport.swift", [PostKeys.actions.name, PostKeys.sound.name],
            "a field of doctor's own JSON output, and the freedesktop capability 'sound'"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/DoctorTests.swift", [PostKeys.actions.name],
            "a field of doctor's JSON output, and the freedesktop capability"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/NotifySendOptionsTests.swift",
            [PostKeys.actions.name, ResponseKeys.id.name, ResponseKeys.action.name],
            "the freedesktop capability, and the files the --…-fd options write"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/ErrorPathTests.swift", [PostKeys.category.name], "a subcommand"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/InvocationTests.swift", [PostKeys.category.name], "a subcommand"),
        KeyNameAllowance(
            "Sources/NotificationBridgeCommands/SendCommand.swift", [ResponseKeys.action.name, ResponseKeys.id.name],
            "option and value names, and help text"),
        KeyNameAllowance(
            "Sources/TerminalNotificationServer/TerminalServerCommand.swift", [ResponseKeys.text.name],
            "a value name"),
        KeyNameAllowance(
            "Sources/TerminalNotificationServer/TerminalCommand.swift", [ResponseKeys.action.name],
            "a terminal server command"),
        KeyNameAllowance(
            "Tests/TerminalNotificationServerTests/TerminalCommandTests.swift", [ResponseKeys.action.name],
            "a terminal server command"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/CommandLineTests.swift", [PostKeys.category.name], "a subcommand"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/DunstCLITests.swift", [PostKeys.category.name], "a subcommand"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/EndToEndTests.swift", [PostKeys.category.name], "a subcommand"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/HelpSnapshotTests.swift", [PostKeys.category.name], "a subcommand"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/SnoozeCLITests.swift", [PostKeys.category.name], "a subcommand"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/ResponseTests.swift", [PostKeys.category.name, ActionKeys.title.name],
            "a subcommand, and a field of the alert command's own JSON output"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/SchedulingCLITests.swift", [CalendarKeys.day.name], "a --repeat value"),
    ]

    /// Data of a test's own that happens to be a key's name: user-info members, file names, summaries.
    static let testData = [
        KeyNameAllowance(
            "Tests/InteropTests/InteropRun+Sway.swift", [ResponseKeys.id.name],
            "the JSON `makoctl list` prints (busctl's), whose notifications have an id"),
        KeyNameAllowance(
            "Tests/NotificationBridgeTests/BridgeFixture.swift", [PostKeys.thread.name], "user-info of its own"),
        KeyNameAllowance(
            "Tests/NotificationBridgeTests/DunstEndToEndTests.swift", [PostKeys.thread.name], "user-info of its own"),
        KeyNameAllowance(
            "Tests/NotificationBridgeTests/RoutingTests.swift", [PostKeys.thread.name], "user-info of its own"),
        KeyNameAllowance(
            "Tests/NotificationBridgeTests/Desktop/LockGateTests.swift", [CalendarKeys.second.name], "a label"),
        KeyNameAllowance(
            "Tests/NotificationBridgeDaemonTests/ExecRouteTests.swift",
            [ResponseKeys.action.name, ResponseKeys.id.name, ResponseKeys.userInfo.name, PostKeys.thread.name],
            "files the test's recording command writes, and user-info of its own"),
        KeyNameAllowance(
            "Tests/ReliabilityTests/SpoofedSignalTests.swift", [ResponseKeys.action.name, ResponseKeys.text.name],
            "files the test's recording command writes"),
        KeyNameAllowance(
            "Tests/NotificationBridgeDaemonTests/HistoryTests.swift",
            [
                ResponseKeys.action.name, ResponseKeys.id.name, ResponseKeys.userInfo.name,
                ServerInformationKeys.textInput.name,
            ],
            "files the test's recording command writes"),
        KeyNameAllowance(
            "Tests/NotificationBridgeDaemonTests/HistoryLockTests.swift",
            [ResponseKeys.action.name, AttachOptionKeys.foreground.name],
            "a file the test's recording command writes, and an activation"),
    ]

    /// Values that are also the name of a key: an activation, a repeat interval, user-info of the test's own.
    static let values = [
        KeyNameAllowance(
            "Tests/NotificationStoreTests/RowFieldsTests.swift", [FocusOptionKeys.until.name],
            "a field of the test's own row, which has nothing to do with a focus mode's end"),
        KeyNameAllowance(
            "Sources/NotificationModel/NotificationInterruptionLevel.swift", [SettingsKeys.timeSensitive.name],
            "the name of the level, a value of interruption-level"),
        KeyNameAllowance(
            "Tests/NotificationBridgeCLITests/SettingsCLITests.swift", [SettingsKeys.timeSensitive.name],
            "the name of the level, a value of --level"),
        KeyNameAllowance(
            "Fuzz/DecodeFuzzer/SeedCorpus.swift",
            [CalendarKeys.day.name, AttachOptionKeys.foreground.name, PostKeys.thread.name],
            "an activation, a repeat interval, user-info of its own"),
        KeyNameAllowance(
            "Sources/notification-bridge-demo/DemoMessages.swift", [AttachOptionKeys.foreground.name], "an activation"),
        KeyNameAllowance(
            "Tests/NotificationBridgeDaemonTests/RoutingTests.swift", [AttachOptionKeys.foreground.name],
            "an activation"),
        KeyNameAllowance(
            "Tests/NotificationBridgeDaemonTests/MalformedCallTests.swift", [CalendarKeys.day.name],
            "a repeat interval"),
        KeyNameAllowance(
            "Tests/ReliabilityTests/SpoofedSignalTests.swift", [AttachOptionKeys.foreground.name], "an activation"),
    ]

    /// The `text-input` behavior, a value of an action's `behavior` that is also the name of a key of
    /// `GetServerInformation`.
    static let textInputBehavior = [
        "Fuzz/DecodeFuzzer/SeedCorpus.swift", "Sources/NotificationBridgeCommands/ActionSpec.swift",
        "Sources/NotificationModel/NotificationAction+Behavior.swift",
        "Sources/notification-bridge-demo/DemoMessages.swift",
        "Tests/NotificationBridgeDaemonTests/ExecRouteTests.swift",
        "Tests/NotificationBridgeDaemonTests/MalformedCallTests.swift",
        "Tests/NotificationBridgeDaemonTests/RoutingTests.swift",
        "Tests/NotificationModelTests/NotificationActionTests.swift", "Tests/ReliabilityTests/DaemonRig.swift",
    ].map { KeyNameAllowance($0, [ServerInformationKeys.textInput.name], "the text-input behavior, a value") }

    /// `doctor --json`'s own output, whose fields share names with the keys they come from.
    static let doctorOutput = [
        "Sources/NotificationBridgeCommands/DoctorReport.swift", "Tests/NotificationBridgeCLITests/DoctorTests.swift",
    ].map {
        KeyNameAllowance(
            $0,
            [
                ServerInformationKeys.textInput.name, ServerInformationKeys.promptProgram.name,
                ServerInformationKeys.promptAvailable.name,
            ],
            "fields of doctor's own JSON output")
    }
}
