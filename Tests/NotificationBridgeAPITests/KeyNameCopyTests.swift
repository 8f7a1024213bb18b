import Foundation
import NotificationBridgeAPI
import Testing

/// Every key of the interface's dictionaries is spelled once, in its key table: code that builds or reads those
/// dictionaries names keys through `PostKeys`, `ActionKeys`, …, so that renaming a key cannot leave a copy behind.
@Suite("key names are spelled only in the contract")
struct KeyNameCopyTests {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The folders searched, and the one that owns the key names.
    static let searched = ["Sources", "Tests", "Benchmarks", "Fuzz"]
    static let contract = "Sources/NotificationBridgeAPI/"
    /// Every key name of every table.
    static let names = Set(BridgeKeyTables.all.flatMap { $0.keys.map(\.name) })

    /// Each quoted key name outside the contract: file (from the root), line number and key.
    static func literals() throws -> [(file: String, line: Int, key: String)] {
        try literals(of: names)
    }

    /// Each string literal outside the contract that is one of `names`: file (from the root), line number and name.
    static func literals(of names: Set<String>) throws -> [(file: String, line: Int, key: String)] {
        var found: [(file: String, line: Int, key: String)] = []
        for file in try swiftFiles() where !file.hasPrefix(contract) {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                // Comments are not code; `///` examples in documentation may quote keys.
                guard !line.drop(while: \.isWhitespace).hasPrefix("//") else { continue }
                // What lies between two quotes, as `grep '"name"'` would find it.
                let pieces = line.split(separator: "\"", omittingEmptySubsequences: false).dropFirst().dropLast()
                for piece in Set(pieces.map(String.init)).intersection(names).sorted() {
                    found.append((file, index + 1, piece))
                }
            }
        }
        return found
    }

    /// The Swift files of the searched folders, as paths from the root, in order.
    static func swiftFiles() throws -> [String] {
        var files: [String] = []
        for folder in searched {
            let url = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: url.path) else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
            }
            for case let path as String in walker where path.hasSuffix(".swift") { files.append("\(folder)/\(path)") }
        }
        return files.sorted()
    }

    @Test("no key name of BridgeKeyTables is a string literal outside Sources/NotificationBridgeAPI")
    func noCopies() throws {
        let copies = try Self.literals().filter { !KeyNameAllowance.allows($0.file, $0.key) }
        #expect(
            copies.isEmpty,
            """
            Spell these keys through their table (e.g. PostKeys.title.name, or WireEntries), or, if the word is \
            another format's and not this interface's, add the file and key to KeyNameAllowance with the reason:
            \(copies.map { "\($0.file):\($0.line): \"\($0.key)\"" }.joined(separator: "\n"))
            """)
    }

    @Test("every allowance still matches a literal, so that none outlives its reason")
    func allowancesAreUsed() throws {
        let literals = try Self.literals()
        for allowance in KeyNameAllowance.all {
            for key in allowance.keys ?? [] {
                #expect(
                    literals.contains { $0.file == allowance.file && $0.key == key },
                    "\(allowance.file) no longer quotes \"\(key)\"; remove it from KeyNameAllowance")
            }
            #expect(
                FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(allowance.file).path),
                "\(allowance.file) does not exist; remove it from KeyNameAllowance")
        }
    }
}
