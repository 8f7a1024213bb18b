import Foundation
import NotificationBridgeAPI
import Testing

/// Every method, signal and property of `io.github.NotificationBridge1` is spelled once, in the contract's tables
/// (``BridgeMethod``, ``BridgeSignal``, ``BridgeProperty``): the daemon serves them, the proxy calls them and the
/// other clients name them through those tables, so that renaming a member cannot leave a copy behind.
@Suite("member names are spelled only in the contract")
struct MemberNameCopyTests {
    /// The name of every method, signal and property.
    static let names = Set(
        BridgeMethod.allCases.map(\.name) + BridgeSignal.allCases.map(\.name) + BridgeProperty.allCases.map(\.name))

    @Test("no member name of io.github.NotificationBridge1 is a string literal outside Sources/NotificationBridgeAPI")
    func noCopies() throws {
        let copies = try KeyNameCopyTests.literals(of: Self.names).filter {
            !MemberNameAllowance.allows($0.file, $0.key)
        }
        #expect(
            copies.isEmpty,
            """
            Name these members through the contract (e.g. BridgeMethod.post.name, BridgeProxy, BridgeEvent), or, if \
            the word is another interface's, add the file to MemberNameAllowance with the reason:
            \(copies.map { "\($0.file):\($0.line): \"\($0.key)\"" }.joined(separator: "\n"))
            """)
    }

    @Test("every allowance still matches a literal, so that none outlives its reason")
    func allowancesAreUsed() throws {
        let literals = try KeyNameCopyTests.literals(of: Self.names)
        for allowance in MemberNameAllowance.all {
            #expect(
                literals.contains { $0.file == allowance.file && allowance.names.contains($0.key) },
                "\(allowance.file) no longer quotes \(allowance.names); remove it from MemberNameAllowance")
        }
    }

    @Test("the tables name each member once, and each method and signal has reference text")
    func tablesAreWhole() {
        let all =
            BridgeMethod.allCases.map(\.name) + BridgeSignal.allCases.map(\.name) + BridgeProperty.allCases.map(\.name)
        #expect(Set(all).count == all.count, "a name appears twice: \(all)")
        let limits = BridgeInterfaceLimits(scheduledPerApp: 1, keptEnded: 1)
        for method in BridgeMethod.allCases {
            #expect(!method.documentation(limits).isEmpty, "\(method.name) has no reference text")
        }
        for signal in BridgeSignal.allCases {
            #expect(!signal.documentation.isEmpty, "\(signal.name) has no reference text")
        }
    }
}

/// A file that may quote member names of the interface as string literals, and why.
struct MemberNameAllowance {
    /// The file, from the package root.
    let file: String
    /// The names it may quote.
    let names: [String]
    let reason: String

    init(_ file: String, _ names: [String], _ reason: String) {
        self.file = file
        self.names = names
        self.reason = reason
    }

    static func allows(_ file: String, _ name: String) -> Bool {
        all.contains { $0.file == file && $0.names.contains(name) }
    }

    static let all = [
        MemberNameAllowance(
            "Benchmarks/SendFloor/main.swift", [BridgeMethod.post.name],
            "the floor under the command line makes the call with libdbus alone, without this package's modules"),
        MemberNameAllowance(
            "Tests/NotificationBridgeDaemonTests/GdbusSchedulingScriptTests.swift",
            [BridgeMethod.listPending.name, BridgeMethod.listDelivered.name], "gdbus commands as users write them"),
        MemberNameAllowance(
            "Sources/FreedesktopNotifications/FreedesktopNames.swift",
            [BridgeMethod.getServerInformation.name], "org.freedesktop.Notifications has a method of the same name"),
        MemberNameAllowance(
            "Benchmarks/DBusBench/BenchNotificationServer.swift", [BridgeMethod.getServerInformation.name],
            "org.freedesktop.Notifications has a method of the same name"),
        MemberNameAllowance(
            "Tests/NotificationServerKitTests/ServerInformationTests.swift", [BridgeMethod.getServerInformation.name],
            "org.freedesktop.Notifications has a method of the same name"),
        MemberNameAllowance(
            "Tests/InteropTests/GnomeShellSession.swift", [BridgeMethod.getServerInformation.name],
            "org.freedesktop.Notifications has a method of the same name"),
        MemberNameAllowance(
            "Tests/DBusCoreTests/TestObject.swift", [BridgeProperty.version.name],
            "a property of DBusCore's own test object"),
        MemberNameAllowance(
            "Tests/DBusCoreTests/PropertiesTests.swift", [BridgeProperty.version.name],
            "a property of DBusCore's own test object"),
        MemberNameAllowance(
            "Tests/DBusCoreTests/BadInputTests.swift", [BridgeProperty.version.name],
            "a property of DBusCore's own test object"),
    ]
}
