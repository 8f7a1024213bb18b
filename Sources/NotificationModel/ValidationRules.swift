/// The checks shared by actions, categories and notifications, so that each rule is written once.
enum ValidationRules {
    /// Checks an identifier: not empty, not too long, only ASCII letters, digits and `-`, `_`, `.`, `:`.
    ///
    /// The character set is what survives every place an id travels unchanged: D-Bus strings, action keys on the
    /// wire, file names in the store, environment variables and command lines.
    static func checkIdentifier(_ id: String, field: String) throws(NotificationValidationError) {
        guard !id.isEmpty else { throw .emptyIdentifier(field: field) }
        let byteCount = id.utf8.count
        guard byteCount <= NotificationLimits.maxIdentifierLength else {
            throw .identifierTooLong(field: field, byteCount: byteCount, limit: NotificationLimits.maxIdentifierLength)
        }
        if let bad = id.unicodeScalars.first(where: { !isIdentifierScalar($0) }) {
            throw .invalidIdentifierCharacter(field: field, id: id, character: bad)
        }
    }

    /// Checks a text that goes to D-Bus: no NUL, and at most `limit` UTF-8 bytes.
    static func checkText(_ text: String, field: String, limit: Int) throws(NotificationValidationError) {
        let byteCount = text.utf8.count
        guard byteCount <= limit else { throw .textTooLong(field: field, byteCount: byteCount, limit: limit) }
        // In place where the bytes are contiguous (they are, for any native string): no iterator byte by byte.
        let hasNUL = text.utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? text.utf8.contains(0)
        guard !hasNUL else { throw .containsNUL(field: field) }
    }

    /// Checks an optional text that, when set, must not be empty (a `nil` says "unset" unambiguously).
    static func checkNonEmpty(_ text: String?, field: String, limit: Int) throws(NotificationValidationError) {
        guard let text else { return }
        guard !text.isEmpty else { throw .emptyValue(field: field) }
        try checkText(text, field: field, limit: limit)
    }

    /// Checks a list of actions shown together: each action, unique ids and at most one text field.
    ///
    /// The caller checks the length, whose limit and error differ between the default and the minimal context.
    static func checkActions(_ actions: [NotificationAction], field: String) throws(NotificationValidationError) {
        var seen: Set<String> = []
        for (index, action) in actions.enumerated() {
            let path = "\(field)[\(index)]"
            try action.validate(at: path)
            guard seen.insert(action.id).inserted else { throw .duplicateActionID(field: "\(path).id", id: action.id) }
        }
        let textInputIDs = actions.filter(\.isTextInput).map(\.id)
        guard textInputIDs.count <= 1 else { throw .multipleTextInputActions(field: field, ids: textInputIDs) }
    }

    /// Checks that every number in a JSON value is finite, naming the first one that is not by its path.
    static func checkFinite(_ value: JSONValue, field: String) throws(NotificationValidationError) {
        switch value {
        case .number(let number):
            guard number.isFinite else { throw .nonFiniteNumber(field: field) }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                try checkFinite(element, field: "\(field)[\(index)]")
            }
        case .object(let members):
            // Sorted so that the error names the same key every time.
            for key in members.keys.sorted() {
                try checkFinite(members[key]!, field: "\(field)[\(JSONValue.string(key).jsonText)]")
            }
        case .null, .bool, .string:
            break
        }
    }

    private static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", ":": true
        default: false
        }
    }
}
