import NotificationBridgeAPI
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The interface XML in `dbus/` (what `gdbus introspect` shows) documents every key of every dictionary: by its
/// name, or by naming the section of notification-bridge-dbus(7) that describes a table holding it (a table too
/// long for one annotation).
@Suite("the interface XML documents the key tables")
struct InterfaceDocumentationTests {
    /// The manual page's section for each table of ``BridgeKeyTables/all``.
    static let sections: [String: String] = [
        "Post notification": "NOTIFICATION KEYS", "calendar": "CALENDAR KEYS", "action": "ACTION KEYS",
        "RegisterCategory options": "CATEGORY OPTION KEYS", "ListCategories category": "CATEGORY KEYS",
        "response": "RESPONSE KEYS", "listed notification": "LISTED KEYS", "filter": "FILTER KEYS",
        "history entry": "HISTORY KEYS", "Act options": "ACT OPTION KEYS", "Attach options": "ATTACH OPTION KEYS",
        "settings": "SETTINGS KEYS", "server information": "SERVER INFORMATION KEYS",
        "desktop do-not-disturb": "DESKTOP DO-NOT-DISTURB KEYS", "active focus": "FOCUS KEYS",
        "TurnOnFocus options": "FOCUS OPTION KEYS", "focus mode": "FOCUS MODE KEYS",
    ]

    @Test("every key of every table is named in dbus/io.github.NotificationBridge1.xml, or its table's section is")
    func everyKeyIsDocumented() throws {
        let root = String(#filePath.split(separator: "/Tests/").first ?? "")
        let path = "/" + root.drop { $0 == "/" } + "/dbus/\(BridgeAPI.interfaceName).xml"
        let xml = try #require(readText(path), "cannot read \(path)")
        let separators = Set(" ,.:;()'<>\"\n\t")
        let referenced = Set(
            BridgeKeyTables.all.filter { table in
                Self.sections[table.dictionary].map { xml.contains(InterfaceReference.manualPage) && xml.contains($0) }
                    ?? false
            }.flatMap { $0.keys.map(\.name) })
        for (dictionary, keys) in BridgeKeyTables.all {
            #expect(Self.sections[dictionary] != nil, "the \(dictionary) table has no manual page section here")
            for key in keys where !referenced.contains(key.name) {
                let named = xml.ranges(of: key.name).contains { range in
                    let before = range.lowerBound == xml.startIndex ? " " : xml[xml.index(before: range.lowerBound)]
                    let after = range.upperBound == xml.endIndex ? " " : xml[range.upperBound]
                    return separators.contains(before) && separators.contains(after)
                }
                #expect(named, "the \(dictionary) key '\(key.name)' is not documented in \(path)")
            }
        }
    }

    @Test("every section of notification-bridge-dbus(7) the XML names is one of the manual page's sections")
    func namedSectionsExist() throws {
        let root = "/" + String(#filePath.split(separator: "/Tests/").first ?? "").drop { $0 == "/" }
        let xml = try #require(readText(root + "/dbus/\(BridgeAPI.interfaceName).xml"))
        let page = try #require(readText(root + "/man/notification-bridge-dbus.7"))
        let sections = Set(page.split(separator: "\n").filter { $0.hasPrefix(".SH ") }.map { String($0.dropFirst(4)) })
        let named = xml.matches(of: /notification-bridge-dbus\(7\), ([A-Z][A-Z -]*[A-Z])/).map { String($0.output.1) }
        #expect(!named.isEmpty, "the XML names no section of the manual page")
        for section in named {
            #expect(sections.contains(section), "the XML names \(section), which notification-bridge-dbus(7) lacks")
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
