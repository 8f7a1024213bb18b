import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

/// The manual pages in `man/`: each renders without a warning, and the D-Bus interface's page names everything the
/// contract defines.
@Suite("the manual pages")
struct ManualPageTests {
    /// The pages, as paths from the repository's top.
    static let pages: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: repositoryFile("man"))) ?? []
        return names.filter { $0.range(of: #"\.[1-8]$"#, options: .regularExpression) != nil }.sorted()
            .map { "man/\($0)" }
    }()

    /// The pages the package installs, each with its section.
    static let expected = [
        "man/notification-bridge-dbus.7", "man/notification-bridge-settings.5", "man/notification-bridge.1",
        "man/notification-bridged.8", "man/notification-terminal-server.1",
    ]

    /// A page rendered as plain text by groff, with every warning turned on, and what groff said on standard error.
    static func render(_ page: String) async throws -> ProcessResult {
        // -rLL: long lines, so that a name is never broken across two; -rHY=0: no hyphenation, for the same reason.
        try await ProcessRunner.run(
            ["groff", "-ww", "-man", "-Tutf8", "-P-cbou", "-rLL=300n", "-rHY=0", repositoryFile(page)],
            timeout: .seconds(30))
    }

    @Test("every page the package installs is in man/")
    func pagesExist() {
        #expect(Self.pages == Self.expected)
    }

    @Test("the page renders without a warning", arguments: expected)
    func rendersCleanly(_ page: String) async throws {
        let rendered = try await Self.render(page)
        #expect(rendered.status == 0, "groff failed on \(page): \(rendered.standardError)")
        #expect(rendered.standardError.isEmpty, "groff warns about \(page):\n\(rendered.standardError)")
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "EXAMPLES", "SEE ALSO"] {
            #expect(rendered.standardOutput.contains("\n\(section)\n"), "\(page) has no \(section) section")
        }
    }

    @Test("the command line's and the daemon's pages say what each exit status means")
    func exitStatus() async throws {
        for page in ["man/notification-bridge.1", "man/notification-bridged.8", "man/notification-terminal-server.1"] {
            let text = try await Self.render(page).standardOutput
            #expect(text.contains("\nEXIT STATUS\n"), "\(page) has no EXIT STATUS section")
        }
        let cli = try await Self.render("man/notification-bridge.1").standardOutput
        for status in ["0", "1", "2", "3"] {
            #expect(cli.range(of: "\n {7}\(status) {2,}", options: .regularExpression) != nil, "status \(status)")
        }
        #expect(cli.contains("NOTIFY-SEND COMPATIBILITY"))
        #expect(cli.contains("doctor"))
    }

    @Test("the D-Bus page names every method, signal, property, key with its types, and error of the contract")
    func dbusPageIsComplete() async throws {
        let page = try await Self.render("man/notification-bridge-dbus.7").standardOutput
        let text = page.replacingOccurrences(of: "[ \\t\\n]+", with: " ", options: .regularExpression)
        let xml = try String(contentsOfFile: repositoryFile("dbus/\(BridgeAPI.interfaceName).xml"), encoding: .utf8)
        let members = ["method", "signal", "property"].flatMap { kind in
            xml.matches(of: try! Regex("<\(kind) name=\"([A-Za-z]+)\"")).compactMap { $0.output[1].substring }
                .map { (kind, String($0)) }
        }
        #expect(members.count > 20, "found only \(members) in the interface XML")
        for (kind, name) in members {
            #expect(text.contains(" \(name) ("), "the \(kind) \(name) is not described in notification-bridge-dbus(7)")
        }
        for (dictionary, keys) in BridgeKeyTables.all {
            for key in keys {
                let entry = "\(key.name) (\(key.types.joined(separator: " or ")))"
                #expect(text.contains(entry), "the \(dictionary) key '\(entry)' is not in notification-bridge-dbus(7)")
            }
        }
        for error in BridgeError.all {
            #expect(text.contains(error.rawValue), "the error \(error) is not in notification-bridge-dbus(7)")
        }
    }
}
