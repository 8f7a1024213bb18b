internal import CDBus

/// Routing of incoming method calls to exported objects, checked against their descriptions.
extension ConnectionCore {
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let properties = "org.freedesktop.DBus.Properties"
    static let peer = "org.freedesktop.DBus.Peer"

    func handleMethodCall(_ message: OpaquePointer) {
        let path = DBusObjectPath(unchecked: Self.string(dbus_message_get_path(message)) ?? "/")
        let interface = Self.string(dbus_message_get_interface(message))
        let member = Self.string(dbus_message_get_member(message)) ?? ""
        let signature = Self.string(dbus_message_get_signature(message)) ?? ""

        guard let interfaces = objects[path] else {
            let children = childNames(of: path)
            if member == "Introspect", interface == nil || interface == Self.introspectable, signature.isEmpty,
                !children.isEmpty || path == .root
            {
                reply(to: message, [.string(Introspection.document(interfaces: [], children: children))])
            } else {
                replyError(
                    to: message,
                    DBusFailure(
                        name: DBusFailure.Name.unknownObject, message: "no object is exported at path '\(path)'"))
            }
            return
        }

        let target: (interface: DBusInterface, method: DBusMethod)
        switch interface {
        case Self.introspectable?, Self.properties?, Self.peer?:
            handleStandard(
                message, interface: interface!, member: member, signature: signature, path: path,
                interfaces: interfaces)
            return
        case let name?:
            guard let found = interfaces.first(where: { $0.name == name }) else {
                replyError(
                    to: message,
                    DBusFailure(
                        name: DBusFailure.Name.unknownInterface,
                        message: "object at '\(path)' has no interface '\(name)'; it has "
                            + interfaces.map(\.name).joined(separator: ", ")))
                return
            }
            guard let method = found.methods.first(where: { $0.name == member }) else {
                replyError(to: message, unknownMethod(member, interface: name, signature: signature))
                return
            }
            target = (found, method)
        case nil:
            if let standard = Introspection.standardInterfaces.first(where: { iface in
                iface.methods.contains { $0.name == member }
            }) {
                handleStandard(
                    message, interface: standard.name, member: member, signature: signature, path: path,
                    interfaces: interfaces)
                return
            }
            guard
                let found = interfaces.lazy.compactMap({ iface in
                    iface.methods.first(where: { $0.name == member }).map { (iface, $0) }
                }).first
            else {
                replyError(to: message, unknownMethod(member, interface: nil, signature: signature))
                return
            }
            target = found
        }

        guard signature == target.method.inputSignature else {
            replyError(
                to: message,
                .invalidArgs(
                    "\(target.interface.name).\(member) takes arguments of signature '\(target.method.inputSignature)', "
                        + "got '\(signature)'"))
            return
        }
        let arguments: [DBusValue]
        do {
            arguments = try MessageCodec.values(of: message)
        } catch {
            replyError(to: message, error)
            return
        }
        let call = incomingCall(
            message, path: path, interface: target.interface.name, member: member, arguments: arguments,
            outputSignature: target.method.outputSignature)
        incomingCalls.yield(IncomingCall(call: call, handler: target.method.handler))
    }

    /// The call `message` carries, answered from whichever thread answers it.
    private func incomingCall(
        _ message: OpaquePointer, path: DBusObjectPath, interface: String, member: String, arguments: [DBusValue],
        outputSignature: String
    ) -> DBusMethodCall {
        let sender = Self.string(dbus_message_get_sender(message)) ?? ""
        let serial = dbus_message_get_serial(message)
        let expectsReply = dbus_message_get_no_reply(message) == 0
        let loop = self.loop
        return DBusMethodCall(
            sender: sender, path: path, interface: interface, member: member, arguments: arguments,
            replySerial: serial, expectsReply: expectsReply, outputSignature: outputSignature
        ) { [self] answer in
            guard expectsReply else {
                if case .message(let built) = answer { built.release() }
                return
            }
            // Marshalled on the answering thread: the loop only sends it, and the answer's values are released as
            // soon as `reply` returns, not later on the loop thread.
            guard let message = Self.makeAnswer(answer, serial: serial, to: sender) else { return }
            let outgoing = OutgoingMessage(message)
            if !loop.submit({ self.sendAndRelease(outgoing.message) }) { outgoing.release() }
        }
    }

    /// Hands a `Get` or `GetAll` whose interface is not ready yet (``DBusInterface/propertiesReady``) to the stream of
    /// calls: it is answered in the order of the method calls, once `ready` returns, with the values read then.
    private func readWhenReady(
        _ message: OpaquePointer, member: String, arguments: [DBusValue], interfaces: [DBusInterface],
        path: DBusObjectPath, ready: @escaping @Sendable () async -> Void
    ) {
        let isGet = member == "Get"
        let call = incomingCall(
            message, path: path, interface: Self.properties, member: member, arguments: arguments,
            outputSignature: isGet ? "v" : "a{sv}")
        let handler = DBusMethod.Handler.deferred { call in
            await ready()
            let result = isGet ? Self.propertyGet(interfaces, arguments) : Self.propertyGetAll(interfaces, arguments)
            switch result {
            case .success(let values): call.reply(values)
            case .failure(let failure): call.fail(failure)
            }
        }
        incomingCalls.yield(IncomingCall(call: call, handler: handler))
    }

    private func unknownMethod(_ member: String, interface: String?, signature: String) -> DBusFailure {
        DBusFailure(
            name: DBusFailure.Name.unknownMethod,
            message: "no method '\(member)' with signature '\(signature)'"
                + (interface.map { " on interface '\($0)'" } ?? "")
        )
    }

    /// The names of the nodes directly below `path` that lead to exported objects.
    func childNames(of path: DBusObjectPath) -> [String] {
        let prefix = path == .root ? "/" : path.rawValue + "/"
        var names = Set<String>()
        for exported in objects.keys where exported.isDescendant(of: path) {
            let rest = exported.rawValue.dropFirst(prefix.count)
            if let name = rest.split(separator: "/").first { names.insert(String(name)) }
        }
        return names.sorted()
    }

    private func reply(to message: OpaquePointer, _ values: [DBusValue]) {
        guard dbus_message_get_no_reply(message) == 0 else { return }
        sendAnswer(
            .values(values), serial: dbus_message_get_serial(message),
            to: Self.string(dbus_message_get_sender(message)) ?? "")
    }

    private func handleStandard(
        _ message: OpaquePointer, interface: String, member: String, signature: String, path: DBusObjectPath,
        interfaces: [DBusInterface]
    ) {
        guard let standard = Introspection.standardInterfaces.first(where: { $0.name == interface }),
            let method = standard.methods.first(where: { $0.name == member })
        else {
            replyError(to: message, unknownMethod(member, interface: interface, signature: signature))
            return
        }
        guard signature == method.inputSignature else {
            replyError(
                to: message,
                .invalidArgs(
                    "\(interface).\(member) takes arguments of signature '\(method.inputSignature)', got '\(signature)'"
                ))
            return
        }
        let arguments = (try? MessageCodec.values(of: message)) ?? []
        let result: Result<[DBusValue], DBusFailure>
        switch (interface, member) {
        case (Self.introspectable, _):
            result = .success([.string(Introspection.document(interfaces: interfaces, children: childNames(of: path)))])
        case (Self.peer, "Ping"):
            result = .success([])
        case (Self.peer, _):
            let raw = dbus_get_local_machine_id()
            defer { dbus_free(raw) }
            result = .success([.string(raw.map { String(cString: $0) } ?? "")])
        case (_, "Get"), (_, "GetAll"):
            if let ready = Self.readiness(interfaces, arguments) {
                readWhenReady(
                    message, member: member, arguments: arguments, interfaces: interfaces, path: path, ready: ready)
                return
            }
            result =
                member == "Get" ? Self.propertyGet(interfaces, arguments) : Self.propertyGetAll(interfaces, arguments)
        default:
            result = propertySet(interfaces, arguments, path: path)
        }
        switch result {
        case .success(let values): reply(to: message, values)
        case .failure(let failure): replyError(to: message, failure)
        }
    }
}
