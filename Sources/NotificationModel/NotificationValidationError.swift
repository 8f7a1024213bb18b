/// Why an action, category or notification was rejected.
///
/// Every case carries the path of the offending field (``field``), such as `category.actions[1].id` or
/// `content.title`, written with the Swift property names. ``description`` says what was wrong and what to change;
/// it is meant to be shown to the user as it is (the daemon returns it as the D-Bus error message).
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

    /// What was wrong, in which field, and what to change.
    public var description: String {
        switch self {
        case .emptyIdentifier(let field):
            "\(field) is empty; give it an id made of ASCII letters, digits and - _ . :"
        case .identifierTooLong(let field, let byteCount, let limit):
            "\(field) is \(byteCount) bytes long; ids may be at most \(limit) bytes, shorten it"
        case .invalidIdentifierCharacter(let field, let id, let character):
            "\(field) \(quoted(id)) contains \(character.displayName); ids may contain only ASCII letters, digits "
                + "and - _ . : so remove or replace it"
        case .reservedActionID(let field, let id):
            "\(field): action id \(quoted(id)) is reserved (\(reservedList) are used by the bridge, as are ids "
                + "that start with \(ReservedActionID.snoozeKeyPrefix)); choose another id"
        case .duplicateActionID(let field, let id):
            "\(field): action id \(quoted(id)) is used more than once; give each action its own id"
        case .duplicateCategoryID(let field, let id):
            "\(field): category id \(quoted(id)) is used more than once; give each category its own id"
        case .unknownCategory(let field, let id):
            "\(field): category \(quoted(id)) is not registered; register the category first, or fix the id"
        case .categoryWithInlineActions(let field, let categoryID):
            "\(field) lists actions, but the notification also uses category \(quoted(categoryID)); "
                + "use either the category's actions or inline actions without a category"
        case .multipleTextInputActions(let field, let ids):
            "\(field): actions \(ids.map(quoted).joined(separator: ", ")) all ask for text, but a notification can "
                + "show only one text field; keep behavior .textInput on one of them"
        case .tooManyActions(let field, let count, let limit):
            "\(field) has \(count) actions; at most \(limit) are allowed, remove some"
        case .tooManyMinimalActions(let field, let count, let limit):
            "\(field) has \(count) actions; at most \(limit) are allowed, keep the most important "
                + "(leave it empty to use the first \(limit) actions)"
        case .minimalActionNotInActions(let field, let id):
            "\(field): action \(quoted(id)) is not one of the category's actions; add it to actions, "
                + "or remove it from minimalActions"
        case .tooManyCategories(let field, let count, let limit):
            "\(field) has \(count) categories; at most \(limit) may be registered, remove unused ones"
        case .emptyTitle(let field):
            "\(field) is empty; give the action a title, it is the button's label"
        case .missingTitleAndBody(let field):
            "\(field).title and \(field).body are both empty; set at least one of them"
        case .emptyValue(let field):
            "\(field) is set but empty; give it a value, or leave it unset"
        case .textTooLong(let field, let byteCount, let limit):
            "\(field) is \(byteCount) bytes long (UTF-8); at most \(limit) are allowed, shorten it"
        case .containsNUL(let field):
            "\(field) contains a NUL character (U+0000), which D-Bus cannot carry; remove it"
        case .userInfoTooLarge(let field, let byteCount, let limit):
            "\(field) is \(byteCount) bytes as JSON; at most \(limit) are allowed, keep large data elsewhere "
                + "and put a reference to it in userInfo"
        case .nonFiniteNumber(let field):
            "\(field) is NaN or infinite, which JSON cannot carry; use a finite number, a string or null"
        case .invalidTimeout(let field, let milliseconds):
            "\(field) is \(milliseconds) milliseconds; use a positive number of milliseconds, "
                + "or .never or .serverDefault"
        case .desktopEntryHasSuffix(let field, let value):
            "\(field) \(quoted(value)) ends in .desktop; give the desktop id without the suffix "
                + "(\(quoted(String(value.dropLast(desktopSuffix.count)))))"
        case .negativeBadge(let field, let value):
            "\(field) is \(value); use 0 or more (0 hides the badge), or nil to leave the badge alone"
        case .lowUrgencyForCriticalLevel(let field):
            "\(field) is low for a critical notification, which is always sent with urgency critical; leave the "
                + "urgency out or make it critical, or choose a lower interruption level"
        case .invalidSummary(let field, let problem):
            "\(field) \(problem)"
        case .tooManySnoozeIntervals(let field, let count, let limit):
            "\(field) lists \(count) snooze intervals; at most \(limit) are allowed, keep the most useful"
        case .invalidSnoozeInterval(let field, let seconds, let limit):
            "\(field) is \(seconds) seconds; a snooze interval must be at least 1 second and at most \(limit) "
                + "seconds (7 days), schedule a notification for later ones"
        case .duplicateSnoozeInterval(let field, let seconds):
            "\(field): the snooze interval of \(seconds) seconds is listed more than once; list each once"
        case .snoozeActionIDTaken(let field):
            "\(field): the category reports snoozes as action \(quoted(NotificationResponse.snoozeActionID)), so "
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
