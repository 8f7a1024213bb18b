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
        BridgeInterfaceDescription.interface(
            limits: BridgeInterfaceLimits(
                scheduledPerApp: ScheduledLimit.perApp, keptEnded: NotificationTable.finishedCapacity),
            handler: { method in handler(of: method, core: core) },
            property: { property in
                switch property {
                case .version: { .string(BridgeAPI.version) }
                case .serverName: { [session = core.session] in .string(session.latestServerInformation.name) }
                case .desktopDoNotDisturb: { [core] in core.reportedDoNotDisturb.withLock { $0 }.reported.value }
                case .activeFocus: { [core] in core.reportedFocus.withLock { $0 }.value }
                }
            })
    }

    /// What answers `method`: a switch without a default, so that a method added to the contract cannot go unserved.
    private static func handler(of method: BridgeMethod, core: DaemonCore) -> BridgeInterfaceDescription.MethodHandler {
        switch method {
        case .registerCategory:
            .deferred { call in
                await answer(call, core) { () async throws(DBusFailure) in try await core.registerCategory(call) }
            }
        case .removeCategory:
            .deferred { call in
                await answer(call, core) { () async throws(DBusFailure) in try await core.removeCategory(call) }
            }
        case .listCategories:
            .returning { call in
                await core.restored()
                return try await core.listCategories(caller: call.sender)
            }
        case .post:
            .deferred { call in
                await answer(call, core) { () async throws(DBusFailure) in try await core.post(call) }
            }
        case .withdraw:
            .deferred { call in
                await answer(call, core) { () async throws(DBusFailure) in try await core.withdraw(call) }
            }
        case .withdrawAll:
            .deferred { call in
                await answer(call, core) { () async throws(DBusFailure) in try await core.withdrawAll(call) }
            }
        case .listPending:
            .deferred { call in
                await answerListing(call, core) { (inWireForm) async throws(DBusFailure) in
                    try await core.listPending(call.arguments[0], caller: call.sender, inWireForm: inWireForm)
                }
            }
        case .listDelivered:
            .deferred { call in
                await answerListing(call, core) { _ async throws(DBusFailure) in
                    try await core.listDelivered(call.arguments[0], caller: call.sender)
                }
            }
        case .waitForResponse:
            .deferred { call in
                await answer(call, core) { () async throws(DBusFailure) in try await core.waitForResponse(call) }
            }
        case .attach:
            .returning { call in
                await core.restored()
                return try await core.attach(
                    appName: call.arguments[0].stringValue ?? "", options: call.arguments[1], sender: call.sender)
            }
        case .detach:
            .returning { call in
                await core.restored()
                return try await core.detach(appName: try call.arguments.decode(String.self), sender: call.sender)
            }
        case .present:
            .deferred { call in
                await answer(call, core) { () async throws(DBusFailure) in try await core.present(call) }
            }
        case .getSettings:
            .returning { call in
                await core.restored()
                return try await core.getSettings(call.arguments[0].stringValue ?? "", caller: call.sender)
            }
        case .setSettings:
            .returning { call in
                await core.restored()
                try await core.setSettings(call.arguments[0].stringValue ?? "", call.arguments[1], caller: call.sender)
                return []
            }
        case .listSettings:
            .returning { call in
                await core.restored()
                return try await core.listSettings(caller: call.sender)
            }
        case .listHistory:
            .deferred { call in
                await answerListing(call, core) { _ async throws(DBusFailure) in
                    try await core.listHistory(call.arguments[0], caller: call.sender)
                }
            }
        case .act:
            .deferred { call in
                await answer(call, core) { () async throws(DBusFailure) in try await core.act(call) }
            }
        case .getServerInformation:
            .returning { call in
                await core.restored()
                return try await core.serverInformation(caller: call.sender)
            }
        }
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
