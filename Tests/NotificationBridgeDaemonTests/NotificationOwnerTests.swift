import NotificationBridgeAPI
import NotificationModel
import Testing

@testable import NotificationBridgeDaemon

/// Where the server's responses and closes go: an app's notification through the table and its response route, the
/// daemon's own (a focus mode's digest, a flood's fold) to the feature that showed it, told apart by id alone.
@Suite("Whose notification a response or a close is about")
struct NotificationOwnerTests {
    /// The id of the first fold a flood shows, as flood control makes it.
    static func firstFoldID() -> String {
        var folds = FloodFolds()
        let source = FloodControl.Source(app: "Mail", thread: nil)
        return folds.fold("3f9c2a7e1b4d5c6a", of: source, appName: "Mail", newest: NotificationContent(title: "Hi"))
            .foldID
    }

    static let cases: [(id: String, owner: NotificationOwner, why: String)] = [
        ("3f9c2a7e1b4d5c6a", .app, "a posted id goes through the table and its response route"),
        ("0000000000000000", .app, "a posted id of digits only is an app's too"),
        (FocusDigest.notificationID, .daemon(.focusDigest), "the digest's actions show, keep or dismiss what was held"),
        (firstFoldID(), .daemon(.floodFold(firstFoldID())), "a fold's actions and close end what it counts"),
        ("flood-17", .daemon(.floodFold("flood-17")), "any fold's id goes to flood control, which knows its folds"),
    ]

    @Test("each id goes to its owner", arguments: cases)
    func routed(_ row: (id: String, owner: NotificationOwner, why: String)) {
        #expect(NotificationOwner(id: row.id) == row.owner, "\(row.id): \(row.why)")
    }

    @Test("no app can post under the id of one of the daemon's own, so none can answer or close them for it")
    func ownIDsAreNotPostable() {
        for id in [FocusDigest.notificationID, Self.firstFoldID()] {
            #expect(!NotificationIDForm.isValid(id), "\(id) has the form of a posted id")
        }
    }
}
