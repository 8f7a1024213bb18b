import DBusCore

/// The keys of `GetServerInformation`'s reply (`a{sv}`): the notification server the daemon posts to, and the
/// bridge's own choices.
public enum ServerInformationKeys {
    /// `server-name` (s).
    public static let serverName = BridgeKey.string(
        "server-name", example: "<'dunst'>",
        summary: "the notification server's name, as it gives it; empty without one")
    /// `server-vendor` (s).
    public static let serverVendor = BridgeKey.string(
        "server-vendor", example: "<'knopwob'>", summary: "the notification server's vendor")
    /// `server-version` (s).
    public static let serverVersion = BridgeKey.string(
        "server-version", example: "<'1.9.0'>", summary: "the notification server's version")
    /// `server-spec-version` (s).
    public static let serverSpecVersion = BridgeKey.string(
        "server-spec-version", example: "<'1.2'>", summary: "the version of the notification specification it follows")
    /// `server-capabilities` (as).
    public static let serverCapabilities = BridgeKey.strings(
        "server-capabilities", example: "<['actions', 'body']>", summary: "the notification server's capabilities")
    /// `server-quirks` (as).
    public static let serverQuirks = BridgeKey.strings(
        "server-quirks", example: "<['closes after an action']>",
        summary: "the server's known departures from the specification, which the bridge makes up for")
    /// `text-input` (a{ss}).
    public static let textInput = BridgeKey<[String: String]>(
        "text-input", types: ["a{ss}"],
        summary: "for each text-input-fallback, what a text-input action becomes: inline-reply, prompt, "
            + "button-without-text or hidden",
        decode: { value, place throws(DBusFailure) in
            guard case .dictionary(let key, let element, let entries) = value, key == "s", element == "s" else {
                throw place.wrongType(value, expected: "a{ss}", example: "<{'hide': 'inline'}>")
            }
            var renderings: [String: String] = [:]
            for entry in entries {
                guard let name = entry.key.stringValue, let rendering = entry.value.stringValue else { continue }
                renderings[name] = rendering
            }
            return renderings
        },
        encode: { renderings in
            .dictionary(
                key: "s", value: "s",
                renderings.sorted { $0.key < $1.key }.map {
                    DBusDictionaryEntry(key: .string($0.key), value: .string($0.value))
                })
        })
    /// `prompt-program` (s).
    public static let promptProgram = BridgeKey.string(
        "prompt-program", example: "<'/usr/bin/zenity'>",
        summary: "the program that asks for text where the server cannot; empty for none")
    /// `prompt-available` (b).
    public static let promptAvailable = BridgeKey.boolean(
        "prompt-available", summary: "whether the prompt program can be shown now")
    /// `destructive-order` (s).
    public static let destructiveOrder = BridgeKey.string(
        "destructive-order", example: "<'first'>",
        summary: "where destructive actions go among the buttons: first, as-given or last")
    /// `destructive-marker` (s).
    public static let destructiveMarker = BridgeKey.string(
        "destructive-marker", example: "<'⚠ '>", summary: "the text put before a destructive action's label")
    /// `lock-source` (s).
    public static let lockSource = BridgeKey.string(
        "lock-source", example: "<'logind'>",
        summary: "where the bridge learns that the session is locked: logind, screensaver or none")
    /// `bridge-version` (s).
    public static let bridgeVersion = BridgeKey.string(
        "bridge-version", example: "<'1.0.0'>", summary: "the daemon's version")

    /// `caller` (s).
    public static let caller = BridgeKey.string(
        "caller", example: "<'a host process'>",
        summary: "who the daemon takes the caller for: a host process, a sandboxed app by its app id, or a process "
            + "that could not be identified, with why")
    /// `caller-identified` (b).
    public static let callerIdentified = BridgeKey.boolean(
        "caller-identified",
        summary: "whether the daemon could tell who the caller is: a caller it cannot identify may not post")

    /// The keys about the notification server.
    public static let server: [BridgeKeyInfo] = [
        serverName.info, serverVendor.info, serverVersion.info, serverSpecVersion.info, serverCapabilities.info,
    ]
    /// The keys about the bridge's choices that the reference names.
    public static let choices: [BridgeKeyInfo] = [
        textInput.info, promptProgram.info, destructiveOrder.info, destructiveMarker.info, lockSource.info,
        bridgeVersion.info,
    ]
    /// Every key.
    public static let all: [BridgeKeyInfo] =
        server + [serverQuirks.info] + choices + [promptAvailable.info, caller.info, callerIdentified.info]
}
