import NotificationBridgeAPI

/// The focus modes the settings file defines (`[focus NAME]` groups, ``SettingsFocusGroup``): read, written and
/// followed as each app's settings are, whichever desktop keeps those, since no desktop has a place for them.
extension NotificationSettingsStore {
    /// Each change of the file's focus modes, made by hand or through ``save(_:)``, from now until the consuming task
    /// ends or the store closes; any number of followers may each have one. A change may be reported more than once.
    package func focusChanges() -> AsyncStream<Void> {
        focusFollowers.add()
    }

    /// The file's focus modes, by name, read again (an edit not reported yet is seen, and reported).
    package func focusModes() async -> [String: SettingsFocusGroup] {
        let backends = self.backends
        return await thread.perform {
            backends.file.reload()
            return backends.file.contents.focusModes
        }
    }

    /// Writes the keys of a focus mode in the group of `group`'s name (made if there is none): those `group` gives
    /// are set, the others of ``NotificationBridgeAPI/FocusModeKeys/settingsFileKeys`` taken out; other keys and
    /// comments stay. Reported on ``focusChanges()``.
    ///
    /// - Throws: ``SettingsStoreError`` when the name cannot be a group's, or the file cannot be written.
    package func save(_ group: SettingsFocusGroup) async throws(SettingsStoreError) {
        guard !group.name.unicodeScalars.contains(where: { $0 == "[" || $0 == "]" || $0.value < 0x20 }) else {
            throw SettingsStoreError(
                kind: .invalidApp,
                description: "a focus mode named \(quotedForMessage(group.name)) cannot be kept in \(filePath); "
                    + "name it without brackets or control characters, such as work or sleep")
        }
        let backends = self.backends
        let problem = await thread.perform { backends.file.write { $0.focusModes[group.name] = group } }
        if let problem {
            throw SettingsStoreError(
                kind: .cannotWrite,
                description: "cannot write \(filePath) (\(problem)); check that its folder can be written")
        }
        focusFollowers.notify()
    }
}
