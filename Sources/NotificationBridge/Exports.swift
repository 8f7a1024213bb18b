// The close reason of a notification is part of the library's API (`DesktopNotificationCenter.Closure.reason`); it
// is the freedesktop protocol's own type, shared with the test server.
@_exported import FreedesktopNotifications
// The model is part of the library's API: an app that imports NotificationBridge uses NotificationAction,
// NotificationCategory, NotificationContent and NotificationResponse without a second import, and the library's
// documentation includes their pages.
@_exported import NotificationModel
