import DBusCore

extension DoNotDisturbReader {
    /// mako: its modes, as `makoctl mode` lists them (`ListModes() -> as` on `fr.emersion.Mako`, which makoctl calls
    /// through busctl). mako 1.7 announces no change of its modes, so the reader reads them once and then only when
    /// asked (``read``): before a notification is shown, and now and then while some wait.
    ///
    /// mako has no do-not-disturb of its own: a user makes one with a mode whose criteria hide notifications
    /// (`[mode=do-not-disturb] invisible=1`). The switch is on while a mode is set whose name is one of
    /// ``makoDoNotDisturbModes``, in any case.
    static func mako(owner: String, connection: DBusConnection) -> DoNotDisturbReader {
        let read = { @Sendable () async throws -> Bool in
            let reply = try await connection.call(
                destination: owner, path: "/fr/emersion/Mako", interface: "fr.emersion.Mako", method: "ListModes",
                timeout: readTimeout)
            guard case .array(_, let modes)? = reply.first else {
                throw DBusFailure(
                    name: "org.freedesktop.DBus.Error.InvalidSignature", message: "ListModes did not answer a list")
            }
            return isMakoDoNotDisturb(modes.compactMap(\.stringValue))
        }
        return DoNotDisturbReader(
            source: .mako,
            follow: { report in
                // Nothing more is announced: later readings are asked for.
                await report(try await firstReading(read, meanwhile: report))
            }, read: read)
    }

    /// The mode names that mean do-not-disturb in mako.
    static let makoDoNotDisturbModes: Set<String> = ["do-not-disturb", "dnd", "donotdisturb", "do_not_disturb"]

    /// Whether the modes set include one that means do-not-disturb.
    static func isMakoDoNotDisturb(_ modes: [String]) -> Bool {
        modes.contains { makoDoNotDisturbModes.contains($0.lowercased()) }
    }
}
