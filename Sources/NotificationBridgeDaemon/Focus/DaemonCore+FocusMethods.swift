import DBusCore
import FoundationEssentials
import NotificationBridgeAPI
import NotificationScheduling
import NotificationStore

/// The user turns focus modes on and off (`TurnOnFocus`, `TurnOffFocus`): the change is saved, then in force at once,
/// through the same ``DaemonCore/focusChanged(at:in:)`` as a schedule's start or end. Only host programs may: a
/// sandboxed app reads which mode is on (`ActiveFocus`), as an iOS app does, but cannot silence the user's other apps.
extension DaemonCore {
    /// Turns on by hand the mode `request` names, made if there is none; the apps and threads it gives, if any, replace
    /// those the mode lets through, written to the settings file where the mode is defined. Answers `call` once the
    /// change is on disk.
    func turnOnFocus(_ request: FocusRequest, call: DBusMethodCall) async throws(DBusFailure) {
        try checkRunning()
        try await checkMayChangeFocus(call.sender, "turn on a focus mode")
        // The mode as the file defines it now, though an edit was saved just before.
        await focusFileChanged()
        let now = scheduler.clock.now
        let until = request.end.date(from: now)
        var mode: FocusMode
        do throws(FocusError) {
            if let known = focus.state.modes[request.name] {
                mode = known
            } else {
                mode = try FocusMode(name: request.name)
            }
            if !request.apps.isEmpty || !request.threads.isEmpty {
                mode.breakthrough.apps = Set(request.apps)
                mode.breakthrough.threads = Set(
                    request.threads.map { FocusBreakthrough.Thread(app: $0.app, id: $0.id) })
            }
            // Refused before the file is written: an end that has passed changes nothing.
            var checked = focus.state
            checked.save(mode)
            try checked.turnOn(request.name, until: until, now: now)
        } catch {
            throw BridgeError.invalid(error.description)
        }
        if focus.state.modes[request.name] != mode { try await writeToFile(mode) }
        var state = focus.state
        state.save(mode)
        do throws(FocusError) {
            try state.turnOn(request.name, until: until, now: now)
        } catch {
            throw BridgeError.invalid(error.description)
        }
        try await saveAndApply(state, at: now, call: call)
    }

    /// Turns off the mode that is on (one a schedule turned on stays off until its period ends) and shows what it
    /// held; answers `call` once the change is on disk. Nothing to turn off is no error.
    func turnOffFocus(call: DBusMethodCall) async throws(DBusFailure) {
        try checkRunning()
        try await checkMayChangeFocus(call.sender, "turn off the focus mode")
        let (now, evaluator) = await focusInstant()
        var state = focus.state
        state.turnOff(now: now, in: evaluator)
        try await saveAndApply(state, at: now, call: call)
    }

    /// Replaces the schedules of the mode named `name` (made, letting nothing through, if there is none), each written
    /// as ``FocusSchedule/init(written:)`` reads it, in the settings file where the mode is defined; answers `call`
    /// once the change is on disk. A schedule that has the mode on now turns it on at once.
    func setFocusSchedules(_ name: String, _ written: [String], call: DBusMethodCall) async throws(DBusFailure) {
        try checkRunning()
        try await checkMayChangeFocus(call.sender, "change when focus modes turn on")
        await focusFileChanged()
        var mode: FocusMode
        do throws(FocusError) {
            if let known = focus.state.modes[name] { mode = known } else { mode = try FocusMode(name: name) }
            mode.schedules = try written.map { text throws(FocusError) in try FocusSchedule(written: text) }
        } catch {
            throw BridgeError.invalid(error.description)
        }
        try await writeToFile(mode)
        var state = focus.state
        // What the file gave meanwhile, but the schedules.
        let schedules = mode.schedules
        mode = state.modes[name] ?? mode
        mode.schedules = schedules
        state.save(mode)
        try await saveAndApply(state, at: scheduler.clock.now, call: call)
    }

    /// The modes, by name, as `ListFocusModes` lists them: only for host programs, since what a mode lets through
    /// says who the user still hears from.
    func listFocusModes(caller: String) async throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        try await checkMayChangeFocus(caller, "list the focus modes")
        let modes = focus.state.modes.keys.sorted().compactMap { focus.state.modes[$0] }
        return [.array(element: "a{sv}", modes.map(\.listing.value))]
    }

    /// Refuses every peer but a host program.
    private func checkMayChangeFocus(_ sender: String, _ what: String) async throws(DBusFailure) {
        let peer = await peer(of: sender)
        guard case .host = peer else {
            throw Self.denied(
                peer, "cannot \(what)",
                instead: "only the user turns focus modes on and off (notification-bridge focus); read ActiveFocus")
        }
    }

    /// Makes `state` the focus modes, saved for the next start, and asks which mode is on now. It is in force at once,
    /// so that what is posted meanwhile meets it; when it cannot be saved, the modes go back to what they were (unless
    /// another change came since) and `call` fails saying why, so that what the user was told failed is not in force.
    private func saveAndApply(_ state: FocusState, at now: Date, call: DBusMethodCall) async throws(DBusFailure) {
        let row: FocusRow
        do {
            row = try FocusRow(id: Self.focusRowID, state)
        } catch {
            throw DBusFailure(name: BridgeError.serverError, message: "the focus modes cannot be saved: \(error)")
        }
        let previous = focus.state
        focus.state = state
        let commit = commits.submit([.saveFocus(row)])
        focusChanged(at: now, in: await focusInstant().evaluator)
        focusTimerWake.yield()
        let failure = storeFailure
        jobs.yield { [weak self] in
            do {
                try await commit.wait()
                call.reply([])
            } catch {
                await self?.focusNotSaved(state, restoring: previous)
                call.fail(failure(error))
            }
        }
    }

    /// Puts back the modes as they were before `state`, which could not be saved, when nothing changed them since.
    private func focusNotSaved(_ state: FocusState, restoring previous: FocusState) async {
        guard focus.state == state else { return }
        logger.error("the change of the focus modes cannot be saved; they are as they were before it")
        focus.state = previous
        await focusChangedNow()
        focusTimerWake.yield()
    }
}

extension FocusMode {
    /// As `ListFocusModes` lists it.
    var listing: FocusModeListing {
        FocusModeListing(
            name: name, apps: breakthrough.apps.sorted(),
            threads: breakthrough.threads.map { FocusRequest.Thread(app: $0.app, id: $0.id) }.sorted {
                $0.written < $1.written
            },
            timeSensitive: breakthrough.timeSensitive, schedules: schedules.map(\.written))
    }
}

extension FocusRequest.End {
    /// The instant it ends at, for a mode turned on at `now`; `nil` when it ends only when turned off.
    func date(from now: Date) -> Date? {
        switch self {
        case .never: nil
        case .after(let seconds): now.addingTimeInterval(TimeInterval(seconds))
        case .at(let seconds): Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }
}
