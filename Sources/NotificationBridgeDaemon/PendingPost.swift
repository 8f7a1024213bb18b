import NotificationBridge
import NotificationModel
import NotificationStore

/// What the daemon keeps in memory of a scheduled notification until it fires: who posted it, where its responses
/// go, and what a filter or `RemoveCategory` selects it by (its category and thread). The rest of its
/// ``ScheduledPost`` (the content, the hints, the keys a listing copies) is read back from the store when it fires or
/// is listed: with thousands pending, each costs a few words, not its whole content.
///
/// A new one carries its whole post until the store has written it (``post``); the scheduler and the daemon's table
/// keep the form without it (``inStore``). A row of the store is a ``ScheduledPost``'s: reading one as a
/// `PendingPost` skips what it does not keep.
struct PendingPost: Sendable {
    /// The unique name of the connection that posted it.
    let poster: String
    /// Where its responses go.
    let route: ResponseRoute
    /// Its category and thread as a content with nothing else set, shared with the daemon's table until it is shown.
    let selection: ImmutableBox<NotificationContent>
    /// The whole post, until the store has it; `nil` in the form the scheduler keeps (``inStore``).
    let post: ScheduledPost?

    /// The selection of the many notifications with neither a category nor a thread, shared.
    private static let noSelection = ImmutableBox(NotificationContent())

    /// A new scheduled notification's post, whole, for the store to write.
    init(_ post: ScheduledPost) {
        self.init(
            poster: post.poster, route: post.route, categoryID: post.content.categoryID,
            threadID: post.content.threadID, post: post)
    }

    private init(poster: String, route: ResponseRoute, categoryID: String?, threadID: String?, post: ScheduledPost?) {
        self.poster = poster
        self.route = route
        selection =
            categoryID == nil && threadID == nil
            ? Self.noSelection : ImmutableBox(NotificationContent(categoryID: categoryID, threadID: threadID))
        self.post = post
    }

    private init(without post: PendingPost) {
        (poster, route, selection) = (post.poster, post.route, post.selection)
        self.post = nil
    }

    /// The same notification without its post, which from now on only the store holds.
    var inStore: PendingPost { PendingPost(without: self) }
}

/// Written as its ``ScheduledPost``; read back as the summary alone.
extension PendingPost: Codable {
    private enum CodingKeys: String, CodingKey {
        case content, route, poster
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let selection = try container.decode(NotificationContentSelection.self, forKey: .content)
        self.init(
            poster: try container.decode(String.self, forKey: .poster),
            route: try container.decode(ResponseRoute.self, forKey: .route),
            categoryID: selection.categoryID, threadID: selection.threadID, post: nil)
    }

    /// - Throws: `EncodingError.invalidValue` for the form without its post: what the store has is never written
    ///   again from it.
    func encode(to encoder: any Encoder) throws {
        guard let post else {
            throw EncodingError.invalidValue(
                self,
                .init(
                    codingPath: encoder.codingPath,
                    debugDescription: "a scheduled notification kept without its post; read it from the store"))
        }
        try post.encode(to: encoder)
    }
}

/// Read by hand at start-up: the same keys as `init(from:)`.
extension PendingPost: RowReadable {
    init(fields: RowFields) throws {
        let content = try fields.fields(CodingKeys.content.stringValue)
        self.init(
            poster: try fields.string(CodingKeys.poster.stringValue),
            route: try ResponseRoute(fields: fields.fields(CodingKeys.route.stringValue)),
            categoryID: try content.optionalString(NotificationContentSelection.categoryKey),
            threadID: try content.optionalString(NotificationContentSelection.threadKey), post: nil)
    }
}
