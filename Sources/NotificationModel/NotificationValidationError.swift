/// Why an action, category or notification was rejected.
///
/// Every case carries the path of the offending field (``field``), such as `category.actions[1].id` or
/// `content.title`, written with the Swift property names. ``description`` says what was wrong and what to change;
/// it is meant to be shown to the user as it is. ``message(naming:)`` says the same with each field named as its
/// reader knows it (the daemon's D-Bus error names the key, the command line the option).
public enum NotificationValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An identifier is empty.
    case emptyIdentifier(field: String)
    /// An identifier is longer than ``NotificationLimits/maxIdentifierLength`` bytes.
    case identifierTooLong(field: String, byteCount: Int, limit: Int)
    /// An identifier holds a character other than an ASCII letter, digit, `-`, `_`, `.` or `:`.
    case invalidIdentifierCharacter(field: String, id: String, character: Unicode.Scalar)
    /// An action uses one of the ``ReservedActionID`` values.
    case reservedActionID(field: String, id: String)
    /// Two actions of one category or notification share an id.
    case duplicateActionID(field: String, id: String)
    /// Two categories share an id.
    case duplicateCategoryID(field: String, id: String)
    /// A notification names a category that is not registered.
    case unknownCategory(field: String, id: String)
    /// A notification names a category and also lists actions of its own.
    case categoryWithInlineActions(field: String, categoryID: String)
    /// More than one action asks for text; `ids` lists them all.
    case multipleTextInputActions(field: String, ids: [String])
    /// A category or notification has more than ``NotificationLimits/maxActionsPerCategory`` actions.
    case tooManyActions(field: String, count: Int, limit: Int)
    /// A category has more than ``NotificationLimits/maxMinimalActions`` minimal actions.
    case tooManyMinimalActions(field: String, count: Int, limit: Int)
    /// A minimal action has an id that none of the category's actions has.
    case minimalActionNotInActions(field: String, id: String)
    /// More than ``NotificationLimits/maxCategories`` categories.
    case tooManyCategories(field: String, count: Int, limit: Int)
    /// An action has an empty title, so its button would have no label.
    case emptyTitle(field: String)
    /// A notification has neither a title nor a body.
    case missingTitleAndBody(field: String)
    /// An optional text is set but empty.
    case emptyValue(field: String)
    /// A text is longer than its limit in ``NotificationLimits``.
    case textTooLong(field: String, byteCount: Int, limit: Int)
    /// A text contains U+0000, which D-Bus strings cannot carry.
    case containsNUL(field: String)
    /// `userInfo` is larger than ``NotificationLimits/maxUserInfoBytes`` once written as JSON.
    case userInfoTooLarge(field: String, byteCount: Int, limit: Int)
    /// `userInfo` holds NaN or an infinity, which JSON cannot carry.
    case nonFiniteNumber(field: String)
    /// A timeout of zero or fewer milliseconds.
    case invalidTimeout(field: String, milliseconds: Int32)
    /// A desktop entry id given with its `.desktop` suffix.
    case desktopEntryHasSuffix(field: String, value: String)
    /// A negative badge count.
    case negativeBadge(field: String, value: Int)
    /// A critical notification asks for urgency low, which would keep it out of sight.
    case lowUrgencyForCriticalLevel(field: String)
    /// A thread summary's format or count that cannot be used; `problem` says why and what to change.
    case invalidSummary(field: String, problem: String)
    /// More than ``NotificationLimits/maxSnoozeIntervals`` snooze intervals.
    case tooManySnoozeIntervals(field: String, count: Int, limit: Int)
    /// A snooze interval of zero or fewer seconds, or longer than ``NotificationLimits/maxSnoozeSeconds``.
    case invalidSnoozeInterval(field: String, seconds: Int, limit: Int)
    /// Two snooze intervals of the same length.
    case duplicateSnoozeInterval(field: String, seconds: Int)
    /// A category that reports snoozes (as ``NotificationResponse/snoozeActionID``) has an action of that id.
    case snoozeActionIDTaken(field: String)

    /// The path of the field that is wrong, such as `content.actions[2].id`.
    public var field: String {
        switch self {
        case .emptyIdentifier(let field), .identifierTooLong(let field, _, _),
            .invalidIdentifierCharacter(let field, _, _), .reservedActionID(let field, _),
            .duplicateActionID(let field, _), .duplicateCategoryID(let field, _), .unknownCategory(let field, _),
            .categoryWithInlineActions(let field, _), .multipleTextInputActions(let field, _),
            .tooManyActions(let field, _, _), .tooManyMinimalActions(let field, _, _),
            .minimalActionNotInActions(let field, _), .tooManyCategories(let field, _, _), .emptyTitle(let field),
            .missingTitleAndBody(let field), .emptyValue(let field), .textTooLong(let field, _, _),
            .containsNUL(let field), .userInfoTooLarge(let field, _, _), .nonFiniteNumber(let field),
            .invalidTimeout(let field, _), .desktopEntryHasSuffix(let field, _), .negativeBadge(let field, _),
            .lowUrgencyForCriticalLevel(let field),
            .invalidSummary(let field, _),
            .tooManySnoozeIntervals(let field, _, _), .invalidSnoozeInterval(let field, _, _),
            .duplicateSnoozeInterval(let field, _), .snoozeActionIDTaken(let field):
            field
        }
    }

    /// What was wrong, in which field, and what to change; fields named by their model paths (`content.appName`).
    public var description: String { message(naming: { $0 }) }

    /// What was wrong, in which field, and what to change, each field named as the reader knows it: the interface
    /// names `content.appName` by its key (`app-name`), the command line by its option (`--app-name`).
    ///
    /// - Parameter name: the name of a model path: ``field``, or a field next to it that the message mentions.
    public func message(naming name: (_ path: String) -> String) -> String {
        return switch self {
        case .emptyIdentifier:
            "\(name(field)) is empty; give it an id made of ASCII letters, digits and - _ . :"
        case .identifierTooLong(_, let byteCount, let limit):
            "\(name(field)) is \(byteCount) bytes long; ids may be at most \(limit) bytes, shorten it"
        case .invalidIdentifierCharacter(_, let id, let character):
            "\(name(field)) \(quoted(id)) contains \(character.displayName); ids may contain only ASCII letters, digits "
                + "and - _ . : so remove or replace it"
        case .reservedActionID(_, let id):
            "\(name(field)): action id \(quoted(id)) is reserved (\(reservedList) are used by the bridge, as are ids "
                + "that start with \(ReservedActionID.snoozeKeyPrefix)); choose another id"
        case .duplicateActionID(_, let id):
            "\(name(field)): action id \(quoted(id)) is used more than once; give each action its own id"
        case .duplicateCategoryID(_, let id):
            "\(name(field)): category id \(quoted(id)) is used more than once; give each category its own id"
        case .unknownCategory(_, let id):
            "\(name(field)): category \(quoted(id)) is not registered; register the category first, or fix the id"
        case .categoryWithInlineActions(_, let categoryID):
            "\(name(field)) lists actions, but the notification also uses category \(quoted(categoryID)); "
                + "use either the category's actions or inline actions without a category"
        case .multipleTextInputActions(_, let ids):
            "\(name(field)): actions \(ids.map(quoted).joined(separator: ", ")) all ask for text, but a notification can "
                + "show only one text field; keep text input on one of them"
        case .tooManyActions(_, let count, let limit):
            "\(name(field)) has \(count) actions; at most \(limit) are allowed, remove some"
        case .tooManyMinimalActions(_, let count, let limit):
            "\(name(field)) has \(count) actions; at most \(limit) are allowed, keep the most important "
                + "(leave it empty to use the first \(limit) actions)"
        case .minimalActionNotInActions(_, let id):
            "\(name(field)): action \(quoted(id)) is not one of the category's actions; add it to actions, "
                + "or remove it from \(name(String(field.prefix { $0 != "[" })))"
        case .tooManyCategories(_, let count, let limit):
            "\(name(field)) has \(count) categories; at most \(limit) may be registered, remove unused ones"
        case .emptyTitle:
            "\(name(field)) is empty; give the action a title, it is the button's label"
        case .missingTitleAndBody:
            "\(name(field + ".title")) and \(name(field + ".body")) are both empty; set at least one of them"
        case .emptyValue:
            "\(name(field)) is set but empty; give it a value, or leave it unset"
        case .textTooLong(_, let byteCount, let limit):
            "\(name(field)) is \(byteCount) bytes long (UTF-8); at most \(limit) are allowed, shorten it"
        case .containsNUL:
            "\(name(field)) contains a NUL character (U+0000), which D-Bus cannot carry; remove it"
        case .userInfoTooLarge(_, let byteCount, let limit):
            "\(name(field)) is \(byteCount) bytes as JSON; at most \(limit) are allowed, keep large data elsewhere "
                + "and put a reference to it in \(name(field))"
        case .nonFiniteNumber:
            "\(name(field)) is NaN or infinite, which JSON cannot carry; use a finite number, a string or null"
        case .invalidTimeout(_, let milliseconds):
            "\(name(field)) is \(milliseconds) milliseconds; use a positive number of milliseconds, "
                + "or .never or .serverDefault"
        case .desktopEntryHasSuffix(_, let value):
            "\(name(field)) \(quoted(value)) ends in .desktop; give the desktop id without the suffix "
                + "(\(quoted(String(value.dropLast(desktopSuffix.count)))))"
        case .negativeBadge(_, let value):
            "\(name(field)) is \(value); use 0 or more (0 hides the badge), or nil to leave the badge alone"
        case .lowUrgencyForCriticalLevel:
            "\(name(field)) is low for a critical notification, which is always sent with urgency critical; leave the "
                + "urgency out or make it critical, or choose a lower interruption level"
        case .invalidSummary(_, let problem):
            "\(name(field)) \(problem)"
        case .tooManySnoozeIntervals(_, let count, let limit):
            "\(name(field)) lists \(count) snooze intervals; at most \(limit) are allowed, keep the most useful"
        case .invalidSnoozeInterval(_, let seconds, let limit):
            "\(name(field)) is \(seconds) seconds; a snooze interval must be at least 1 second and at most \(limit) "
                + "seconds (7 days), schedule a notification for later ones"
        case .duplicateSnoozeInterval(_, let seconds):
            "\(name(field)): the snooze interval of \(seconds) seconds is listed more than once; list each once"
        case .snoozeActionIDTaken:
            "\(name(field)): the category reports snoozes as action \(quoted(NotificationResponse.snoozeActionID)), so "
                + "none of its actions may have that id; rename the action, or do not report snoozes"
        }
    }

    private var reservedList: String {
        ReservedActionID.allCases.map(\.rawValue).joined(separator: ", ")
    }
}

/// The suffix desktop entry ids are given without.
let desktopSuffix = ".desktop"

/// A string in double quotes, with quotes, backslashes and control characters escaped as in JSON, so that odd ids
/// stay readable in a message.
private func quoted(_ text: String) -> String {
    JSONValue.string(text).jsonText
}
