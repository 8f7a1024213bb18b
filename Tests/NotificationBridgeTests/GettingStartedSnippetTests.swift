import DBusTestSupport
import Foundation
import Testing

/// The app the Getting Started page tells a new user to write compiles where the page says to put it: in the file
/// `swift package init --type executable` makes, in a package that depends on this one as the page's `Package.swift`
/// does. The test reads both files out of the page, so that the page cannot drift from what compiles.
///
/// It builds a package of its own, a minute and a half of both cores, so it runs in `make docs` (`NB_DOCS_TESTS=1`),
/// which CI runs after `make test`, rather than beside the timing-sensitive tests of `make test`.
@Suite(
    "the Getting Started app compiles",
    .enabled(if: ProcessInfo.processInfo.environment["NB_DOCS_TESTS"] == "1", "make docs runs it (NB_DOCS_TESTS=1)"))
struct GettingStartedSnippetTests {
    static let page = "Sources/NotificationBridge/NotificationBridge.docc/GettingStarted.md"

    @Test("the page's Package.swift and Sources/Mail/Mail.swift build in a package made by the executable template")
    func snippetCompiles() async throws {
        let text = try String(contentsOfFile: repositoryFile(Self.page), encoding: .utf8)
        let blocks = Self.swiftBlocks(text)
        let manifest = try #require(blocks.first { $0.contains("// Package.swift\n") }, "no Package.swift block")
        let app = try #require(blocks.first { $0.hasPrefix("// Sources/Mail/Mail.swift\n") }, "no Mail.swift block")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nb-getting-started-\(UUID())")
        let package = folder.appendingPathComponent("Mail")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The dependency's identity is its folder's name: a link named as the package, whatever the checkout's name.
        let dependency = folder.appendingPathComponent("NotificationBridge")
        try FileManager.default.createSymbolicLink(
            atPath: dependency.path, withDestinationPath: repositoryFile("."))

        let initialized = try await Self.swift(["package", "init", "--type", "executable"], in: package)
        #expect(initialized.status == 0, "swift package init failed: \(initialized.output)")
        let appFile = package.appendingPathComponent("Sources/Mail/Mail.swift")
        #expect(
            FileManager.default.fileExists(atPath: appFile.path),
            "the executable template no longer makes Sources/Mail/Mail.swift, where the page puts the app")

        let remote = #/\.package\(url: "[^"]*NotificationBridge", from: "[^"]*"\)/#
        #expect(manifest.contains(remote), "the page's Package.swift does not depend on NotificationBridge by URL")
        let local = manifest.replacing(remote) { _ in ".package(path: \"\(dependency.path)\")" }
        try local.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try app.write(to: appFile, atomically: true, encoding: .utf8)
        // The same dependency versions as this package, so that nothing new is fetched.
        try? FileManager.default.copyItem(
            atPath: repositoryFile("Package.resolved"), toPath: package.appendingPathComponent("Package.resolved").path)

        // Only the app's module and what it imports: compiled, not linked.
        let built = try await Self.swift(["build", "--target", "Mail"], in: package, timeout: .seconds(900))
        #expect(built.status == 0, "the Getting Started app does not compile:\n\(built.output)")
        let warnings = built.output.split(separator: "\n").filter {
            $0.contains("Mail.swift") && $0.contains("warning:")
        }
        #expect(
            warnings.isEmpty, "the Getting Started app compiles with warnings:\n\(warnings.joined(separator: "\n"))")
    }

    /// The text of each fenced `swift` block.
    static func swiftBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Runs `swift` with `arguments` in `folder`, from `PATH`, as a developer would.
    static func swift(_ arguments: [String], in folder: URL, timeout: Duration = .seconds(120)) async throws
        -> ProcessResult
    {
        try await ProcessRunner.run(
            ["/bin/sh", "-c", "cd \"$0\" && exec swift \"$@\"", folder.path] + arguments, timeout: timeout)
    }
}
