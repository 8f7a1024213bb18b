import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// Categories as the D-Bus API writes them: ``CategoryWire`` reads and writes them, with the keys of
/// ``CategoryOptionKeys`` and ``CategoryKeys``.
package enum CategoryCoding {
    package static func decode(id: String, actions: DBusValue, options: DBusValue) throws(DBusFailure)
        -> NotificationCategory
    {
        try CategoryWire.decode(id: id, actions: actions, options: options)
    }

    static func encode(_ category: NotificationCategory) -> DBusValue {
        CategoryWire.entries(of: category).value
    }
}
