import ArgumentParser
import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// One `--action` value: `id=Title[,foreground|background][,destructive][,auth][,text-input[=SubmitTitle]]
/// [,placeholder=Text]`, read into the daemon's action dictionary.
///
/// Commas separate the parts; `\,` is a comma inside the title, the submit title or the placeholder. As with
/// notify-send's `-A [NAME=]Text`, the id may be left out: the action's position among the actions (from 0) is its id.
struct ActionSpec: Sendable, Equatable {
    static let form =
        "[id=]Title[,foreground|background][,destructive][,auth][,text-input[=SubmitTitle]][,placeholder=Text]"
    static let reservedIDs = ["default", "dismiss", "inline-reply"]

    var id: String
    var title: String
    var background = false
    var destructive = false
    var authenticationRequired = false
    var textInput = false
    var submitTitle: String?
    var placeholder: String?

    init(id: String, title: String) {
        self.id = id
        self.title = title
    }

    /// Reads a spec.
    ///
    /// - Throws: `ValidationError` naming `option`, the part that is wrong and the accepted form.
    init(parsing text: String, option: String = "--action") throws {
        func invalid(_ why: String) -> ValidationError {
            ValidationError("\(option) '\(text)': \(why); use \(Self.form)")
        }
        let parts = Self.split(text)
        let head = parts.first ?? ""
        if let equals = head.firstIndex(of: "=") {
            id = String(head[..<equals])
            title = String(head[head.index(after: equals)...])
            guard !id.isEmpty else { throw invalid("the id before '=' is empty") }
            guard !title.isEmpty else { throw invalid("the title after '=' is empty") }
        } else {
            // notify-send's `-A Text`: the id is the action's position, given by `list`.
            id = ""
            title = head
            guard !title.isEmpty else { throw invalid("the title is empty") }
        }
        guard !Self.reservedIDs.contains(id) else {
            throw invalid("'\(id)' is reserved (default, dismiss and inline-reply are); choose another id")
        }
        var activation: String?
        for part in parts.dropFirst() {
            let name = part.split(separator: "=", maxSplits: 1).first.map(String.init) ?? part
            let value = part.contains("=") ? String(part[part.index(after: part.firstIndex(of: "=")!)...]) : nil
            switch name {
            case "foreground", "background":
                guard value == nil else { throw invalid("'\(name)' takes no value") }
                if let activation, activation != name {
                    throw invalid("'\(activation)' and '\(name)' both given; an action is one or the other")
                }
                activation = name
                background = name == "background"
            case "destructive", "auth":
                guard value == nil else { throw invalid("'\(name)' takes no value") }
                if name == "destructive" { destructive = true } else { authenticationRequired = true }
            case "text-input":
                textInput = true
                if let value {
                    guard !value.isEmpty else { throw invalid("'text-input=' needs the submit button's title") }
                    submitTitle = value
                }
            case "placeholder":
                guard let value, !value.isEmpty else { throw invalid("'placeholder' needs text: placeholder=Text") }
                placeholder = value
            case "":
                throw invalid("an empty part (two commas, or a trailing comma)")
            default:
                throw invalid("unknown part '\(name)'")
            }
        }
        if placeholder != nil, !textInput {
            throw invalid("'placeholder' applies only to text-input actions; add ',text-input'")
        }
    }

    /// Splits at commas that are not escaped with a backslash; `\,` becomes `,` and `\\` becomes `\`.
    private static func split(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for character in text {
            if escaping {
                if character != "," && character != "\\" { current.append("\\") }
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "," {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaping { current.append("\\") }
        parts.append(current)
        return parts
    }

    /// The action as `RegisterCategory` and `Post` take it.
    var dictionary: DBusValue {
        var entries = WireEntries()
        entries[ActionKeys.id] = id
        entries[ActionKeys.title] = title
        entries[ActionKeys.activation] = background ? .background : .foreground
        if destructive { entries[ActionKeys.destructive] = true }
        // Foreground actions always require authentication; the daemon refuses only an explicit false for them.
        if authenticationRequired { entries[ActionKeys.authenticationRequired] = true }
        if textInput {
            entries[ActionKeys.behavior] = .textInput
            entries[ActionKeys.textInputButtonTitle] = submitTitle
            entries[ActionKeys.textInputPlaceholder] = placeholder
        }
        return entries.value
    }

    /// The actions as an `aa{sv}`, after giving those without an id their position as id and checking the ids are
    /// distinct.
    static func list(_ actions: [ActionSpec], option: String = "--action") throws -> DBusValue {
        .array(element: "a{sv}", try dictionaries(actions, option: option))
    }

    /// The actions' dictionaries, each numbered by its place when it has no id of its own.
    ///
    /// - Throws: `ValidationError` when two actions have the same id.
    static func dictionaries(_ actions: [ActionSpec], option: String = "--action") throws -> [DBusValue] {
        var actions = actions
        for index in actions.indices where actions[index].id.isEmpty { actions[index].id = String(index) }
        var seen: Set<String> = []
        for action in actions where !seen.insert(action.id).inserted {
            throw ValidationError("\(option): the id '\(action.id)' is given twice; give each action its own id")
        }
        return actions.map(\.dictionary)
    }
}
