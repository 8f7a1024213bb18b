import DBusTestSupport
import Foundation

/// One shell example of the documentation, as a reader sees it: a fenced `sh` block of a Markdown file (`README.md`,
/// `docs/*.md`) or an `.EX`/`.EE` block of a manual page (`man/*`), with the marker before it and the output shown
/// after it.
///
/// Every such block carries a marker, so that none can be added without a test:
/// - `<!-- example: NAME -->` (Markdown) or `.\" example: NAME` (roff): run by `DocumentedExampleTests` with the
///   runner of that name;
/// - `<!-- not run: REASON -->` or `.\" not run: REASON`: only for commands that build or install the package, which
///   `make test` cannot run inside itself.
///
/// A manual page's `.EX` block that shows a file's content rather than commands says so with `.\" file: NAME`; in
/// Markdown such blocks carry their own language (`ini`, `swift`) and are not shell blocks.
struct DocumentedExample: Sendable, CustomStringConvertible {
    enum Marker: Sendable, Equatable {
        case example(String)
        case notRun(String)
        case missing
    }

    /// The document, from the repository's top.
    let file: String
    /// The line of the block's first command.
    let line: Int
    let marker: Marker
    /// The commands, as the reader copies them.
    let script: String
    /// The output the document shows right after the block (a Markdown `text` block), if any.
    let shownOutput: String?

    var description: String { "\(file):\(line)" }

    var name: String? {
        if case .example(let name) = marker { return name }
        return nil
    }
}

/// Reads the examples out of the documents.
enum DocumentedExamples {
    /// The documents whose examples are run: the README, `docs/` and the manual pages.
    static func documents() throws -> [String] {
        var found = ["README.md"]
        for folder in ["docs", "man"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: repositoryFile(folder))) ?? []
            let documents = names.sorted().filter {
                $0.hasSuffix(".md") || $0.range(of: #"\.[1-8]$"#, options: .regularExpression) != nil
            }
            found += documents.map { "\(folder)/\($0)" }
        }
        return found
    }

    /// Every example of every document.
    static func all() throws -> [DocumentedExample] {
        try documents().flatMap { file in
            let text = try String(contentsOfFile: repositoryFile(file), encoding: .utf8)
            return file.hasSuffix(".md") ? markdown(text, file: file) : manualPage(text, file: file)
        }
    }

    /// The `sh` blocks of a Markdown text.
    static func markdown(_ text: String, file: String) -> [DocumentedExample] {
        let lines = text.components(separatedBy: "\n")
        var examples: [DocumentedExample] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```sh" else {
                index += 1
                continue
            }
            let marker = markdownMarker(lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
            let start = index + 1
            var end = start
            while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" { end += 1 }
            var next = end + 1
            while next < lines.count, lines[next].trimmingCharacters(in: .whitespaces).isEmpty { next += 1 }
            var shown: String?
            if next < lines.count, lines[next].trimmingCharacters(in: .whitespaces) == "```text" {
                var close = next + 1
                while close < lines.count, lines[close].trimmingCharacters(in: .whitespaces) != "```" { close += 1 }
                shown = lines[(next + 1)..<min(close, lines.count)].joined(separator: "\n")
            }
            examples.append(
                DocumentedExample(
                    file: file, line: start + 1, marker: marker,
                    script: lines[start..<min(end, lines.count)].joined(separator: "\n"), shownOutput: shown))
            index = end + 1
        }
        return examples
    }

    private static func markdownMarker(_ line: String?) -> DocumentedExample.Marker {
        guard let line = line?.trimmingCharacters(in: .whitespaces), line.hasPrefix("<!--"), line.hasSuffix("-->")
        else { return .missing }
        let inner = line.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
        return marker(inner)
    }

    private static func marker(_ text: String) -> DocumentedExample.Marker {
        if text.hasPrefix("example:") {
            return .example(text.dropFirst("example:".count).trimmingCharacters(in: .whitespaces))
        }
        if text.hasPrefix("not run:") {
            return .notRun(text.dropFirst("not run:".count).trimmingCharacters(in: .whitespaces))
        }
        return .missing
    }

    /// The `.EX`/`.EE` blocks of a roff manual page, with roff's escapes turned back into the characters a reader
    /// sees and copies.
    static func manualPage(_ text: String, file: String) -> [DocumentedExample] {
        let lines = text.components(separatedBy: "\n")
        var examples: [DocumentedExample] = []
        var index = 0
        while index < lines.count {
            guard lines[index].hasPrefix(".EX") else {
                index += 1
                continue
            }
            var marker = DocumentedExample.Marker.missing
            var isFile = false
            if index > 0, lines[index - 1].hasPrefix(#".\""#) {
                let text = lines[index - 1].dropFirst(3).trimmingCharacters(in: .whitespaces)
                marker = Self.marker(text)
                isFile = text.hasPrefix("file:")
            }
            let start = index + 1
            var end = start
            while end < lines.count, !lines[end].hasPrefix(".EE") { end += 1 }
            if isFile {
                index = end + 1
                continue
            }
            examples.append(
                DocumentedExample(
                    file: file, line: start + 1, marker: marker,
                    script: lines[start..<min(end, lines.count)].map(unescapedRoff).joined(separator: "\n"),
                    shownOutput: nil))
            index = end + 1
        }
        return examples
    }

    /// A line of roff text as it renders: the escapes these pages use replaced by their characters.
    static func unescapedRoff(_ line: String) -> String {
        var text = line
        for (escape, character) in [
            (#"\(aq"#, "'"), (#"\(dq"#, "\""), (#"\(ti"#, "~"), (#"\(ha"#, "^"), (#"\-"#, "-"), (#"\&"#, ""),
            (#"\e"#, "\\"),
        ] {
            text = text.replacingOccurrences(of: escape, with: character)
        }
        return text
    }

    /// Whether a block that is not run holds only commands that build or install the package.
    static func onlyBuildsOrInstalls(_ script: String) -> Bool {
        let allowed = ["make", "sudo make", "sudo apt-get install", "sudo apt install", "git clone", "cd"]
        return script.split(separator: "\n").allSatisfy { line in
            let command = line.trimmingCharacters(in: .whitespaces)
            return command.isEmpty || command.hasPrefix("#")
                || allowed.contains { command == $0 || command.hasPrefix($0 + " ") }
        }
    }
}
