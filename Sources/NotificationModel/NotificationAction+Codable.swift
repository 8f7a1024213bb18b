/// Encodes an action as a flat object with fixed keys. They are the daemon's stored form (its rows keep them), not
/// its D-Bus API: they were chosen to read as its action keys, and do not follow a change of those.
///
/// Keys: `id`, `title`, `activation` (`foreground`|`background`), `destructive`, `authentication-required`,
/// `behavior` (`default`|`text-input`), `text-input-button-title`, `text-input-placeholder`, `text-input-fallback`
/// (`hide`|`deliver-without-text`). Only `id` and `title` are required when decoding; the others take the
/// initializer's defaults. A decoded foreground action requires authentication even when the input says `false`.
extension NotificationAction: Codable {
    private enum CodingKeys: String, CodingKey {
        case id
        case title
        case activation
        case isDestructive = "destructive"
        case requiresAuthentication = "authentication-required"
        case textInputFallback = "text-input-fallback"
    }

    /// Decodes an action; see the extension's description for the keys.
    ///
    /// - Throws: `DecodingError` when `id` or `title` is missing or a value has the wrong type or an unknown name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Goes through the initializer so the foreground rule is applied in exactly one place.
        self.init(
            id: try container.decode(String.self, forKey: .id),
            title: try container.decode(String.self, forKey: .title),
            activation: try container.decodeIfPresent(Activation.self, forKey: .activation) ?? .foreground,
            isDestructive: try container.decodeIfPresent(Bool.self, forKey: .isDestructive) ?? false,
            requiresAuthentication: try container.decodeIfPresent(Bool.self, forKey: .requiresAuthentication) ?? false,
            // The behavior's keys live in the same flat object.
            behavior: try Behavior(from: decoder),
            textInputFallback: try container.decodeIfPresent(TextInputFallback.self, forKey: .textInputFallback)
                ?? .hide
        )
    }

    /// Encodes the action with the effective value of ``requiresAuthentication``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(activation, forKey: .activation)
        try container.encode(isDestructive, forKey: .isDestructive)
        try container.encode(requiresAuthentication, forKey: .requiresAuthentication)
        try behavior.encode(to: encoder)
        try container.encode(textInputFallback, forKey: .textInputFallback)
    }
}
