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
                        "Registers or replaces a category. Action keys: "
                            + InterfaceReference.keys(ActionKeys.all) + ". Options: "
                            + InterfaceReference.keys(CategoryOptionKeys.all) + ".")
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
                    annotations: doc(
                        "The registered categories (a sandboxed app's own only). Keys: "
                            + InterfaceReference.keys(CategoryKeys.all) + ".")
                ) { call in
                    await core.restored()
                    return try await core.listCategories(caller: call.sender)
                },
                .deferred(
                    "Post", inputs: [.init("notification", "a{sv}")], outputs: [.init("id", "s")],
                    annotations: doc(
                        "Shows a notification, or schedules it, and returns its id. Title or body must say "
                            + "something; category and actions exclude each other. Responses go to exec or "
                            + "app-action, else to the posting connection. Without a scheduling key (fire-date, in, "
                            + "calendar) it is shown at once. Scheduled notifications survive a restart; one missed "
                            + "while the daemon was stopped is shown once when it starts. An app may have "
                            + "\(ScheduledLimit.perApp) scheduled notifications waiting; beyond, Error.LimitExceeded "
                            + "(withdraw some). A sandboxed app posts as its own app id, without exec "
                            + "(Error.AccessDenied). Keys: "
                            + InterfaceReference.keys(PostKeys.all) + ". Calendar keys: "
                            + InterfaceReference.keys(CalendarKeys.all) + ". Action keys as in RegisterCategory.")
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
                            + "returns their ids. Filter keys: " + InterfaceReference.keys(FilterKeys.all) + ".")
                ) { call in
                    await answer(call, core) { () async throws(DBusFailure) in try await core.withdrawAll(call) }
                },
                .deferred(
                    "ListPending", inputs: [.init("filter", "a{sv}")], outputs: [.init("notifications", "aa{sv}")],
                    annotations: doc(
                        "Scheduled notifications the filter selects, earliest first: the keys Post took, scheduling "
                            + "ones included, and "
                            + InterfaceReference.keys(
                                [ListedKeys.id.info, ListedKeys.nextFireDate.info, ListedKeys.nextFireDateISO8601.info])
                            + ". Filter keys as in WithdrawAll.")
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
                        "Returns when the user responds, at once for a response that came earlier; fails with "
                            + "Error.Closed when the notification closes without one, and with Error.Expired when it "
                            + "ended so long ago that neither it nor a response it had is kept (the last "
                            + "\(NotificationTable.finishedCapacity) ended are). Response keys: "
                            + InterfaceReference.keys(ResponseKeys.all) + ".")
                ) { call in
                    await answer(call, core) { () async throws(DBusFailure) in try await core.waitForResponse(call) }
                },
                DBusMethod(
                    "Attach", inputs: [.init("app_name", "s"), .init("options", "a{sv}")],
                    annotations: doc(
                        "Says that this connection is the running app app_name, until it calls Detach or leaves the "
                            + "bus; the most recently attached connection of an app counts. Responses to the app's "
                            + "notifications whose posting connection has gone come to it as Responded. Options: "
                            + InterfaceReference.keys(AttachOptionKeys.all) + ".")
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
                            + "posts under). An empty app_id: only do-not-disturb and source. Keys: "
                            + InterfaceReference.keys(SettingsKeys.all) + ".")
                ) { call in
                    await core.restored()
                    return try await core.getSettings(call.arguments[0].stringValue ?? "", caller: call.sender)
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
                    try await core.setSettings(
                        call.arguments[0].stringValue ?? "", call.arguments[1], caller: call.sender)
                    return []
                },
                DBusMethod(
                    "ListSettings", outputs: [.init("settings", "aa{sv}")],
                    annotations: doc(
                        "The settings of every app that has posted or has settings, by app, with the key app-id added.")
                ) { call in
                    await core.restored()
                    return try await core.listSettings(caller: call.sender)
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
            ],
            properties: [
                .readOnly(
                    "Version", "s",
                    annotations: doc("The daemon's version, as notification-bridged --version prints it.")
                ) { .string(BridgeAPI.version) },
                .readOnly(
                    "ServerName", "s",
                    annotations: doc(
                        "The name of the notification server that owns org.freedesktop.Notifications now, as it "
                            + "gives it (dunst, gnome-shell, Plasma); empty while there is none.")
                ) { [session = core.session] in .string(session.latestServerInformation.name) },
            ],
            annotations: doc(
                "Actionable desktop notifications: categories of actions, typed replies, scheduling, and the user's "
                    + "response routed to one place. Errors: " + InterfaceReference.errors)
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
