internal import CDBus

/// `org.freedesktop.DBus.Properties` for exported objects, served from their descriptions.
extension ConnectionCore {
    private static func lookup(_ interfaces: [DBusInterface], _ interfaceName: String, _ propertyName: String)
        -> Result<DBusProperty, DBusFailure>
    {
        guard let interface = interfaces.first(where: { $0.name == interfaceName }) else {
            return .failure(
                DBusFailure(
                    name: DBusFailure.Name.unknownInterface, message: "no interface '\(interfaceName)' here"))
        }
        guard let property = interface.properties.first(where: { $0.name == propertyName }) else {
            return .failure(
                DBusFailure(
                    name: DBusFailure.Name.unknownProperty,
                    message: "interface '\(interfaceName)' has no property '\(propertyName)'"))
        }
        return .success(property)
    }

    /// Reads a property through its getter, refusing a value of the wrong type rather than sending it.
    private static func read(_ property: DBusProperty) -> Result<DBusValue, DBusFailure> {
        guard property.access != .write, let getter = property.getter else {
            return .failure(
                DBusFailure(
                    name: DBusFailure.Name.accessDenied, message: "property '\(property.name)' is write-only"))
        }
        let value = getter()
        guard value.signature == property.signature else {
            return .failure(
                DBusFailure(
                    name: DBusFailure.Name.failed,
                    message: "property '\(property.name)' produced type '\(value.signature)' where "
                        + "'\(property.signature)' is declared"))
        }
        return .success(value)
    }

    /// What a `Get` or `GetAll` with `arguments` must await before it reads (``DBusInterface/propertiesReady`` of the
    /// interfaces it reads), or `nil` when it reads at once.
    static func readiness(_ interfaces: [DBusInterface], _ arguments: [DBusValue]) -> (@Sendable () async -> Void)? {
        guard case .string(let interfaceName)? = arguments.first else { return nil }
        let selected = interfaceName.isEmpty ? interfaces : interfaces.filter { $0.name == interfaceName }
        let waits = selected.compactMap(\.propertiesReady)
        guard !waits.isEmpty else { return nil }
        return {
            for wait in waits { await wait() }
        }
    }

    static func propertyGet(
        _ interfaces: [DBusInterface], _ arguments: [DBusValue]
    ) -> Result<[DBusValue], DBusFailure> {
        guard case .string(let interfaceName) = arguments[0], case .string(let name) = arguments[1] else {
            return .failure(.invalidArgs("Get takes (interface_name, property_name)"))
        }
        return lookup(interfaces, interfaceName, name).flatMap(read).map { [.variant($0)] }
    }

    static func propertyGetAll(
        _ interfaces: [DBusInterface], _ arguments: [DBusValue]
    ) -> Result<[DBusValue], DBusFailure> {
        guard case .string(let interfaceName) = arguments[0] else {
            return .failure(.invalidArgs("GetAll takes (interface_name)"))
        }
        let selected = interfaceName.isEmpty ? interfaces : interfaces.filter { $0.name == interfaceName }
        if selected.isEmpty, !interfaceName.isEmpty {
            return .failure(
                DBusFailure(
                    name: DBusFailure.Name.unknownInterface, message: "no interface '\(interfaceName)' here"))
        }
        var values: [String: DBusValue] = [:]
        for property in selected.flatMap(\.properties) where property.access != .write {
            if case .success(let value) = read(property) { values[property.name] = value }
        }
        return .success([.vardict(values)])
    }

    func propertySet(_ interfaces: [DBusInterface], _ arguments: [DBusValue], path: DBusObjectPath)
        -> Result<[DBusValue], DBusFailure>
    {
        guard case .string(let interfaceName) = arguments[0], case .string(let name) = arguments[1],
            case .variant(let value) = arguments[2]
        else {
            return .failure(.invalidArgs("Set takes (interface_name, property_name, value)"))
        }
        let property: DBusProperty
        switch Self.lookup(interfaces, interfaceName, name) {
        case .success(let found): property = found
        case .failure(let failure): return .failure(failure)
        }
        guard property.access != .read, let setter = property.setter else {
            return .failure(
                DBusFailure(
                    name: DBusFailure.Name.propertyReadOnly, message: "property '\(name)' is read-only"))
        }
        guard value.signature == property.signature else {
            return .failure(
                .invalidArgs(
                    "property '\(name)' has type '\(property.signature)'; got a value of type '\(value.signature)'"))
        }
        do {
            try setter(value)
        } catch let failure as DBusFailure {
            return .failure(failure)
        } catch {
            return .failure(DBusFailure(name: DBusFailure.Name.failed, message: String(describing: error)))
        }
        emitPropertiesChanged(path: path, interface: interfaceName, names: [name], invalidated: [])
        return .success([])
    }

    /// Emits `PropertiesChanged` with the current values of `names`.
    func emitPropertiesChanged(path: DBusObjectPath, interface: String, names: [String], invalidated: [String]) {
        guard let described = objects[path]?.first(where: { $0.name == interface }) else { return }
        var changed: [String: DBusValue] = [:]
        for name in names {
            if let property = described.properties.first(where: { $0.name == name }),
                case .success(let value) = Self.read(property)
            {
                changed[name] = value
            }
        }
        guard
            let message = try? Self.makeSignal(
                path: path, interface: Self.properties, member: "PropertiesChanged", destination: nil,
                arguments: [.string(interface), .vardict(changed), .strings(invalidated)])
        else { return }
        sendAndRelease(message)
    }
}
