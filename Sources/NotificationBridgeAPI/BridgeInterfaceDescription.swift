import DBusCore

/// `io.github.NotificationBridge1` as one `DBusInterface`: the methods of ``BridgeMethod``, the signals of
/// ``BridgeSignal`` and the properties of ``BridgeProperty``, each with its reference text as an
/// `org.gtk.GDBus.DocString` annotation, bound to the handlers the daemon gives.
///
/// The same value routes calls, checks their signatures and answers `Introspect`, so that what `gdbus introspect`
/// shows is what is served; the file `dbus/io.github.NotificationBridge1.xml` is checked against it.
public enum BridgeInterfaceDescription {
    /// How a method is answered.
    public enum MethodHandler: Sendable {
        /// The reply is what the closure returns; a thrown `DBusFailure` is the error.
        case returning(@Sendable (DBusMethodCall) async throws -> [DBusValue])
        /// The closure keeps the call and answers it later (``DBusMethodCall/reply(_:)``).
        case deferred(@Sendable (DBusMethodCall) async -> Void)
    }

    /// The interface, with `handler` answering each method and `property` reading each property.
    ///
    /// - Parameters:
    ///   - limits: the limits the reference text states.
    ///   - handler: the handler of each method; asked once per method.
    ///   - property: the getter of each property; asked once per property. It runs on the connection's thread.
    public static func interface(
        limits: BridgeInterfaceLimits, handler: (BridgeMethod) -> MethodHandler,
        property: (BridgeProperty) -> @Sendable () -> DBusValue
    ) -> DBusInterface {
        DBusInterface(
            BridgeAPI.interfaceName,
            methods: BridgeMethod.allCases.map { method in
                let annotations = doc(method.documentation(limits))
                return switch handler(method) {
                case .returning(let body):
                    DBusMethod(
                        method.name, inputs: method.inputs, outputs: method.outputs, annotations: annotations,
                        handler: body)
                case .deferred(let body):
                    .deferred(
                        method.name, inputs: method.inputs, outputs: method.outputs, annotations: annotations,
                        handler: body)
                }
            },
            signals: BridgeSignal.allCases.map { signal in
                DBusSignalDescription(signal.name, arguments: signal.arguments, annotations: doc(signal.documentation))
            },
            properties: BridgeProperty.allCases.map { item in
                .readOnly(
                    item.name, item.signature, annotations: changeAnnotation(item) + doc(item.documentation),
                    get: property(item))
            },
            annotations: doc(documentation))
    }

    /// What the interface is, and its errors.
    public static var documentation: String {
        "Actionable notifications: categories of actions, typed replies, scheduling, routed responses. "
            + "Errors, under \(BridgeAPI.errorPrefix) (" + InterfaceReference.manual("ERRORS") + "): "
            + InterfaceReference.errors + "."
    }

    /// The name of the annotation that says whether a property's changes are announced.
    public static let emitsChangedSignal = "org.freedesktop.DBus.Property.EmitsChangedSignal"

    /// The property's `EmitsChangedSignal` annotation, left out where it would say the default (`true`).
    private static func changeAnnotation(_ property: BridgeProperty) -> [DBusAnnotation] {
        let announcement = property.changeAnnouncement
        return announcement == .emitted ? [] : [DBusAnnotation(emitsChangedSignal, announcement.rawValue)]
    }

    private static func doc(_ text: String) -> [DBusAnnotation] {
        [DBusAnnotation("org.gtk.GDBus.DocString", text)]
    }
}
