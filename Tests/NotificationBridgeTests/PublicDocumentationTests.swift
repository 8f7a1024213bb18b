import DBusTestSupport
import Foundation
import Testing

/// Every public declaration of the library and of the model has a `///` comment: DocC publishes both, and a page
/// without a summary tells an app developer nothing. Members that only fulfil a standard protocol (`==`,
/// `hash(into:)`, `init(from:)`, `encode(to:)`, `description`, iterators) take the protocol's documentation.
@Suite("the library's public API is documented")
struct PublicDocumentationTests {
    static let folders = ["Sources/NotificationBridge", "Sources/NotificationModel"]

    /// A line that declares something public, after any attributes.
    static let declaration =
        #"^\s*(?:@[\w().: ,"]+\s+)*(?:public|open)\s+"#
        + #"(?:(?:static|final|nonisolated|override|mutating|convenience|required|indirect)\s+)*"#
        + #"(func|var|let|init|struct|enum|class|actor|case|typealias|protocol|subscript)\b"#
    /// Members documented by the protocol they fulfil.
    static let protocolMember =
        #"func ==|func hash\(into|init\(from decoder|func encode\(to encoder|var description\b|var debugDescription"#
        + #"|func makeIterator|func makeAsyncIterator|func next\(|init\(rawValue|var rawValue"#

    @Test("every public declaration of NotificationBridge and NotificationModel has a /// comment")
    func everyDeclarationIsDocumented() throws {
        var undocumented: [String] = []
        for folder in Self.folders {
            let root = repositoryFile(folder)
            let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            #expect(!files.isEmpty, "no sources in \(root)")
            for file in files.sorted() where file.hasSuffix(".swift") {
                let lines = try String(contentsOfFile: "\(root)/\(file)", encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                for (index, line) in lines.enumerated() {
                    guard line.range(of: Self.declaration, options: .regularExpression) != nil,
                        line.range(of: Self.protocolMember, options: .regularExpression) == nil
                    else { continue }
                    var above = index - 1
                    while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") { above -= 1 }
                    if above < 0 || !lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                        let text = line.trimmingCharacters(in: .whitespaces)
                        undocumented.append("\(folder)/\(file):\(index + 1): \(text)")
                    }
                }
            }
        }
        let message = "public declarations without a /// summary (say what it is and what a caller must know):\n"
            + undocumented.joined(separator: "\n")
        #expect(undocumented.isEmpty, Comment(rawValue: message))
    }
}
