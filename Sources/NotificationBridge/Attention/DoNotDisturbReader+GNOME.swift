extension DoNotDisturbReader {
    /// GNOME: `org.gnome.desktop.notifications show-banners` off, read and followed through the user's notification
    /// settings (the same GSettings object, on the same GIO thread), which hear each change of GNOME's global keys.
    static func gnome(settings: NotificationSettingsStore) -> DoNotDisturbReader {
        DoNotDisturbReader(
            source: .gnome,
            follow: { report in
                // Followed before the first read, so that no change in between is missed.
                let changes = settings.globalChanges()
                guard let isOn = await settings.gnomeDoNotDisturb() else { return }
                await report(isOn)
                for await _ in changes {
                    guard let isOn = await settings.gnomeDoNotDisturb() else { return }
                    await report(isOn)
                }
            }, read: nil)
    }
}
