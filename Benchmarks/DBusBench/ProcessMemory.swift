import Foundation

/// A process's resident memory as `/proc/<pid>/status` tells it.
struct ProcessMemory {
    let pid: pid_t

    /// Resident memory in bytes (`VmRSS`).
    func residentBytes() throws -> Double {
        let value = kilobytes("VmRSS:")
        guard !value.isNaN else { throw BenchError("no VmRSS in /proc/\(pid)/status: has the process ended?") }
        return value * 1024
    }

    /// Resident memory by kind (`RssAnon`: heap and stacks; `RssFile`: mapped files, mostly shared libraries), in
    /// bytes.
    func residentBreakdown() -> (anonymous: Double, files: Double) {
        (kilobytes("RssAnon:") * 1024, kilobytes("RssFile:") * 1024)
    }

    /// The breakdown as a row's note.
    var note: String {
        let (anonymous, files) = residentBreakdown()
        return String(format: "(heap and stacks %.1f MB, mapped files %.1f MB)", anonymous / 1e6, files / 1e6)
    }

    private func kilobytes(_ key: String) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return .nan }
        return Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan
    }
}
