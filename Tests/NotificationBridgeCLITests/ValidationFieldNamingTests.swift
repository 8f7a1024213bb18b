import NotificationBridgeAPI
import NotificationModel
import Testing

@testable import NotificationBridgeCommands

/// Every field a validation error of the model names is named through the key tables: by its key for a D-Bus caller,
/// by its option for a user of the command line, with no rewriting of the message's text.
@Suite("validation errors name their fields by key and by option")
struct ValidationFieldNamingTests {
    /// A value that breaks one rule of the model, and the key the error must name.
    struct Case: Sendable, CustomStringConvertible {
        var label: String
        var key: BridgeKeyInfo
        var check: @Sendable () throws(NotificationValidationError) -> Void
        var description: String { label }

        /// The error the value is refused with.
        func error() throws -> NotificationValidationError {
            do throws(NotificationValidationError) {
                try check()
            } catch {
                return error
            }
            throw TestFailure("\(label) was accepted; the case no longer breaks a rule")
        }
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func content(_ label: String, _ key: BridgeKeyInfo, _ content: NotificationContent) -> Case {
        Case(label: label, key: key) { () throws(NotificationValidationError) in
            try content.validate(isCategoryRegistered: { _ in true })
        }
    }

    static func content(_ label: String, _ key: BridgeKeyInfo, _ change: (inout NotificationContent) -> Void) -> Case {
        var value = NotificationContent(title: "Title")
        change(&value)
        return content(label, key, value)
    }

    static func category(_ label: String, _ key: BridgeKeyInfo, _ category: NotificationCategory) -> Case {
        Case(label: label, key: key) { () throws(NotificationValidationError) in try category.validate() }
    }

    static let open = NotificationAction(id: "open", title: "Open")
    static let nul = "a\u{0}b"
    static func actions(_ count: Int) -> [NotificationAction] {
        (0..<count).map { NotificationAction(id: "a\($0)", title: "A \($0)") }
    }

    /// One case for each field the model's rules name: every property a notification's or a category's validation
    /// checks, and each of an action's.
    static let cases: [Case] = [
        content("neither title nor body", PostKeys.title.info, NotificationContent()),
        content("NUL in the title", PostKeys.title.info, NotificationContent(title: nul)),
        content("NUL in the body", PostKeys.body.info, NotificationContent(body: nul)),
        content("empty app name", PostKeys.appName.info) { $0.appName = "" },
        content("empty desktop entry", PostKeys.desktopEntry.info) { $0.desktopEntry = "" },
        content("empty icon", PostKeys.icon.info) { $0.icon = "" },
        content("empty image", PostKeys.image.info) { $0.image = "" },
        content("NUL in the default action", PostKeys.defaultAction.info) { $0.defaultActionLabel = nul },
        content("empty sound name", PostKeys.sound.info) { $0.sound = .named("") },
        content("empty sound file", PostKeys.sound.info) { $0.sound = .file("") },
        content("empty thread", PostKeys.thread.info) { $0.threadID = "" },
        content("empty summary argument", PostKeys.summaryArgument.info) { $0.summaryArgument = "" },
        content("negative summary count", PostKeys.summaryArgumentCount.info) { $0.summaryArgumentCount = -1 },
        content("category id with a space", PostKeys.category.info) { $0.categoryID = "a b" },
        content("category and actions", PostKeys.actions.info) {
            $0.categoryID = "mail"
            $0.actions = [open]
        },
        content("too many actions", PostKeys.actions.info) { $0.actions = actions(33) },
        content("action without id", ActionKeys.id.info) { $0.actions = [NotificationAction(id: "", title: "A")] },
        content("action without title", ActionKeys.title.info) {
            $0.actions = [NotificationAction(id: "a", title: "")]
        },
        content("NUL in a submit title", ActionKeys.textInputButtonTitle.info) {
            $0.actions = [NotificationAction(id: "r", title: "R", behavior: .textInput(submitButtonTitle: nul))]
        },
        content("NUL in a placeholder", ActionKeys.textInputPlaceholder.info) {
            $0.actions = [NotificationAction(id: "r", title: "R", behavior: .textInput(placeholder: nul))]
        },
        content("NaN in user info", PostKeys.userInfo.info) { $0.userInfo = ["a": .array([.number(.nan)])] },
        content("user info too large", PostKeys.userInfo.info) {
            $0.userInfo = ["a": .string(String(repeating: "x", count: NotificationLimits.maxUserInfoBytes))]
        },
        content("zero timeout", PostKeys.timeout.info) { $0.timeout = .milliseconds(0) },
        content("negative badge", PostKeys.badge.info) { $0.badge = -1 },
        content("critical with urgency low", PostKeys.urgency.info) {
            $0.interruptionLevel = .critical
            $0.urgency = .low
        },
        content("zero snooze", PostKeys.snooze.info) { $0.snoozeIntervals = [SnoozeInterval(seconds: 0)] },
        category("empty category id", CategoryKeys.id.info, NotificationCategory(id: "")),
        category(
            "too many category actions", CategoryKeys.actions.info, NotificationCategory(id: "c", actions: actions(33))),
        category(
            "category action without id", ActionKeys.id.info,
            NotificationCategory(id: "c", actions: [NotificationAction(id: "", title: "A")])),
        category(
            "too many minimal actions", CategoryOptionKeys.minimalActions.info,
            NotificationCategory(id: "c", actions: actions(3), minimalActions: actions(3))),
        category(
            "minimal action not among the actions", CategoryOptionKeys.minimalActions.info,
            NotificationCategory(id: "c", actions: [open], minimalActions: actions(1))),
        category(
            "summary format without its argument", CategoryOptionKeys.summaryFormat.info,
            NotificationCategory(id: "c", summaryFormat: "%u %u %@ %@ %x")),
        category(
            "zero snooze of a category", CategoryOptionKeys.snooze.info,
            {
                var category = NotificationCategory(id: "c")
                category.snoozeIntervals = [SnoozeInterval(seconds: 0)]
                return category
            }()),
    ]

    @Test("the D-Bus caller reads the key, the command line user the option", arguments: cases)
    func namedBothWays(_ rule: Case) throws {
        let error = try rule.error()
        // The fields the message names: the one that is wrong, and any it mentions beside it.
        var paths: [String] = []
        _ = error.message { path in
            paths.append(path)
            return path
        }
        let fields = try paths.map { path in try #require(ValidationField(modelPath: path), "\(path) has no key") }
        #expect(fields.contains { $0.key == rule.key }, "\(paths) are not carried by \(rule.key.name)")

        let message = error.wireMessage
        let commandLine = error.message(naming: KeyOptions.name(ofModelPath:))
        for text in [message, commandLine] {
            #expect(!text.contains("content.") && !text.contains("category."), "\(text)")
        }
        for field in fields {
            #expect(message.contains(field.wireName), "\(message)")
            if field.key == PostKeys.badge.info {
                // No option sets a badge: were one added, it would have to be named here.
                #expect(KeyOptions.name(of: field) == nil)
            } else {
                let option = try #require(KeyOptions.name(of: field), "no option named for \(field.wireName)")
                #expect(commandLine.contains(option), "\(commandLine)")
            }
        }
    }

    @Test("a field inside a list is named with its place: the action's index, the n-th minimal action")
    func placesInLists() throws {
        let second = NotificationContent(title: "T", actions: [Self.open, NotificationAction(id: "r", title: "")])
        let error = try Self.content("", PostKeys.title.info, second).error()
        #expect(error.wireMessage.hasPrefix("actions[1].title is empty"))
        #expect(
            error.message(naming: KeyOptions.name(ofModelPath:)).hasPrefix("the title of --action 2 is empty"))
        let minimal = try Self.category(
            "", CategoryOptionKeys.minimalActions.info,
            NotificationCategory(id: "c", actions: [Self.open], minimalActions: Self.actions(1))
        ).error()
        #expect(minimal.wireMessage.hasPrefix("minimal-actions[0]:"), "\(minimal.wireMessage)")
        #expect(minimal.wireMessage.hasSuffix("remove it from minimal-actions"), "\(minimal.wireMessage)")
        let minimalOnCommandLine = minimal.message(naming: KeyOptions.name(ofModelPath:))
        #expect(minimalOnCommandLine.hasPrefix("item 1 of --minimal:"), "\(minimalOnCommandLine)")
        #expect(minimalOnCommandLine.hasSuffix("remove it from --minimal"), "\(minimalOnCommandLine)")
    }
}
