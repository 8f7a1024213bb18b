import DBusTestSupport
import Foundation

/// What a package of the bridge installs: its two programs stripped as `packaging/build-deb.sh` strips them (the
/// third command, `notification-terminal-server`, is a link to the daemon's program), and, when `make deb` has built
/// one, the `.deb`'s own installed size. The programs are the ones this run measures: only with `STATIC=1` are they
/// linked as the package links them.
struct SizeSuite {
    let options: Options

    private static let group = "installed size"
    private static let programs = ["notification-bridged", "notification-bridge"]

    func run() async throws -> [ResultRow] {
        let directory = URL(fileURLWithPath: options.daemon).deletingLastPathComponent()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nb-size-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var total = 0.0
        var parts: [String] = []
        var linksRuntime = false
        for program in Self.programs {
            let source = directory.appendingPathComponent(program)
            guard FileManager.default.isExecutableFile(atPath: source.path) else {
                log("installed size: \(program) is not built; 'make bench' builds it")
                return []
            }
            let copy = scratch.appendingPathComponent(program)
            try FileManager.default.copyItem(at: source, to: copy)
            let stripped = try await ProcessRunner.run(
                ["strip", "--strip-unneeded", "--remove-section=.comment", "--remove-section=.note", copy.path],
                timeout: .seconds(60))
            guard stripped.status == 0 else { throw BenchError("strip \(program) failed: \(stripped.standardError)") }
            let size = Double(try FileManager.default.attributesOfItem(atPath: copy.path)[.size] as? Int ?? 0)
            total += size
            parts.append(String(format: "%@ %.1f MB", program, size / 1e6))
            let libraries = try await ProcessRunner.run(["ldd", copy.path], timeout: .seconds(30))
            linksRuntime = linksRuntime || libraries.standardOutput.contains("libswiftCore")
        }
        var rows = [
            ResultRow(
                Self.group, "the programs, stripped", unit: .bytes, median: total,
                target: linksRuntime ? nil : Thresholds.size.judge(total, text: "≤ 10 MB"),
                note: "(" + parts.joined(separator: ", ") + "; notification-terminal-server is a link to the first"
                    + (linksRuntime
                        ? "; linked to the shared Swift runtime, which a package would ship too: STATIC=1 measures "
                            + "them as the .deb has them)"
                        : ")"))
        ]
        if let package = try await installedSizeOfBuiltPackage() {
            rows.append(
                ResultRow(
                    Self.group, "the .deb (make deb), installed", unit: .bytes, median: package.bytes,
                    target: Thresholds.size.judge(package.bytes, text: "≤ 10 MB"),
                    note: "(\(package.name), Installed-Size; built by its own make deb, maybe from older sources)"))
        }
        return rows
    }

    /// The installed size of the package `make deb` left in `.build/deb`, from its control file; `nil` when there is
    /// none.
    private func installedSizeOfBuiltPackage() async throws -> (name: String, bytes: Double)? {
        let folder = ".build/deb"
        guard
            let name = (try? FileManager.default.contentsOfDirectory(atPath: folder))?
                .filter({ $0.hasSuffix(".deb") }).sorted().last
        else { return nil }
        let field = try await ProcessRunner.run(
            ["dpkg-deb", "--field", "\(folder)/\(name)", "Installed-Size"], timeout: .seconds(30))
        let text = field.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard field.status == 0, let kibibytes = Double(text) else { return nil }
        return (name, kibibytes * 1024)
    }
}
