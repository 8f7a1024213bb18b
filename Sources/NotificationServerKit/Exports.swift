// The freedesktop protocol types the test server speaks in (close reasons, Notify requests, server signals) are
// part of its API: a test that imports NotificationServerKit names them without a second import.
@_exported import FreedesktopNotifications
