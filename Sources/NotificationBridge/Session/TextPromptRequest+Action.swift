import NotificationModel

extension TextPromptRequest {
    /// The prompt for a text-input action of a notification: its title and body, the action's placeholder as a hint,
    /// and the action's submit title (or its own title) on the button.
    init(notification: any FollowedNotification, action: NotificationAction) {
        var submit: String?
        var placeholder: String?
        if case .textInput(let input) = action.behavior {
            submit = input.submitButtonTitle
            placeholder = input.placeholder
        }
        self.init(
            title: notification.content.title, message: notification.content.body, placeholder: placeholder ?? "",
            submitLabel: submit ?? action.title)
    }
}
