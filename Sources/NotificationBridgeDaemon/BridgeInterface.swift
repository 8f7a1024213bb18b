import DBusCore
import NotificationBridge
import NotificationBridgeAPI

/// The description of `io.github.NotificationBridge1`: the one source of the routing of calls, of the signature checks
/// and of the introspection XML (which `dbus/io.github.NotificationBridge1.xml` holds, checked by a test). Each member
/// carries its documentation as an `org.gtk.GDBus.DocString` annotation, so `gdbus introspect` shows it.
enum BridgeInterface {
    static func make(core: DaemonCore) -> DBusInterface {
        DBusInterface(
            BridgeAPI.interfaceName,
            methods: [
                .deferred(
                    "RegisterCategory",
                    inputs: [.init("id", "s"), .init("actions", "aa{sv}"), .init("options", "a{sv}")],
                    annotations: doc(
                        "Registers or replaces a category. Action keys: id, title, activation (foreground|background), "
                            + "destructive, authentication-required, behavior (default|text-input), "
                            + "text-input-button-title, text-input-placeholder, text-input-fallback "
                            + "(hide|deliver-without-text). Options: minimal-actions (as), reports-dismissal (b).")
                ) { call in
                    await answer(call, core) { () async throws(DBusFailure) in try await core.registerCategory(call) }
                },
                .deferred(
                    "RemoveCategory", inputs: [.init("id", "s")],
                    annotations: doc(
                        "Removes a category; notifications showing keep their actions. Refused with InvalidArgument, "
                            + "naming them, while scheduled notifications use it: withdraw those first.")
                ) { call in
                    await answer(call, core) { () async throws(DBusFailure) in try await core.removeCategory(call) }
                },
                DBusMethod(
                    "ListCategories", outputs: [.init("categories", "aa{sv}")],
                    annotations: doc("The registered categories: id, actions, minimal-actions, reports-dismissal.")
                ) { _ in
                    await core.restored()
                    return try await core.listCategories()
                },
                .deferred(
                    "Post", inputs: [.init("notification", "a{sv}")], outputs: [.init("id", "s")],
                    annotations: doc(
                        "Shows a notification, or schedules it, and returns its id. Keys: title, body, body-is-markup (b: "
                            + "the body is markup already, sent as is), app-name, "
                            + "desktop-entry, icon, image, category or actions, user-info (JSON object text), "
                            + "default-action, sound, urgency, timeout, resident, transient, thread, badge, replaces, "
                            + "fixed-id (an id of the caller's choosing: shown under it, or updating the app's "
                            + "notification that has it), hints (a{sv} of server hints added to the bridge's; not "
                            + "those it sets itself, such as urgency, which have keys). "
                            + "Responses go to exec (as) or app-action (b or s), else to the posting connection. "
                            + "Scheduling: fire-date (x seconds since 1970, or s YYYY-MM-DDTHH:MM:SS with time-zone "
                            + "'local': a wall-clock time that follows the user's zone), or in (d seconds from now); "
                            + "repeat (minute, hour, day, week, month, year); or calendar (a{sv}: month, day, "
                            + "weekdays as names, hour, minute, second; the next matching wall-clock time in the "
                            + "user's zone) with repeat <true> for every match. Scheduled notifications survive a "
                            + "restart; one missed while the daemon was stopped is shown once when it starts.")
                ) { call in
                    await answer(call, core) { () async throws(DBusFailure) in try await core.post(call) }
                },
                .deferred(
                    "Withdraw", inputs: [.init("id", "s")],
                    annotations: doc(
                        "Closes a notification, or cancels a scheduled one; a WaitForResponse for it fails with "
                            + "Error.Closed.")
                ) { call in
                    await answer(call, core) { () async throws(DBusFailure) in try await core.withdraw(call) }
                },
                .deferred(
                    "WithdrawAll", inputs: [.init("filter", "a{sv}")], outputs: [.init("ids", "as")],
                    annotations: doc(
                        "Closes the notifications the filter selects, cancels the scheduled ones it selects, and "
                            + "returns their ids. Filter keys: app-name (without it, the caller's own notifications), "
                            + "category, thread.")
                ) { call in
                    await answer(call, core) { () async throws(DBusFailure) in try await core.withdrawAll(call) }
                },
                .deferred(
                    "ListPending", inputs: [.init("filter", "a{sv}")], outputs: [.init("notifications", "aa{sv}")],
                    annotations: doc(
                        "Scheduled notifications the filter selects, earliest first: their id, the keys Post took "
                            + "(scheduling ones included: fire-date, time-zone, in, calendar, repeat), and "
                            + "next-fire-date (x seconds since 1970).")
                ) { call in
                    await answerListing(call, core) { (inWireForm) async throws(DBusFailure) in
                        try await core.listPending(call.arguments[0], caller: call.sender, inWireForm: inWireForm)
                    }
                },
                .deferred(
                    "ListDelivered", inputs: [.init("filter", "a{sv}")], outputs: [.init("notifications", "aa{sv}")],
                    annotations: doc("Showing notifications the filter selects: their id and the keys Post took.")
                ) { call in
                    await answerListing(call, core) { _ async throws(DBusFailure) in
                        try await core.listDelivered(call.arguments[0], caller: call.sender)
                    }
                },
                .deferred(
                    "WaitForResponse", inputs: [.init("id", "s")],
                    outputs: [.init("action", "s"), .init("response", "a{sv}")],
                    annotations: doc(
                        "Returns when the user responds (response keys: id, action, text, activation-token, "
                            + "user-info), at once for a response that came earlier; fails with Error.Closed when the "
                            + "notification closes without one.")
                ) { call in
                    await answer(call, core) { () async throws(DBusFailure) in try await core.waitForResponse(call) }
                },
                DBusMethod(
                    "Attach", inputs: [.init("app_name", "s"), .init("options", "a{sv}")],
                    annotations: doc(
                        "Says that this connection is the running app app_name, until it calls Detach or leaves the "
                            + "bus; the most recently attached connection of an app counts. Responses to the app's "
                            + "notifications whose posting connection has gone come to it as Responded. Options: "
                            + "foreground (b): the app is frontmost, so its scheduled notifications come to it as "
                            + "Fired instead of being shown (Present shows one anyway).")
                ) { call in
                    await core.restored()
                    return try await core.attach(
                        appName: call.arguments[0].stringValue ?? "", options: call.arguments[1], sender: call.sender)
                },
                DBusMethod(
                    "Detach", inputs: [.init("app_name", "s")],
                    annotations: doc("Ends Attach for app_name on this connection.")
                ) { call in
                    await core.restored()
                    return try await core.detach(appName: try call.arguments.decode(String.self), sender: call.sender)
                },
                .deferred(
                    "Present", inputs: [.init("id", "s")],
                    annotations: doc(
                        "Shows a scheduled notification that was handed to this app with Fired, as the notification "
                            + "server shows any other.")
                ) { call in
                    await answer(call, core) { () async throws(DBusFailure) in try await core.present(call) }
                },
                DBusMethod(
                    "GetSettings", inputs: [.init("app_id", "s")], outputs: [.init("settings", "a{sv}")],
                    annotations: doc(
                        "The user's notification settings for the app app_id (its desktop id, or the app name it "
                            + "posts under): allowed (b), style (alert|banner|none), sound (b), badge (b), lock-screen "
                            + "(show|hide|private), requested (as: what the app asked for, the ceiling), "
                            + "do-not-disturb (b, global), source (gnome|file: where they are kept). An empty app_id: "
                            + "only do-not-disturb and source.")
                ) { call in
                    await core.restored()
                    return try await core.getSettings(call.arguments[0].stringValue ?? "")
                },
                DBusMethod(
                    "SetSettings", inputs: [.init("app_id", "s"), .init("settings", "a{sv}")],
                    annotations: doc(
                        "Changes the keys given of an app's settings (keys as GetSettings returns them, but app and "
                            + "source); do-not-disturb is global, and the only key taken with an empty app_id. An app "
                            + "sets requested for itself: what it may do is the user's choice within what it asked "
                            + "for. Under GNOME the keys GNOME has are written to GNOME's settings.")
                ) { call in
                    await core.restored()
                    try await core.setSettings(call.arguments[0].stringValue ?? "", call.arguments[1])
                    return []
                },
                DBusMethod(
                    "ListSettings", outputs: [.init("settings", "aa{sv}")],
                    annotations: doc(
                        "The settings of every app that has posted or has settings, by app, with the key app-id added.")
                ) { _ in
                    await core.restored()
                    return try await core.listSettings()
                },
                DBusMethod(
                    "GetServerInformation", outputs: [.init("information", "a{sv}")],
                    annotations: doc(
                        "The notification server (server-name, server-vendor, server-version, server-spec-version, "
                            + "server-capabilities) and the bridge's choices (text-input, prompt-program, "
                            + "destructive-order, destructive-marker, lock-source, bridge-version).")
                ) { _ in
                    await core.restored()
                    return try await core.serverInformation()
                },
            ],
            signals: [
                DBusSignalDescription(
                    "Responded", arguments: [.init("id", "s"), .init("action", "s"), .init("response", "a{sv}")],
                    annotations: doc(
                        "The user responded to a notification this connection posted without exec or app-action "
                            + "(or one of the app this connection is attached as, whose poster has gone). Sent to that "
                            + "connection only.")),
                DBusSignalDescription(
                    "Fired", arguments: [.init("id", "s"), .init("notification", "a{sv}")],
                    annotations: doc(
                        "A scheduled notification of the app this connection is attached as, in the foreground, came "
                            + "due: it is not shown (call Present to show it). Keys as ListDelivered returns them. "
                            + "Sent to that connection only.")),
                DBusSignalDescription(
                    "SettingsChanged", arguments: [.init("app_id", "s"), .init("settings", "a{sv}")],
                    annotations: doc(
                        "An app's notification settings changed (through SetSettings, GNOME's Settings app or an edit "
                            + "of the bridge's file): its settings as GetSettings returns them. An empty app_id: the "
                            + "global do-not-disturb changed. Sent to every connection.")),
                DBusSignalDescription(
                    "Closed", arguments: [.init("id", "s"), .init("reason", "u")],
                    annotations: doc(
                        "A notification this connection posted closed: 1 expired, 2 dismissed by the user, 3 withdrawn "
                            + "or closed after a response, 4 other. Sent to that connection only.")),
            ]
        )
    }

    /// Runs a deferred method once the state is restored: `body` changes the state at once and answers `call`, now or
    /// from a job; what it throws is the answer.
    private static func answer(
        _ call: DBusMethodCall, _ core: DaemonCore, _ body: () async throws(DBusFailure) -> Void
    ) async {
        await core.restored()
        do {
            try await body()
        } catch {
            call.fail(error)
        }
    }

    /// A listing this long is followed by giving the heap's free pages back to the system.
    static let largeListing = 1000

    /// Answers a listing once the state is restored; after a large one (``largeListing`` notifications or more), gives
    /// the heap's free pages back to the system. Building and marshalling 10,000 notifications takes about 25 MB that
    /// the allocator would otherwise keep resident for good.
    private static func answerListing(
        _ call: DBusMethodCall, _ core: DaemonCore,
        _ body: (_ inWireForm: Bool) async throws(DBusFailure) -> DaemonCore.Listing
    ) async {
        await core.restored()
        // The reply is marshalled inside `reply`, and the listing is released when this returns.
        func reply(inWireForm: Bool) async -> Int {
            do {
                switch try await body(inWireForm) {
                case .values(let elements):
                    call.reply([.array(element: "a{sv}", elements)])
                    return elements.count
                case .wire(let list):
                    do {
                        try call.reply(list)
                    } catch {
                        core.logger.error(
                            "a listing copied from kept wire forms is not valid; built again from the content",
                            metadata: ["error": "\(error.message)"])
                        return await reply(inWireForm: false)
                    }
                    return list.count
                }
            } catch {
                call.fail(error)
                return 0
            }
        }
        if await reply(inWireForm: true) >= largeListing { HeapTrim.releaseFreePages() }
    }

    private static func doc(_ text: String) -> [DBusAnnotation] {
        [DBusAnnotation("org.gtk.GDBus.DocString", text)]
    }
}
