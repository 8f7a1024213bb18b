/// The description of one interface an object exports: its methods, signals and properties.
///
/// The same description routes incoming calls, checks their signatures and produces the `Introspect` XML, so what
/// `gdbus introspect` shows is exactly what is served.
public struct DBusInterface: Sendable {
    /// The interface name, for example `io.github.NotificationBridge1`.
    public var name: String
    /// The methods, each with its handler.
    public var methods: [DBusMethod]
    /// The signals the object may emit.
    public var signals: [DBusSignalDescription]
    /// The properties, served through `org.freedesktop.DBus.Properties`.
    public var properties: [DBusProperty]
    /// Annotations on the interface, shown in the introspection XML.
    public var annotations: [DBusAnnotation]
    /// Awaited before a property of the interface is read, when given: a `Get` or `GetAll` of it then waits in the
    /// stream of method calls, answered in their order once this returns, instead of at once on the connection's
    /// thread. For a service that takes its name before it has restored what its properties report.
    public var propertiesReady: (@Sendable () async -> Void)?

    /// Describes an interface.
    public init(
        _ name: String, methods: [DBusMethod] = [], signals: [DBusSignalDescription] = [],
        properties: [DBusProperty] = [], annotations: [DBusAnnotation] = [],
        propertiesReady: (@Sendable () async -> Void)? = nil
    ) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
        self.annotations = annotations
        self.propertiesReady = propertiesReady
    }

    /// Checks the names and that no member is described twice.
    func validate() throws(DBusFailure) {
        try DBusNames.checkInterface(name)
        var seen = Set<String>()
        for member in methods.map(\.name) + signals.map(\.name) + properties.map(\.name) {
            try DBusNames.checkMember(member)
            guard seen.insert(member).inserted else {
                throw .invalidArgs("interface \(name) describes member '\(member)' twice; give each member one entry")
            }
        }
        for argument in methods.flatMap({ $0.inputs + $0.outputs }) + signals.flatMap(\.arguments) {
            guard argument.signature.isSingleCompleteType else {
                throw .invalidArgs(
                    "argument '\(argument.name)' of \(name) has signature '\(argument.signature)', "
                        + "which is not one complete type")
            }
        }
    }
}

/// A name and a type: one argument of a method or a signal.
public struct DBusArgumentDescription: Sendable, Hashable {
    /// The argument name shown in introspection.
    public var name: String
    /// The argument's type: one complete type.
    public var signature: DBusSignature

    /// Describes an argument.
    public init(_ name: String, _ signature: DBusSignature) {
        self.name = name
        self.signature = signature
    }
}

/// An annotation (`org.freedesktop.DBus.Deprecated`, …) shown in the introspection XML.
public struct DBusAnnotation: Sendable, Hashable {
    /// The annotation name.
    public var name: String
    /// Its value.
    public var value: String

    /// Makes an annotation.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A method an object exports, with its handler.
public struct DBusMethod: Sendable {
    /// The method name.
    public var name: String
    /// The arguments a caller sends.
    public var inputs: [DBusArgumentDescription]
    /// The values the reply carries.
    public var outputs: [DBusArgumentDescription]
    /// Annotations shown in the introspection XML.
    public var annotations: [DBusAnnotation]
    let handler: Handler

    enum Handler: Sendable {
        case returning(@Sendable (DBusMethodCall) async throws -> [DBusValue])
        case deferred(@Sendable (DBusMethodCall) async -> Void)
    }

    /// Describes a method whose reply is what `handler` returns.
    ///
    /// The call has already been checked against `inputs` when the handler runs. A thrown ``DBusFailure`` is sent as
    /// that error; any other error as `org.freedesktop.DBus.Error.Failed`. Handlers of one connection run one at a
    /// time, in the order the calls arrived: a handler that must wait long should use ``deferred(_:inputs:outputs:annotations:handler:)``.
    public init(
        _ name: String, inputs: [DBusArgumentDescription] = [], outputs: [DBusArgumentDescription] = [],
        annotations: [DBusAnnotation] = [],
        handler: @escaping @Sendable (DBusMethodCall) async throws -> [DBusValue]
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.annotations = annotations
        self.handler = .returning(handler)
    }

    private init(
        name: String, inputs: [DBusArgumentDescription], outputs: [DBusArgumentDescription],
        annotations: [DBusAnnotation], handler: Handler
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.annotations = annotations
        self.handler = handler
    }

    /// Describes a method whose handler keeps the call and answers it later, from anywhere, with
    /// ``DBusMethodCall/reply(_:)`` or ``DBusMethodCall/fail(_:)`` — seconds or minutes after it returned.
    ///
    /// A call that is dropped without an answer is answered with `org.freedesktop.DBus.Error.Failed`.
    public static func deferred(
        _ name: String, inputs: [DBusArgumentDescription] = [], outputs: [DBusArgumentDescription] = [],
        annotations: [DBusAnnotation] = [],
        handler: @escaping @Sendable (DBusMethodCall) async -> Void
    ) -> DBusMethod {
        DBusMethod(name: name, inputs: inputs, outputs: outputs, annotations: annotations, handler: .deferred(handler))
    }

    var inputSignature: String { inputs.map(\.signature.rawValue).joined() }
    var outputSignature: String { outputs.map(\.signature.rawValue).joined() }
}

/// A signal an object may emit.
public struct DBusSignalDescription: Sendable, Hashable {
    /// The signal name.
    public var name: String
    /// Its arguments.
    public var arguments: [DBusArgumentDescription]
    /// Annotations shown in the introspection XML.
    public var annotations: [DBusAnnotation]

    /// Describes a signal.
    public init(_ name: String, arguments: [DBusArgumentDescription] = [], annotations: [DBusAnnotation] = []) {
        self.name = name
        self.arguments = arguments
        self.annotations = annotations
    }
}

/// A property an object exports through `org.freedesktop.DBus.Properties`.
///
/// The getter and the setter run on the connection's own thread: keep them short and non-blocking (read or write
/// state held under a lock).
public struct DBusProperty: Sendable {
    /// Whether a property can be read, written, or both.
    public enum Access: String, Sendable {
        case read
        case write
        case readWrite = "readwrite"
    }

    /// The property name.
    public var name: String
    /// Its type.
    public var signature: DBusSignature
    /// How it may be accessed.
    public var access: Access
    /// Annotations shown in the introspection XML.
    public var annotations: [DBusAnnotation]
    let getter: (@Sendable () -> DBusValue)?
    let setter: (@Sendable (DBusValue) throws -> Void)?

    /// Describes a read-only property.
    public static func readOnly(
        _ name: String, _ signature: DBusSignature, annotations: [DBusAnnotation] = [],
        get: @escaping @Sendable () -> DBusValue
    ) -> DBusProperty {
        DBusProperty(
            name: name, signature: signature, access: .read, annotations: annotations, getter: get, setter: nil)
    }

    /// Describes a property that peers may read and write. The setter receives a value already checked against
    /// `signature`; it may throw a ``DBusFailure`` to refuse it.
    public static func readWrite(
        _ name: String, _ signature: DBusSignature, annotations: [DBusAnnotation] = [],
        get: @escaping @Sendable () -> DBusValue, set: @escaping @Sendable (DBusValue) throws -> Void
    ) -> DBusProperty {
        DBusProperty(
            name: name, signature: signature, access: .readWrite, annotations: annotations, getter: get, setter: set
        )
    }
}
