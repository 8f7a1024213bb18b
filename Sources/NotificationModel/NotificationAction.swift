/// A button a notification offers, and what happens when the user chooses it.
///
/// An action is the counterpart of `UIUserNotificationAction`: its ``id`` comes back in the
/// ``NotificationResponse`` so the handler can tell the buttons apart, and its ``title`` is the button's label.
///
/// Foreground actions always require authentication: the app is raised, and raising an app over a locked session
/// would show its window to whoever is at the keyboard. ``requiresAuthentication`` therefore reads `true` whenever
/// ``activation`` is ``Activation/foreground``, whatever was passed to the initializer or decoded.
public struct NotificationAction: Sendable, Hashable {
    /// The identifier reported back in ``NotificationResponse/actionID``.
    ///
    /// Must be unique among the actions of one category or notification, must not be a ``ReservedActionID``, and may
    /// contain only ASCII letters, digits and `-`, `_`, `.`, `:`. Call ``validate()`` to check.
    public var id: String

    /// The button label shown to the user.
    public var title: String

    /// Whether choosing the action raises the app or only runs its handler.
    ///
    /// Setting it to ``Activation/foreground`` also sets ``requiresAuthentication`` to `true`. Setting it back to
    /// ``Activation/background`` leaves ``requiresAuthentication`` as it is: set that too if the action may run while
    /// the session is locked.
    public var activation: Activation {
        didSet { storedRequiresAuthentication = storedRequiresAuthentication || activation == .foreground }
    }

    /// Whether the action destroys data, so that servers and the bridge can show it as such.
    public var isDestructive: Bool

    /// Whether the handler must wait until the session is unlocked.
    ///
    /// Always `true` for ``Activation/foreground`` actions: assigning `false` to a foreground action has no effect.
    public var requiresAuthentication: Bool {
        get { storedRequiresAuthentication }
        set { storedRequiresAuthentication = newValue || activation == .foreground }
    }

    /// Whether the action asks the user for text.
    public var behavior: Behavior

    /// What the bridge does with a text-input action when neither the server nor a prompt can take text.
    ///
    /// Ignored for actions whose ``behavior`` is ``Behavior/default``.
    public var textInputFallback: TextInputFallback

    // Kept equal to the effective value at all times, so that synthesized equality and hashing compare what a
    // caller observes.
    private var storedRequiresAuthentication: Bool

    /// Makes an action.
    ///
    /// - Parameters:
    ///   - id: The identifier reported back in the response; see ``id`` for the allowed characters.
    ///   - title: The button label.
    ///   - activation: Whether the app is raised; foreground by default, as a click usually means "show me".
    ///   - isDestructive: Whether the action destroys data.
    ///   - requiresAuthentication: Whether the handler waits for an unlocked session. Forced to `true` when
    ///     `activation` is ``Activation/foreground``.
    ///   - behavior: ``Behavior/default``, or ``Behavior/textInput(_:)`` to ask for text.
    ///   - textInputFallback: What to do with a text-input action that cannot take text; ``TextInputFallback/hide``
    ///     by default, as KNotification does.
    ///
    /// The initializer does not validate: call ``validate()`` before handing the action to the bridge.
    public init(
        id: String,
        title: String,
        activation: Activation = .foreground,
        isDestructive: Bool = false,
        requiresAuthentication: Bool = false,
        behavior: Behavior = .default,
        textInputFallback: TextInputFallback = .hide
    ) {
        self.id = id
        self.title = title
        self.activation = activation
        self.isDestructive = isDestructive
        self.storedRequiresAuthentication = requiresAuthentication || activation == .foreground
        self.behavior = behavior
        self.textInputFallback = textInputFallback
    }

    /// Whether the action asks the user for text.
    public var isTextInput: Bool {
        if case .textInput = behavior { return true }
        return false
    }
}
