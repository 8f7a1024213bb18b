import DBusCore
import FoundationEssentials
import NotificationBridge
import NotificationBridgeAPI
import NotificationScheduling
import NotificationStore

/// The focus modes the settings file defines (``FocusMode/reading(_:in:)``): the file is where a mode is defined, what
/// it lets through and its schedules, whether written by hand or by `TurnOnFocus` and `SetFocusSchedules`, which
/// write through to it. Which mode is on by hand, and until when, is the daemon's own state, kept across restarts.
/// The file is followed as each app's settings are: an edit is in force as soon as it is saved.
extension DaemonCore {
    /// Makes the modes the file defines now the modes, when they changed: saved with the daemon's state, and in force
    /// at once, through the same ``focusChanged(at:in:)`` as a schedule's start or end.
    func focusFileChanged() async {
        let modes = await focusModesInFile()
        guard modes != focus.state.modes else { return }
        var state = focus.state
        state.replaceModes(modes)
        focus.state = state
        logger.info(
            "focus: the modes are as the settings file defines them",
            metadata: ["focus.modes": "\(modes.keys.sorted().joined(separator: ", "))"])
        do {
            commits.submit([.saveFocus(try FocusRow(id: Self.focusRowID, state))])
        } catch {
            logger.warning(
                "the focus modes cannot be saved; they are read from the settings file again at the next start",
                metadata: ["error": "\(error)"])
        }
        await focusChangedNow()
        focusTimerWake.yield()
    }

    /// Writes `mode` to the settings file, where it is defined, before a change of it is in force.
    ///
    /// - Throws: `InvalidArgument` for a name the file cannot hold, `ServerError` when the file cannot be written;
    ///   each says what to do.
    func writeToFile(_ mode: FocusMode) async throws(DBusFailure) {
        do {
            try await settings.store.save(mode.settingsGroup)
        } catch {
            switch error.kind {
            case .invalidApp: throw BridgeError.invalid(error.description)
            case .cannotWrite: throw DBusFailure(name: BridgeError.serverError, message: error.description)
            }
        }
    }

    /// At the start, before anything is delivered: takes the modes from the settings file. Modes the daemon's state
    /// kept from before the file defined them are written to it once, so that none is lost.
    func adoptFocusFile() async {
        let adopted: SavedFocusFile?
        do {
            adopted = try await commits.storedFocus(SavedFocusFile.self, id: Self.focusFileRowID)
        } catch {
            adopted = nil
        }
        if adopted?.modesInFile != true {
            let written = await settings.store.focusModes()
            var complete = true
            for mode in focus.state.modes.values.sorted(by: { $0.name < $1.name }) where written[mode.name] == nil {
                do {
                    try await writeToFile(mode)
                } catch {
                    complete = false
                    logger.warning(
                        "a saved focus mode cannot be written to the settings file; it is tried again at the next start",
                        metadata: ["focus.mode": "\(mode.name)", "error": "\(error.message)"])
                }
            }
            if complete { _ = try? commits.submit([.saveFocus(FocusRow(id: Self.focusFileRowID, SavedFocusFile()))]) }
        }
        var state = focus.state
        state.replaceModes(await focusModesInFile())
        focus.state = state
    }

    /// The key of the row that says the settings file defines the modes.
    static let focusFileRowID = "file"

    /// The modes the file defines, each problem of it in the log with the line it is on and what to write.
    private func focusModesInFile() async -> [String: FocusMode] {
        let path = settings.store.filePath
        var modes: [String: FocusMode] = [:]
        for group in await settings.store.focusModes().values.sorted(by: { $0.name < $1.name }) {
            let (mode, problems) = FocusMode.reading(group, in: path)
            for problem in problems { logger.warning("\(problem)") }
            if let mode { modes[mode.name] = mode }
        }
        return modes
    }
}

/// The row that says the settings file defines the focus modes: written once the modes kept before are in it.
private struct SavedFocusFile: Codable {
    var modesInFile = true
}
