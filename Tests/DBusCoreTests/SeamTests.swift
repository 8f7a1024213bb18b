import Foundation
import Testing

/// The one seam to libdbus: no module but DBusCore imports CDBus, and no libdbus type leaks into its public API.
@Suite struct SeamTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    static func swiftFiles() throws -> [(module: String, path: String, text: String)] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var files: [(String, String, String)] = []
        for case let relative as String in enumerator where relative.hasSuffix(".swift") {
            let module = String(relative.split(separator: "/").first ?? "")
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            files.append((module, relative, text))
        }
        return files
    }

    @Test func onlyDBusCoreImportsCDBus() throws {
        let files = try Self.swiftFiles()
        #expect(files.count > 20, "the source tree was not found at \(Self.sources.path)")
        for file in files where file.module != "DBusCore" {
            #expect(!file.text.contains("import CDBus"), "\(file.path) imports CDBus; go through DBusCore")
        }
    }

    @Test func dbusCoreImportsCDBusInternally() throws {
        for file in try Self.swiftFiles() where file.module == "DBusCore" {
            for line in file.text.split(separator: "\n") where line.contains("import CDBus") {
                #expect(line.hasPrefix("internal import"), "\(file.path): \(line)")
            }
        }
    }

    @Test func onlyTheStoreDatabaseImportsCSQLite() throws {
        for file in try Self.swiftFiles() {
            for line in file.text.split(separator: "\n") where line.contains("import CSQLite") {
                #expect(
                    file.path.hasPrefix("NotificationStore/Database/") && line.hasPrefix("internal import"),
                    "\(file.path): \(line); SQLite is reached through NotificationStore/Database only")
            }
        }
    }
}
