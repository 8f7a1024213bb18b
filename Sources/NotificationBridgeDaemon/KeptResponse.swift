import NotificationBridgeAPI

/// A response for a notification routed to its poster, with who may be given its typed text: the text goes to one
/// place only.
///
/// While the posting connection is on the bus, the text is the poster's: `Responded` and the poster's own
/// `WaitForResponse` calls carry it, and a call from any other connection (one that learned the id, say from
/// `ListDelivered` with an `app-name` filter) gets the response without `text`. Once the poster has left, the text goes
/// to the first `WaitForResponse` call that takes the response, or else to the app attached under the notification's
/// app name, never to both.
struct KeptResponse: Sendable, Hashable {
    /// Who may be given the typed text.
    enum TextRecipient: Sendable, Hashable {
        /// The connection with this unique name, the poster, which was on the bus when the response came.
        case connection(String)
        /// The first call to take the response.
        case firstCall
        /// Nobody more: the text has reached its place.
        case nobody
    }

    var response: BridgeResponse
    var textRecipient: TextRecipient

    /// The response as a call from `sender` may see it: with the text only when the text is for it.
    func response(for sender: String) -> BridgeResponse {
        switch textRecipient {
        case .connection(let name) where name == sender: response
        case .firstCall: response
        default: response.withoutText
        }
    }
}

extension BridgeResponse {
    /// The same response without typed text.
    var withoutText: BridgeResponse {
        var response = self
        response.text = nil
        return response
    }
}
