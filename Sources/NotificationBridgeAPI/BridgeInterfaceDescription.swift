import DBusCore

/// `io.github.NotificationBridge1` as one `DBusInterface`: the methods of ``BridgeMethod``, the signals of
/// ``BridgeSignal`` and the properties of ``BridgeProperty``, each with its reference text as an
/// `org.gtk.GDBus.DocString` annotation, served by the function the daemon gives, which receives each call decoded
/// once into a typed ``BridgeRequest``: no handler reads an argument by its position.
///
/// The same value routes calls, checks their signatures and answers `Introspect`, so that what `gdbus introspect`
/// shows is what is served; the file `dbus/io.github.NotificationBridge1.xml` is checked against it.
public enum BridgeInterfaceDescription {
    /// What serves the methods: each call decoded once into a ``BridgeRequest``, with the call itself to answer (now,
    /// or later from anywhere, with ``DBusMethodCall/reply(_:)`` or ``DBusMethodCall/fail(_:)``).
    public typealias Server = @Sendable (BridgeRequest, DBusMethodCall) async -> Void

    /// The interface, with `serve` answering each method and `property` reading each property.
    ///
    /// - Parameters:
    ///   - limits: the limits the reference text states.
    ///   - serve: answers each call, given as a typed request; calls of one connection reach it one at a time, in
    ///     the order they arrived.
    ///   - property: the getter of each property; asked once per property. It runs on the connection's thread.
    public static func interface(
        limits: BridgeInterfaceLimits, serve: @escaping Server,
        property: (BridgeProperty) -> @Sendable () -> DBusValue
    ) -> DBusInterface {
        DBusInterface(
            BridgeAPI.interfaceName,
            methods: BridgeMethod.allCases.map { method in
                .deferred(
                    method.name, inputs: method.inputs, outputs: method.outputs,
                    annotations: doc(method.documentation(limits))
                ) { call in
                    let request: BridgeRequest
                    do throws(DBusFailure) {
                        request = try BridgeRequest(method, arguments: call.arguments)
                    } catch {
                        return call.fail(error)
                    }
                    await serve(request, call)
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
