import DBusCore
import NotificationBridge
import NotificationBridgeAPI
import NotificationStore

/// `io.github.NotificationBridge1` served by a ``DaemonCore``: the contract's description of the interface
/// (``BridgeInterfaceDescription``: names, signatures, reference text) with the core's method for each member. The
/// routing of calls, their signature checks and the introspection XML (which `dbus/io.github.NotificationBridge1.xml`
/// holds, checked by a test) all come from that one description.
enum BridgeInterface {
    static func make(core: DaemonCore) -> DBusInterface {
        var interface = BridgeInterfaceDescription.interface(
            limits: BridgeInterfaceLimits(
                scheduledPerApp: ScheduledLimit.perApp, keptEnded: NotificationTable.finishedCapacity),
            serve: { request, call in await serve(request, call, core: core) },
            property: { property in
                switch property {
                case .version: { .string(BridgeAPI.version) }
                case .serverName: { [session = core.session] in .string(session.latestServerInformation.name) }
                case .desktopDoNotDisturb: { [core] in core.reportedDoNotDisturb.withLock { $0 }.reported.value }
                case .activeFocus: { [core] in core.reportedFocus.withLock { $0 }.value }
                }
            })
        // The daemon owns its name before it restores: a property read in between waits for the restored state (the
        // focus mode on by the saved modes), as calls do, rather than answering from none.
        interface.propertiesReady = { [core] in await core.restored() }
        return interface
    }

    /// Answers one call, its arguments typed: a switch without a default, so that a method added to the contract
    /// cannot go unserved.
    private static func serve(_ request: BridgeRequest, _ call: DBusMethodCall, core: DaemonCore) async {
        let sender = call.sender
        switch request {
        case .registerCategory(let id, let actions, let options):
            await answer(call, core) { () async throws(DBusFailure) in
                try await core.registerCategory(id: id, actions: actions, options: options, call: call)
            }
        case .removeCategory(let id):
            await answer(call, core) { () async throws(DBusFailure) in try await core.removeCategory(id: id, call: call)
            }
        case .listCategories:
            await reply(call, core) { () async throws(DBusFailure) in try await core.listCategories(caller: sender) }
        case .post(let notification):
            await answer(call, core) { () async throws(DBusFailure) in try await core.post(notification, call: call) }
        case .withdraw(let id):
            await answer(call, core) { () async throws(DBusFailure) in try await core.withdraw(id: id, call: call) }
        case .withdrawAll(let filter):
            await answer(call, core) { () async throws(DBusFailure) in try await core.withdrawAll(filter, call: call) }
        case .listPending(let filter):
            await answerListing(call, core) { (inWireForm) async throws(DBusFailure) in
                try await core.listPending(filter, caller: sender, inWireForm: inWireForm)
            }
        case .listDelivered(let filter):
            await answerListing(call, core) { _ async throws(DBusFailure) in
                try await core.listDelivered(filter, caller: sender)
            }
        case .waitForResponse(let id):
            await answer(call, core) { () async throws(DBusFailure) in
                try await core.waitForResponse(id: id, call: call)
            }
        case .attach(let appName, let options):
            await reply(call, core) { () async throws(DBusFailure) in
                try await core.attach(appName: appName, options: options, sender: sender)
            }
        case .detach(let appName):
            await reply(call, core) { () async throws(DBusFailure) in
                try await core.detach(appName: appName, sender: sender)
            }
        case .present(let id):
            await answer(call, core) { () async throws(DBusFailure) in try await core.present(id: id, call: call) }
        case .getSettings(let app):
            await reply(call, core) { () async throws(DBusFailure) in try await core.getSettings(app, caller: sender) }
        case .setSettings(let app, let settings):
            await reply(call, core) { () async throws(DBusFailure) in
                try await core.setSettings(app, settings, caller: sender)
                return []
            }
        case .listSettings:
            await reply(call, core) { () async throws(DBusFailure) in try await core.listSettings(caller: sender) }
        case .listHistory(let filter):
            await answerListing(call, core) { _ async throws(DBusFailure) in
                try await core.listHistory(filter, caller: sender)
            }
        case .act(let id, let action, let options):
            await answer(call, core) { () async throws(DBusFailure) in
                try await core.act(id: id, action: action, options: options, call: call)
            }
        case .turnOnFocus(let name, let options):
            await answer(call, core) { () async throws(DBusFailure) in
                try await core.turnOnFocus(try FocusRequest(name: name, options: options), call: call)
            }
        case .turnOffFocus:
            await answer(call, core) { () async throws(DBusFailure) in try await core.turnOffFocus(call: call) }
        case .setFocusSchedules(let name, let schedules):
            await answer(call, core) { () async throws(DBusFailure) in
                try await core.setFocusSchedules(name, schedules, call: call)
            }
        case .listFocusModes:
            await reply(call, core) { () async throws(DBusFailure) in try await core.listFocusModes(caller: sender) }
        case .getServerInformation:
            await reply(call, core) { () async throws(DBusFailure) in try await core.serverInformation(caller: sender) }
        }
    }

    /// Answers a method whose reply is ready when `body` returns, once the state is restored.
    private static func reply(
        _ call: DBusMethodCall, _ core: DaemonCore, _ body: () async throws(DBusFailure) -> [DBusValue]
    ) async {
        await answer(call, core) { () async throws(DBusFailure) in call.reply(try await body()) }
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
}
