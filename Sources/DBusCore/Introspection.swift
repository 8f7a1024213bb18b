/// Produces `org.freedesktop.DBus.Introspectable` XML from interface descriptions.
enum Introspection {
    static let doctype = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        """

    /// The interfaces every exported object answers, described like any other.
    static let standardInterfaces: [DBusInterface] = [
        DBusInterface(
            "org.freedesktop.DBus.Introspectable",
            methods: [DBusMethod("Introspect", outputs: [.init("xml_data", "s")]) { _ in [] }]
        ),
        DBusInterface(
            "org.freedesktop.DBus.Peer",
            methods: [
                DBusMethod("Ping") { _ in [] },
                DBusMethod("GetMachineId", outputs: [.init("machine_uuid", "s")]) { _ in [] },
            ]
        ),
        DBusInterface(
            "org.freedesktop.DBus.Properties",
            methods: [
                DBusMethod(
                    "Get", inputs: [.init("interface_name", "s"), .init("property_name", "s")],
                    outputs: [.init("value", "v")]
                ) { _ in [] },
                DBusMethod(
                    "GetAll", inputs: [.init("interface_name", "s")], outputs: [.init("properties", "a{sv}")]
                ) { _ in [] },
                DBusMethod(
                    "Set", inputs: [.init("interface_name", "s"), .init("property_name", "s"), .init("value", "v")]
                ) { _ in [] },
            ],
            signals: [
                DBusSignalDescription(
                    "PropertiesChanged",
                    arguments: [
                        .init("interface_name", "s"), .init("changed_properties", "a{sv}"),
                        .init("invalidated_properties", "as"),
                    ]
                )
            ]
        ),
    ]

    /// The XML for an object with `interfaces` (standard ones are added) and the given child node names.
    static func document(interfaces: [DBusInterface], children: [String]) -> String {
        var xml = doctype + "\n<node>\n"
        for interface in (interfaces.isEmpty ? [] : standardInterfaces) + interfaces {
            xml += interfaceElement(interface, indent: "  ")
        }
        for child in children {
            xml += "  <node name=\"\(escape(child))\"/>\n"
        }
        xml += "</node>\n"
        return xml
    }

    /// One `<interface>` element, as it appears in a document and in the interface files under `dbus/`.
    static func interfaceElement(_ interface: DBusInterface, indent: String) -> String {
        let inner = indent + "  "
        var xml = "\(indent)<interface name=\"\(escape(interface.name))\">\n"
        for method in interface.methods {
            let body =
                method.inputs.map { argument($0, direction: "in", indent: inner + "  ") }
                + method.outputs.map { argument($0, direction: "out", indent: inner + "  ") }
                + method.annotations.map { annotation($0, indent: inner + "  ") }
            xml += element("method", name: method.name, body: body, indent: inner)
        }
        for signal in interface.signals {
            let body =
                signal.arguments.map { argument($0, direction: nil, indent: inner + "  ") }
                + signal.annotations.map { annotation($0, indent: inner + "  ") }
            xml += element("signal", name: signal.name, body: body, indent: inner)
        }
        for property in interface.properties {
            let open =
                "\(inner)<property name=\"\(escape(property.name))\" type=\"\(escape(property.signature.rawValue))\""
                + " access=\"\(property.access.rawValue)\""
            if property.annotations.isEmpty {
                xml += open + "/>\n"
            } else {
                xml +=
                    open + ">\n" + property.annotations.map { annotation($0, indent: inner + "  ") }.joined()
                    + "\(inner)</property>\n"
            }
        }
        for item in interface.annotations {
            xml += annotation(item, indent: inner)
        }
        xml += "\(indent)</interface>\n"
        return xml
    }

    private static func element(_ tag: String, name: String, body: [String], indent: String) -> String {
        if body.isEmpty { return "\(indent)<\(tag) name=\"\(escape(name))\"/>\n" }
        return "\(indent)<\(tag) name=\"\(escape(name))\">\n" + body.joined() + "\(indent)</\(tag)>\n"
    }

    private static func argument(_ argument: DBusArgumentDescription, direction: String?, indent: String) -> String {
        var xml = "\(indent)<arg"
        if !argument.name.isEmpty { xml += " name=\"\(escape(argument.name))\"" }
        xml += " type=\"\(escape(argument.signature.rawValue))\""
        if let direction { xml += " direction=\"\(direction)\"" }
        return xml + "/>\n"
    }

    private static func annotation(_ annotation: DBusAnnotation, indent: String) -> String {
        "\(indent)<annotation name=\"\(escape(annotation.name))\" value=\"\(escape(annotation.value))\"/>\n"
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
