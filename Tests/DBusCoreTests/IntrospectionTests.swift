import DBusCore
import DBusTestSupport
import Foundation
import FoundationXML
import Testing

/// What `gdbus introspect --xml` shows is exactly what is exported, plus the standard interfaces; parent nodes
/// list their children.
@Suite struct IntrospectionTests {
    /// The parts of an introspection document the tests look at.
    struct Node {
        /// Per interface: `method Name(in)->(out)`, `signal Name(args)`, `property Name type access` lines.
        var interfaces: [String: Set<String>] = [:]
        var children: [String] = []

        init(xml: String) throws {
            let root = try #require(try XMLDocument(xmlString: xml).rootElement())
            for interface in root.elements(forName: "interface") {
                var members = Set<String>()
                for method in interface.elements(forName: "method") {
                    let arguments = method.elements(forName: "arg")
                    func types(_ direction: String) -> String {
                        arguments.filter { ($0.attribute(forName: "direction")?.stringValue ?? "in") == direction }
                            .compactMap { $0.attribute(forName: "type")?.stringValue }.joined()
                    }
                    members.insert("method \(Self.name(of: method))(\(types("in")))->(\(types("out")))")
                }
                for signal in interface.elements(forName: "signal") {
                    let types = signal.elements(forName: "arg")
                        .compactMap { $0.attribute(forName: "type")?.stringValue }
                    members.insert("signal \(Self.name(of: signal))(\(types.joined()))")
                }
                for property in interface.elements(forName: "property") {
                    let type = property.attribute(forName: "type")?.stringValue ?? ""
                    let access = property.attribute(forName: "access")?.stringValue ?? ""
                    members.insert("property \(Self.name(of: property)) \(type) \(access)")
                }
                interfaces[Self.name(of: interface)] = members
            }
            children = root.elements(forName: "node").map(Self.name(of:))
        }

        private static func name(of element: XMLElement) -> String {
            element.attribute(forName: "name")?.stringValue ?? ""
        }
    }

    static func introspect(_ path: DBusObjectPath, on bus: PrivateBus) async throws -> Node {
        let result = try await gdbus(
            ["introspect", "--session", "--xml", "--dest", TestObject.busName, "--object-path", path.rawValue],
            on: bus)
        #expect(result.status == 0, "gdbus introspect failed: \(result.standardError)")
        return try Node(xml: result.standardOutput)
    }

    static let standardInterfaces: [String: Set<String>] = [
        "org.freedesktop.DBus.Introspectable": ["method Introspect()->(s)"],
        "org.freedesktop.DBus.Peer": ["method Ping()->()", "method GetMachineId()->(s)"],
        "org.freedesktop.DBus.Properties": [
            "method Get(ss)->(v)", "method GetAll(s)->(a{sv})", "method Set(ssv)->()",
            "signal PropertiesChanged(sa{sv}as)",
        ],
    ]

    @Test func objectShowsExactlyItsDescriptionAndTheStandardInterfaces() async throws {
        try await withTestObject { bus, _, _ in
            let node = try await Self.introspect(TestObject.path, on: bus)
            var expected = Self.standardInterfaces
            expected[TestObject.interfaceName] = [
                "method Echo(s)->(s)",
                "method Basics(\(TestObject.basicsSignature))->(\(TestObject.basicsSignature))",
                "method Containers(\(TestObject.containersSignature))->(\(TestObject.containersSignature))",
                "method Fail(ss)->()",
                "method Crash()->()",
                "method Hold()->(s)",
                "signal Changed(s)",
                "property Name s readwrite",
                "property Tags as readwrite",
                "property Version u read",
            ]
            #expect(node.interfaces == expected)
            #expect(node.children.isEmpty)
        }
    }

    @Test func parentNodesListTheirChildren() async throws {
        try await withTestObject { bus, object, _ in
            let other = DBusInterface("org.example.Other", methods: [DBusMethod("Nothing") { _ in [] }])
            try await object.connection.export([other], at: "/org/example/Other/Deep")
            try await object.connection.export([other], at: "/org/example/Test/Child")

            let root = try await Self.introspect(.root, on: bus)
            #expect(root.children == ["org"])
            #expect(root.interfaces.isEmpty)
            let parent = try await Self.introspect("/org/example", on: bus)
            #expect(parent.children == ["Other", "Test"])
            #expect(parent.interfaces.isEmpty)
            // An object with children lists both its interfaces and its children.
            let test = try await Self.introspect(TestObject.path, on: bus)
            #expect(test.children == ["Child"])
            #expect(test.interfaces.keys.contains(TestObject.interfaceName))
            let leaf = try await Self.introspect("/org/example/Other/Deep", on: bus)
            #expect(leaf.interfaces["org.example.Other"] == ["method Nothing()->()"])
        }
    }

    @Test func unexportedObjectDisappears() async throws {
        try await withTestObject { bus, object, client in
            let path: DBusObjectPath = "/org/example/Gone"
            try await object.connection.export([DBusInterface("org.example.Gone")], at: path)
            #expect(try await Self.introspect("/org/example", on: bus).children == ["Gone", "Test"])

            await object.connection.unexport(at: path)
            #expect(try await Self.introspect("/org/example", on: bus).children == ["Test"])
            let failure = try await #require(throws: DBusFailure.self) {
                try await TestObject.call("Introspect", from: client, interface: nil, path: path)
            }
            #expect(failure.name == DBusFailure.Name.unknownObject)
        }
    }

    @Test func invalidDescriptionsAreRefused() async throws {
        try await withTestObject { _, object, _ in
            let handler: @Sendable (DBusMethodCall) async throws -> [DBusValue] = { _ in [] }
            let invalid: [(DBusInterface, DBusObjectPath)] = [
                (DBusInterface("nodots"), "/a"),
                (DBusInterface("org.example.A", methods: [DBusMethod("1bad", handler: handler)]), "/a"),
                (
                    DBusInterface(
                        "org.example.A", methods: [DBusMethod("Twice", handler: handler)],
                        signals: [DBusSignalDescription("Twice")]), "/a"
                ),
                (
                    DBusInterface(
                        "org.example.A",
                        methods: [
                            DBusMethod(
                                "M", inputs: [.init("x", "ss")],
                                handler: handler)
                        ]), "/a"
                ),
                (DBusInterface("org.freedesktop.DBus.Properties"), "/a"),
                (DBusInterface(TestObject.interfaceName), TestObject.path),
            ]
            for (interface, path) in invalid {
                let failure = try await #require(throws: DBusFailure.self) {
                    try await object.connection.export([interface], at: path)
                }
                #expect(failure.name == DBusFailure.Name.invalidArgs)
            }
            let twice = DBusInterface("org.example.A")
            await #expect(throws: DBusFailure.self) { try await object.connection.export([twice, twice], at: "/b") }
        }
    }
}
