import NotificationBridgeAPI
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The interface XML in `dbus/` (what `gdbus introspect` shows) names every key of every dictionary.
@Suite("the interface XML documents the key tables")
struct InterfaceDocumentationTests {
    @Test("every key of every table is named in dbus/io.github.NotificationBridge1.xml")
    func everyKeyIsDocumented() throws {
        let root = String(#filePath.split(separator: "/Tests/").first ?? "")
        let path = "/" + root.drop { $0 == "/" } + "/dbus/\(BridgeAPI.interfaceName).xml"
        let xml = try #require(readText(path), "cannot read \(path)")
        let separators = Set(" ,.:;()'<>\"\n\t")
        for (dictionary, keys) in BridgeKeyTables.all {
            for key in keys {
                let named = xml.ranges(of: key.name).contains { range in
                    let before = range.lowerBound == xml.startIndex ? " " : xml[xml.index(before: range.lowerBound)]
                    let after = range.upperBound == xml.endIndex ? " " : xml[range.upperBound]
                    return separators.contains(before) && separators.contains(after)
                }
                #expect(named, "the \(dictionary) key '\(key.name)' is not documented in \(path)")
            }
        }
    }
}

/// A file's text, read without Foundation.
private func readText(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: buffer[..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}
