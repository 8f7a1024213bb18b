import Foundation
import Testing

@Suite("NotificationModel stays free of Foundation")
struct ModuleDependencyTests {
    @Test("no source file of the module imports anything but the standard library")
    func importsOnlyTheStandardLibrary() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/NotificationModel")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty, "no sources found at \(sources.path)")
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter {
                $0.trimmingCharacters(in: .whitespaces).range(
                    of: #"^(@\w+ )?(\w+ )?import "#,
                    options: .regularExpression
                )
                    != nil
            }
            #expect(imports.isEmpty, "\(file) imports \(imports)")
        }
    }
}
