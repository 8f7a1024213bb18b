import DBusTestSupport
import Foundation
import Testing

/// Every place that tells a reader which Debian packages to install before building names all of them: a list that
/// leaves one out fails later, in a pkg-config message that does not say which package to install.
@Suite("the documented build prerequisites")
struct BuildPrerequisiteTests {
    /// The documents a reader installs packages from: the README (from source, and an app's package) and the
    /// library's Getting Started page.
    static let documents = ["README.md", "Sources/NotificationBridge/NotificationBridge.docc/GettingStarted.md"]

    @Test(
        "every line that lists the build's Debian packages names each of the Makefile's BUILD_PACKAGES",
        arguments: documents)
    func listsEveryBuildPackage(document: String) throws {
        let required = try Self.buildPackages()
        #expect(!required.isEmpty, "the Makefile has no BUILD_PACKAGES line")
        let text = try String(contentsOfFile: repositoryFile(document), encoding: .utf8)
        // A prerequisite line is one that names libdbus-1-dev, the package every build needs.
        let lines = text.components(separatedBy: "\n").enumerated().filter { $0.element.contains("libdbus-1-dev") }
        #expect(!lines.isEmpty, "\(document) names no build prerequisites")
        for (index, line) in lines {
            let named = Set(line.split { !$0.isLetter && !$0.isNumber && !"-.+".contains($0) }.map(String.init))
            let missing = required.filter { !named.contains($0) }
            #expect(
                missing.isEmpty,
                "\(document):\(index + 1) leaves out \(missing.joined(separator: ", ")) of BUILD_PACKAGES: \(line)")
        }
    }

    @Test("make installs only BUILD_PACKAGES and builds only what make install installs")
    func defaultTargetBuildsWhatInstallInstalls() async throws {
        // A dry run: make prints the commands, and runs only its own recursive calls, which are dry runs too.
        let all = try await ProcessRunner.run(["make", "-n", "-C", repositoryFile(".")], timeout: .seconds(60))
        #expect(all.status == 0, "make -n failed: \(all.output)")
        let install = try await ProcessRunner.run(
            ["make", "-n", "-C", repositoryFile("."), "install", "DESTDIR=/nonexistent"], timeout: .seconds(60))
        #expect(install.status == 0, "make -n install failed: \(install.output)")
        let installed = try Self.buildPackages()
        for line in all.standardOutput.components(separatedBy: "\n") where line.hasPrefix("for package in ") {
            let packages = line.dropFirst("for package in ".count).prefix { $0 != ";" }.split(separator: " ")
            #expect(packages.map(String.init) == installed, "make installs more than BUILD_PACKAGES: \(line)")
        }
        let builds = Self.swiftBuilds(all.standardOutput)
        #expect(!builds.isEmpty, "make builds nothing")
        #expect(
            builds.allSatisfy { $0.contains("-c release") }, "make makes a build make install does not use: \(builds)")
        #expect(Set(builds).isSubset(of: Self.swiftBuilds(install.standardOutput)), "make builds what install does not")
        #expect(all.standardOutput.contains("Manual pages:"), "make does not make the manual pages")
    }

    /// The `swift build` commands of a dry run's output.
    static func swiftBuilds(_ output: String) -> [String] {
        output.components(separatedBy: "\n").filter { $0.contains("swift build") && !$0.contains("--show-bin-path") }
    }

    /// The packages of the Makefile's `BUILD_PACKAGES := …` line.
    static func buildPackages() throws -> [String] {
        let makefile = try String(contentsOfFile: repositoryFile("Makefile"), encoding: .utf8)
        let line = makefile.components(separatedBy: "\n").first { $0.hasPrefix("BUILD_PACKAGES :=") } ?? ""
        return line.dropFirst("BUILD_PACKAGES :=".count).split(separator: " ").map(String.init)
    }
}
