#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// notify-send's command line, read as notify-send reads it (GLib's option parser): options and the summary and body
/// in any order, `--` ending the options, short options grouped (`-pw`), an option's value in the next argument or
/// after `=` (`--urgency=low`), a short option's value always in the next argument (`-t 5000`, not `-t5000`).
///
/// The options are those of libnotify 0.8 (`-u -t -a -i -c -e -h -p -r -w -A -v -?`) and the newer `-n/--app-icon`,
/// `--id-fd`, `--selected-action-fd` and `--activation-token-fd`.
struct NotifySendArguments: Equatable {
    var summary: String?
    var body: String?
    var urgency: Urgency = .normal
    var expireTime: Int32 = -1
    var appName: String?
    var icon: String?
    var appIcon: String?
    var category: String?
    var transient = false
    var hints: [String] = []
    var printID = false
    /// `-r`: 0 for none; negative numbers stand for the unsigned ids above 2³¹, as in notify-send.
    var replaceID: Int32 = 0
    var wait = false
    var actions: [String] = []
    var idFD: Int32?
    var selectedActionFD: Int32?
    var activationTokenFD: Int32?
    var showVersion = false
    var showHelp = false

    /// A mistake on the command line, with notify-send's own message for it.
    struct Mistake: Error, Equatable {
        var message: String
    }

    /// What an option sets.
    private enum Key {
        case urgency, expireTime, appName, icon, appIcon, category, transient, hint, printID, idFD, replaceID, wait
        case action, selectedActionFD, activationTokenFD, version
    }

    private struct Option {
        var long: String
        var short: Character?
        var key: Key
        /// The value's name in the help; `nil` for an option without a value.
        var valueName: String?
        var help: String
    }

    private static let options: [Option] = [
        Option(
            long: "urgency", short: "u", key: .urgency, valueName: "LEVEL",
            help: "How urgent it is: low, normal or critical."),
        Option(
            long: "expire-time", short: "t", key: .expireTime, valueName: "TIME",
            help: "Milliseconds before it expires (-1 the server's default, 0 never)."),
        Option(
            long: "app-name", short: "a", key: .appName, valueName: "APP_NAME",
            help: "The name of the app it comes from."),
        Option(
            long: "icon", short: "i", key: .icon, valueName: "ICON",
            help: "An icon name or an image file, shown as the notification's image."),
        Option(
            long: "app-icon", short: "n", key: .appIcon, valueName: "ICON",
            help: "The app's icon name or file (the server may not show it)."),
        Option(
            long: "category", short: "c", key: .category, valueName: "TYPE[,TYPE...]",
            help: "The notification's category, such as email.arrived."),
        Option(long: "transient", short: "e", key: .transient, help: "Keep it out of the server's history."),
        Option(
            long: "hint", short: "h", key: .hint, valueName: "TYPE:NAME:VALUE",
            help: "A hint for the server; TYPE is boolean, int, double, string, byte or variant."),
        Option(long: "print-id", short: "p", key: .printID, help: "Print the notification's id (the server's)."),
        Option(
            long: "id-fd", short: nil, key: .idFD, valueName: "FD",
            help: "Write the notification's id to this file descriptor."),
        Option(
            long: "replace-id", short: "r", key: .replaceID, valueName: "REPLACE_ID",
            help: "The id of a notification to replace (as -p printed it)."),
        Option(long: "wait", short: "w", key: .wait, help: "Wait until the notification closes."),
        Option(
            long: "action", short: "A", key: .action, valueName: "[NAME=]Text...",
            help: "An action button (repeatable); waits, then prints the chosen NAME (or the action's index from 0)."),
        Option(
            long: "selected-action-fd", short: nil, key: .selectedActionFD, valueName: "FD",
            help: "Also write the chosen action to this file descriptor."),
        Option(
            long: "activation-token-fd", short: nil, key: .activationTokenFD, valueName: "FD",
            help: "Write the activation token of the chosen action to this file descriptor."),
        Option(long: "version", short: "v", key: .version, help: "Print the version."),
    ]

    /// Sets what `key` sets; `written` is the option as written (`-t`, `--expire-time`), for messages.
    private mutating func set(_ key: Key, _ value: String, written: String) throws(Mistake) {
        switch key {
        case .urgency:
            guard let level = Urgency(rawValue: value.lowercased()) else {
                throw Mistake(
                    message: "Unknown urgency \(value) specified. Known urgency levels: low, normal, "
                        + "critical.")
            }
            urgency = level
        case .expireTime: expireTime = try Self.integer(value, option: written)
        case .appName: appName = value
        case .icon: icon = value
        case .appIcon: appIcon = value
        case .category: category = value
        case .hint: hints.append(value)
        case .idFD: idFD = try Self.integer(value, option: written)
        case .replaceID: replaceID = try Self.integer(value, option: written)
        case .action: actions.append(value)
        case .selectedActionFD: selectedActionFD = try Self.integer(value, option: written)
        case .activationTokenFD: activationTokenFD = try Self.integer(value, option: written)
        case .transient: transient = true
        case .printID: printID = true
        case .wait: wait = true
        case .version: showVersion = true
        }
    }

    /// Reads `arguments` (without the program's name).
    ///
    /// - Throws: ``Mistake`` with the message notify-send prints for the same command line.
    init(parsing arguments: [String]) throws(Mistake) {
        var positional: [String] = []
        var index = 0
        func nextValue(for written: String) throws(Mistake) -> String {
            index += 1
            guard index < arguments.count else { throw Mistake(message: "Missing argument for \(written)") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                positional += arguments[(index + 1)...]
                break
            }
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let attached = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                if ["help", "help-all", "help-application"].contains(name) {
                    showHelp = true
                } else if let option = Self.options.first(where: { $0.long == name }) {
                    let written = "--" + name
                    var value = attached ?? ""
                    if option.valueName != nil, attached == nil { value = try nextValue(for: written) }
                    try set(option.key, value, written: written)
                } else {
                    throw Mistake(message: "Unknown option \(argument)")
                }
            } else if argument.hasPrefix("-"), argument.count > 1 {
                for letter in argument.dropFirst() {
                    if letter == "?" {
                        showHelp = true
                        continue
                    }
                    guard let option = Self.options.first(where: { $0.short == letter }) else {
                        throw Mistake(message: "Unknown option \(argument)")
                    }
                    let written = "-\(letter)"
                    let value = option.valueName == nil ? "" : try nextValue(for: written)
                    try set(option.key, value, written: written)
                }
            } else {
                positional.append(argument)
            }
            index += 1
        }
        if showHelp || showVersion { return }
        guard let first = positional.first else { throw Mistake(message: "No summary specified.") }
        guard positional.count <= 2 else { throw Mistake(message: "Invalid number of options.") }
        summary = first
        body = positional.count == 2 ? BackslashEscapes.expand(positional[1]) : nil
    }

    /// A decimal (or `0x` hexadecimal, or `0` octal) 32-bit integer, as GLib's option parser reads one.
    private static func integer(_ text: String, option: String) throws(Mistake) -> Int32 {
        errno = 0
        var end: UnsafeMutablePointer<CChar>?
        let (number, complete): (Int, Bool) = text.withCString { start in
            let number = strtol(start, &end, 0)
            return (number, end != nil && end != UnsafeMutablePointer(mutating: start) && end?.pointee == 0)
        }
        guard complete, !text.isEmpty else {
            throw Mistake(message: "Cannot parse integer value “\(text)” for \(option)")
        }
        guard errno != ERANGE, let value = Int32(exactly: number) else {
            throw Mistake(message: "Integer value “\(text)” for \(option) out of range")
        }
        return value
    }

    /// The help text `-?` and `--help` print.
    static func help(programName: String) -> String {
        var lines = [
            "Usage:", "  \(programName) [OPTION…] <SUMMARY> [BODY] - create a notification", "",
            "Help Options:", "  -?, --help                        Show help options", "", "Application Options:",
        ]
        for option in options {
            var names = option.short.map { "-\($0), " } ?? "    "
            names += "--\(option.long)"
            if let valueName = option.valueName { names += "=\(valueName)" }
            let padding = String(repeating: " ", count: max(1, 34 - names.count))
            lines.append("  \(names)\(padding)\(option.help)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
