import DBusCore
import NotificationModel

/// `user-info`: a JSON object, as its text (`s`), in `Post` and in responses.
enum UserInfoWire {
    static func key(summary: String) -> BridgeKey<[String: JSONValue]> {
        BridgeKey.string("user-info", example: #"<'{"mail": 42}'>"#, summary: summary)
            .map(decode: decode(_:_:), encode: { JSONValue.object($0).jsonText })
    }

    private static func decode(_ text: String, _ place: KeyPlace) throws(DBusFailure) -> [String: JSONValue] {
        let limit = NotificationLimits.maxUserInfoBytes
        guard text.utf8.count <= limit else {
            throw place.invalid(
                "is \(text.utf8.count) bytes; at most \(limit) are allowed, keep large data "
                    + "elsewhere and put a reference to it in user-info")
        }
        let parsed: JSONValue
        do {
            parsed = try JSONValue(parsing: text)
        } catch {
            throw place.invalid("is not JSON: \(error); give a JSON object, e.g. 'user-info': <'{\"mail\": 42}'>")
        }
        guard case .object(let members) = parsed else {
            throw place.invalid(
                "is JSON but not an object; wrap the value in one, e.g. "
                    + "'user-info': <'{\"value\": 42}'>")
        }
        return members
    }
}
