/// What a text prompt shows: the fallback for text-input actions when the notification server has no `inline-reply`.
package struct TextPromptRequest: Sendable, Hashable {
    /// The window title, usually the app's name.
    package var title: String
    /// The text above the entry field, usually the notification's summary or the action's title.
    package var message: String
    /// Text put in the entry field to start with (the text-input behaviour's `placeholder`); empty for none.
    package var placeholder: String
    /// The label of the button that sends the text (the behaviour's `submitButtonTitle`); empty for the program's own.
    package var submitLabel: String

    /// Describes a prompt.
    package init(title: String, message: String, placeholder: String = "", submitLabel: String = "") {
        self.title = title
        self.message = message
        self.placeholder = placeholder
        self.submitLabel = submitLabel
    }
}
