/// `notification-bridge` scripts as a user writes them, run by the tests with `/bin/sh -c` on a private bus, the built
/// `notification-bridge` first on `PATH`. The examples of the documentation are run from the documents themselves
/// (`DocumentedExampleTests`); these cover more of the command line.
///
/// Placeholders in `output`: `$id` stands for the notification id the script printed or used.
struct CLIScript: Sendable, CustomStringConvertible {
    let title: String
    let script: String
    /// What the script prints (`$id` standing for the notification's id), after the user did what the title says;
    /// `nil` when it prints nothing or what it prints depends on the machine.
    let output: String?

    var description: String { title }
}

enum CLIScripts {
    static let send = CLIScript(
        title: "Post a notification, notify-send style; `-p` prints its id",
        script: """
            notification-bridge "Backup finished" "42 files copied" -u low -i drive-harddisk -p
            """,
        output: "$id")

    static let sendAndWait = CLIScript(
        title: "Offer actions and wait: the chosen action's id is printed, and typed text on the next line",
        script: """
            notification-bridge send "Ann" "Lunch at noon?" \\
              -A 'reply=Reply,background,text-input=Send,placeholder=Your answer' \\
              -A 'delete=Delete,background,destructive' --wait
            """,
        output: "reply\nYes, 12:30")

    static let registerCategory = CLIScript(
        title: "Register a category once; notifications that name it show its actions",
        script: """
            notification-bridge category add org.example.mail.message \\
              -A 'reply=Reply,text-input,placeholder=Your answer' \\
              -A 'archive=Archive,background' -A 'delete=Delete,background,destructive' \\
              --minimal reply --minimal archive
            """,
        output: nil)

    static let categoryJSON = CLIScript(
        title: "Post with the category and wait, for a script: `--json` prints one object",
        script: """
            notification-bridge send -a Mail "Ann" "Lunch at noon?" --category org.example.mail.message \\
              --user-info message=42 --wait --json
            """,
        output: #"{"action":"reply","id":"$id","text":"Yes, 12:30","user-info":{"message":42}}"#)

    static let alert = CLIScript(
        title: "Ask with an alert: the chosen button's index and title are printed (cancel is 0, the others count "
            + "from 1, as UIAlertView numbers them); cancel or a dismissal exits 3",
        script: """
            notification-bridge alert "Delete 3 files?" "This cannot be undone." \\
              --cancel Keep --destructive Delete --button "Move to Trash"
            """,
        output: "2\tMove to Trash")

    static let waitLater = CLIScript(
        title: "Post now, wait later (from any process)",
        script: """
            id=$(notification-bridge send "Disk almost full" "2 GB left" -A open=Open -p)
            notification-bridge wait "$id"
            """,
        output: "open")

    static let hints = CLIScript(
        title: "Pass server hints: notify-send's TYPE:NAME:VALUE, or NAME=VALUE with any GVariant value",
        script: """
            notification-bridge send "Volume" "75%" -e -c device \\
              --hint int:value:75 --hint "x-canonical-private-synchronous='volume'"
            """,
        output: nil)

    static let exec = CLIScript(
        title: "Run a command when an action is chosen (argv after `--`, no shell; the response is in its environment; "
            + "without `--exec-on` it gets every response)",
        script: """
            notification-bridge send "Build failed" "make: *** [all] Error 2" -A retry=Retry -A ignore=Ignore \\
              --exec-on retry -- "$HOME/bin/rebuild" --quiet
            """,
        output: nil)

    static let listAndWithdraw = CLIScript(
        title: "List an app's notifications that are showing, then withdraw them all (each prints the ids)",
        script: """
            notification-bridge list -a Mail
            notification-bridge withdraw --all -a Mail
            """,
        output: "$id\tAnn\n$id")

    static let sendIn = CLIScript(
        title: "Remind later: `--in` takes a delay (90s, 15m, 2h, 1d, 1h30m); the daemon shows it then, even if it "
            + "restarted meanwhile",
        script: """
            notification-bridge send "Tea is ready" --in 4m
            """,
        output: nil)

    static let sendAtAndListPending = CLIScript(
        title: "At a wall-clock time (it follows your time zone when you travel); `list --pending` prints the id, "
            + "when it fires next in your zone, and the title",
        script: """
            notification-bridge send -a Family "Christmas dinner" "Table for six" --at 2030-12-24T18:00
            notification-bridge list --pending -a Family
            """,
        output: "$id\t2030-12-24 18:00:00 CET\tChristmas dinner")

    static let every = CLIScript(
        title: "Every weekday at 09:00: `--every` takes days, then a time (`--next` fires once, at the next match; "
            + "`withdraw ID` cancels)",
        script: """
            notification-bridge send -a Team "Stand-up" "Room 4" --every 'mon-fri 09:00'
            """,
        output: nil)

    static let monitor = CLIScript(
        title: "Post without `--wait`, and take the responses later: `monitor` prints each response to the app's "
            + "notifications as it comes, until Ctrl-C",
        script: """
            notification-bridge send -a Builds "Build 41 failed" -A retry=Retry,background
            notification-bridge monitor Builds --json
            """,
        output: #"{"action":"retry","id":"$id","user-info":{}}"#)

    static let foreground = CLIScript(
        title: "While your app is frontmost, take its scheduled notifications instead of showing them: `monitor "
            + "--foreground` prints `fired`, the id and the title as each comes due",
        script: """
            notification-bridge send -a Timer "Pasta is done" --in 10m
            notification-bridge monitor Timer --foreground
            """,
        output: "fired\t$id\tPasta is done")

    static let serverInformation = CLIScript(
        title: "Ask what the notification server can do, and what the bridge does about it",
        script: """
            notification-bridge capabilities
            """,
        output: nil)

    /// Every script.
    static let all = [
        send, sendAndWait, registerCategory, categoryJSON, alert, waitLater, hints, exec, listAndWithdraw, sendIn,
        sendAtAndListPending, every, monitor, foreground, serverInformation,
    ]
}
