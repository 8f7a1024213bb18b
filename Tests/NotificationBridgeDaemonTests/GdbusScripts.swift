/// `gdbus` scripts as a user writes them, run by the tests with `/bin/sh -c` on a private bus. The examples of the
/// documentation are run from the documents themselves (`DocumentedExampleTests`); these cover more of the interface.
///
/// Placeholders in `output`: `$id` stands for the notification id the example printed or used.
struct GdbusScript: Sendable, CustomStringConvertible {
    let title: String
    let script: String
    /// What the script prints (`$id` standing for the notification's id); for WaitForResponse, when the user typed
    /// "Yes, 12:30" in the reply field.
    let output: String?

    var description: String { title }
}

enum GdbusScripts {
    static let registerCategory = GdbusScript(
        title: "Register a category once; notifications that name it show its actions",
        script: """
            gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --method io.github.NotificationBridge1.RegisterCategory org.example.mail.message \\
              "[{'id': <'reply'>, 'title': <'Reply'>, 'behavior': <'text-input'>,
                 'text-input-placeholder': <'Your answer'>},
                {'id': <'archive'>, 'title': <'Archive'>, 'activation': <'background'>},
                {'id': <'delete'>, 'title': <'Delete'>, 'activation': <'background'>, 'destructive': <true>}]" \\
              "{'minimal-actions': <['reply', 'archive']>}"
            """,
        output: "()")

    static let post = GdbusScript(
        title: "Post a notification without actions; the reply is its id",
        script: """
            gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --method io.github.NotificationBridge1.Post \\
              "{'title': <'Backup finished'>, 'body': <'42 files copied'>, 'urgency': <'low'>}"
            """,
        output: "('$id',)")

    static let postAndWait = GdbusScript(
        title: "Post with a category and wait for the user's answer (typed text comes in 'text')",
        script: """
            id=$(gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --method io.github.NotificationBridge1.Post \\
              "{'app-name': <'Mail'>, 'title': <'Ann'>, 'body': <'Lunch at noon?'>,
                'category': <'org.example.mail.message'>, 'user-info': <'{\\"message\\": 42}'>}" | cut -d"'" -f2)
            gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --timeout 3600 --method io.github.NotificationBridge1.WaitForResponse "$id"
            """,
        output: """
            ('reply', {'action': <'reply'>, 'id': <'$id'>, 'text': <'Yes, 12:30'>, 'user-info': <'{"message":42}'>})
            """)

    static let withdraw = GdbusScript(
        title: "Withdraw a notification; a WaitForResponse for it fails with ...Error.Closed",
        script: """
            gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --method io.github.NotificationBridge1.Withdraw "$id"
            """,
        output: "()")

    static let exec = GdbusScript(
        title: "Send the response to a command: no shell; the response is in its environment, typed text also on "
            + "its standard input",
        script: """
            gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --method io.github.NotificationBridge1.Post \\
              "{'title': <'Ann: lunch at noon?'>, 'user-info': <'{\\"thread\\": \\"lunch\\"}'>,
                'actions': <[{'id': <'answer'>, 'title': <'Answer'>, 'behavior': <'text-input'>,
                              'activation': <'background'>}]>,
                'exec': <['$HOME/bin/answer-ann', '--from-notification']>}"
            """,
        output: "('$id',)")

    static let appAction = GdbusScript(
        title: "Send the response to an installed app as an org.freedesktop.Application action (the app is started "
            + "if needed and raised with the activation token)",
        script: """
            gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --method io.github.NotificationBridge1.Post \\
              "{'title': <'New mail from Ann'>, 'desktop-entry': <'org.example.Mail'>, 'app-action': <true>,
                'actions': <[{'id': <'open'>, 'title': <'Open'>}]>}"
            """,
        output: "('$id',)")

    static let listDelivered = GdbusScript(
        title: "List the notifications of an app that are showing",
        script: """
            gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --method io.github.NotificationBridge1.ListDelivered "{'app-name': <'Mail'>}"
            """,
        output: nil)

    static let withdrawAll = GdbusScript(
        title: "Withdraw every notification of an app; the reply lists their ids",
        script: """
            gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --method io.github.NotificationBridge1.WithdrawAll "{'app-name': <'Mail'>}"
            """,
        output: "(['$id'],)")

    static let scheduleIn = GdbusScript(
        title: "Schedule a notification for later: 'in' is seconds from now (here 4 minutes); the reply is its id",
        script: """
            gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --method io.github.NotificationBridge1.Post \\
              "{'app-name': <'Kettle'>, 'title': <'Tea is ready'>, 'in': <240.0>}"
            """,
        output: "('$id',)")

    static let scheduleMonthly = GdbusScript(
        title: "Schedule at a wall-clock time that follows the user's time zone (09:00 wherever they are), repeating "
            + "every month",
        script: """
            gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --method io.github.NotificationBridge1.Post \\
              "{'app-name': <'Bills'>, 'title': <'Pay the rent'>,
                'fire-date': <'2030-01-01T09:00:00'>, 'time-zone': <'local'>, 'repeat': <'month'>}"
            """,
        output: "('$id',)")

    static let scheduleWeekdays = GdbusScript(
        title: "Every weekday at 09:00 in the user's zone: a calendar match, with 'repeat': <true> for every match",
        script: """
            gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --method io.github.NotificationBridge1.Post \\
              "{'app-name': <'Team'>, 'title': <'Stand-up'>, 'body': <'Room 4'>,
                'calendar': <{'weekdays': <['monday', 'tuesday', 'wednesday', 'thursday', 'friday']>,
                              'hour': <9>, 'minute': <0>}>, 'repeat': <true>}"
            """,
        output: "('$id',)")

    static let listPending = GdbusScript(
        title: "List an app's scheduled notifications, earliest first: the keys they were posted with, and "
            + "'next-fire-date' (seconds since 1970); Withdraw cancels one",
        script: """
            gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --method io.github.NotificationBridge1.ListPending "{'app-name': <'Team'>}"
            """,
        output: nil)

    static let serverInformation = GdbusScript(
        title: "Ask what the notification server can do, and what the bridge does about it",
        script: """
            gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \\
              --method io.github.NotificationBridge1.GetServerInformation
            """,
        output: nil)

    /// Every script.
    static let all = [
        registerCategory, post, postAndWait, withdraw, exec, appAction, listDelivered, withdrawAll, scheduleIn,
        scheduleMonthly, scheduleWeekdays, listPending, serverInformation,
    ]
}
