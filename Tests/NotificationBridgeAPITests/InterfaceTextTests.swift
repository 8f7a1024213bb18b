import DBusCore
import NotificationBridgeAPI
import Testing

/// What `gdbus introspect` shows of `io.github.NotificationBridge1`: descriptions that name the keys a method takes or
/// returns, annotations short enough to read on one line, and properties that say truly whether they change.
@Suite("the interface's own text")
struct InterfaceTextTests {
    static let limits = BridgeInterfaceLimits(scheduledPerApp: 64, keptEnded: 256)

    /// The interface as the daemon serves it, with handlers that are never called.
    static let interface = BridgeInterfaceDescription.interface(
        limits: limits, serve: { _, call in call.reply([]) }, property: { _ in { .string("") } })

    /// One table of keys a method's description covers: by naming each key, or by naming its manual page section.
    struct Table: Sendable, CustomStringConvertible {
        var keys: [BridgeKeyInfo]
        var section: String
        var description: String { section }
    }

    /// The dictionaries each method takes or returns, stated here apart from the text under test, so that a key
    /// the text leaves out (ListPending's held) or a table it forgets fails.
    static let tables: [BridgeMethod: [Table]] = [
        .registerCategory: [
            Table(keys: ActionKeys.all, section: "ACTION KEYS"),
            Table(keys: CategoryOptionKeys.all, section: "CATEGORY OPTION KEYS"),
        ],
        .listCategories: [Table(keys: CategoryKeys.all, section: "CATEGORY KEYS")],
        .post: [
            Table(keys: PostKeys.all, section: "NOTIFICATION KEYS"),
            Table(keys: CalendarKeys.all, section: "CALENDAR KEYS"),
            Table(keys: ActionKeys.all, section: "ACTION KEYS"),
        ],
        .withdrawAll: [Table(keys: FilterKeys.all, section: "FILTER KEYS")],
        .listPending: [
            Table(
                keys: [
                    ListedKeys.id.info, ListedKeys.nextFireDate.info, ListedKeys.nextFireDateISO8601.info,
                    ListedKeys.held.info,
                ], section: "LISTED KEYS")
        ],
        .listDelivered: [Table(keys: [ListedKeys.id.info, ListedKeys.onScreen.info], section: "LISTED KEYS")],
        .waitForResponse: [Table(keys: ResponseKeys.all, section: "RESPONSE KEYS")],
        .attach: [Table(keys: AttachOptionKeys.all, section: "ATTACH OPTION KEYS")],
        .turnOnFocus: [Table(keys: FocusOptionKeys.all, section: "FOCUS OPTION KEYS")],
        .listFocusModes: [Table(keys: FocusModeKeys.all, section: "FOCUS MODE KEYS")],
        .getSettings: [Table(keys: SettingsKeys.all, section: "SETTINGS KEYS")],
        .listHistory: [Table(keys: HistoryKeys.all, section: "HISTORY KEYS")],
        .act: [Table(keys: ActOptionKeys.all, section: "ACT OPTION KEYS")],
        .getServerInformation: [Table(keys: ServerInformationKeys.all, section: "SERVER INFORMATION KEYS")],
    ]

    @Test(
        "a method's description names every key of its tables, or the manual page section that lists them",
        arguments: BridgeMethod.allCases)
    func descriptionCoversItsKeys(method: BridgeMethod) {
        let text = method.documentation(Self.limits)
        let words = Self.words(text)
        for table in Self.tables[method] ?? [] {
            if text.contains(InterfaceReference.manualPage), text.contains(table.section) { continue }
            let missing = table.keys.map(\.name).filter { !words.contains($0) }
            #expect(missing.isEmpty, "\(method.name) leaves out the keys \(missing) (\(table.section)): \(text)")
        }
    }

    @Test("a key list in a description names only keys of that method's tables", arguments: BridgeMethod.allCases)
    func listedKeysExist(method: BridgeMethod) {
        let text = method.documentation(Self.limits)
        let known = Set((Self.tables[method] ?? []).flatMap { $0.keys.map(\.name) })
        // Each "Keys: a, b, c." or "Options: a, b." list, up to its full stop.
        for match in text.matches(of: /(?:[Kk]eys|Options): ([a-z0-9-]+(?:, [a-z0-9-]+)*)\./) {
            let listed = match.output.1.split(separator: ", ").map(String.init)
            let unknown = listed.filter { !known.contains($0) }
            #expect(unknown.isEmpty, "\(method.name) lists \(unknown), which are not among its keys: \(text)")
        }
    }

    @Test("no DocString annotation is longer than InterfaceReference.docStringLimit bytes")
    func docStringsAreBounded() {
        let interface = Self.interface
        let annotated: [(String, [DBusAnnotation])] =
            [("the interface", interface.annotations)] + interface.methods.map { ($0.name, $0.annotations) }
            + interface.signals.map { ($0.name, $0.annotations) }
            + interface.properties.map { ($0.name, $0.annotations) }
        #expect(
            annotated.count == 1 + BridgeMethod.allCases.count + BridgeSignal.allCases.count
                + BridgeProperty.allCases.count)
        for (member, annotations) in annotated {
            for annotation in annotations {
                #expect(
                    annotation.value.utf8.count <= InterfaceReference.docStringLimit,
                    "\(member)'s \(annotation.name) is \(annotation.value.utf8.count) bytes: \(annotation.value)")
            }
        }
    }

    @Test("Version says it never changes; the other properties announce their changes")
    func versionIsConstant() throws {
        for property in Self.interface.properties {
            let announcement = property.annotations.first {
                $0.name == "org.freedesktop.DBus.Property.EmitsChangedSignal"
            }
            if property.name == BridgeProperty.version.name {
                #expect(announcement?.value == "const", "Version is annotated \(announcement?.value ?? "true")")
            } else {
                #expect(
                    announcement == nil || announcement?.value == "true", "\(property.name): \(announcement as Any)")
            }
        }
    }

    /// The words of a text, split where a key name cannot continue.
    static func words(_ text: String) -> Set<String> {
        Set(text.split { !$0.isLetter && !$0.isNumber && $0 != "-" }.map(String.init))
    }
}
