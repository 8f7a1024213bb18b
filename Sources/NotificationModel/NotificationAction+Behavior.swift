extension NotificationAction {
    /// What an action asks of the user beyond choosing it.
    ///
    /// Encoded as keys of the object that holds it, so that an action stays one flat object: `behavior`
    /// (`default`|`text-input`) and, for text input, the keys of ``TextInput``. A missing `behavior` decodes as
    /// ``default``.
    public enum Behavior: Sendable, Hashable {
        /// A plain button.
        case `default`

        /// A button that opens a text field; the typed text arrives in ``NotificationResponse/userText``.
        ///
        /// A notification may hold at most one text-input action, because servers show at most one reply field.
        case textInput(TextInput)

        /// A text-input behavior with the given labels.
        ///
        /// - Parameters:
        ///   - submitButtonTitle: The label of the button that sends the text; `nil` lets the server choose.
        ///   - placeholder: The hint shown in the empty text field; `nil` for none.
        public static func textInput(submitButtonTitle: String? = nil, placeholder: String? = nil) -> Behavior {
            .textInput(TextInput(submitButtonTitle: submitButtonTitle, placeholder: placeholder))
        }
    }

    /// The labels of a text-input action's field.
    ///
    /// Encoded with the keys `text-input-button-title` and `text-input-placeholder`, each left out when `nil`.
    public struct TextInput: Sendable, Hashable, Codable {
        private enum CodingKeys: String, CodingKey {
            case submitButtonTitle = "text-input-button-title"
            case placeholder = "text-input-placeholder"
        }

        /// The label of the button that sends the text; `nil` lets the server or prompt choose its own.
        public var submitButtonTitle: String?

        /// The hint shown in the empty text field; `nil` for none.
        public var placeholder: String?

        /// Makes text-input labels.
        ///
        /// - Parameters:
        ///   - submitButtonTitle: The label of the button that sends the text; `nil` lets the server choose.
        ///   - placeholder: The hint shown in the empty text field; `nil` for none.
        public init(submitButtonTitle: String? = nil, placeholder: String? = nil) {
            self.submitButtonTitle = submitButtonTitle
            self.placeholder = placeholder
        }
    }

    /// What the bridge does with a text-input action where the server has no inline reply and no prompt can run.
    ///
    /// Encoded as `"hide"` and `"deliver-without-text"`.
    public enum TextInputFallback: String, Sendable, Hashable, Codable, CaseIterable {
        /// The action is left out of the notification, so the user is never offered a reply that cannot be typed.
        ///
        /// The default, as in KNotification's reply action.
        case hide

        /// The action is shown as a plain button; its response arrives with ``NotificationResponse/userText`` `nil`.
        case deliverWithoutText = "deliver-without-text"
    }
}

extension NotificationAction.Behavior: Codable {
    private enum CodingKeys: String, CodingKey {
        case behavior
    }

    private enum Name: String, Codable {
        case `default`
        case textInput = "text-input"
    }

    /// Decodes a behavior from the keys of the enclosing object.
    ///
    /// - Throws: `DecodingError` when `behavior` names an unknown behavior or a label is not a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decodeIfPresent(Name.self, forKey: .behavior) ?? .default {
        case .default: self = .default
        case .textInput: self = .textInput(try NotificationAction.TextInput(from: decoder))
        }
    }

    /// Encodes the behavior into the keys of the enclosing object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .default:
            try container.encode(Name.default, forKey: .behavior)
        case .textInput(let textInput):
            try container.encode(Name.textInput, forKey: .behavior)
            try textInput.encode(to: encoder)
        }
    }
}
