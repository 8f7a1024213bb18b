import FoundationEssentials

/// The sandbox a process runs in, as libnotify, GLib and Qt recognise it.
public enum Sandbox: String, Sendable, Hashable {
    /// A Flatpak app: `/.flatpak-info` exists, or `container` is `flatpak`.
    case flatpak
    /// A Snap: `SNAP` and `SNAP_NAME` are set.
    case snap

    /// The sandbox of this process, or `nil` when it has none.
    public static var current: Sandbox? {
        detect(environment: ProcessInfo.processInfo.environment) { FileManager.default.fileExists(atPath: $0) }
    }

    /// The sandbox that `environment` and the files say the process is in.
    ///
    /// Other values of `container` (podman, docker, lxc, systemd-nspawn, as toolbox and distrobox set them) name
    /// containers that share the host's session bus unfiltered: their apps reach the notification server, so they are
    /// not taken for a sandbox.
    ///
    /// - Parameters:
    ///   - environment: the process's environment.
    ///   - fileExists: whether a file exists at a path (`/.flatpak-info`).
    public static func detect(environment: [String: String], fileExists: (String) -> Bool) -> Sandbox? {
        if fileExists("/.flatpak-info") || environment["container"] == "flatpak" { return .flatpak }
        if let snap = environment["SNAP"], !snap.isEmpty, let name = environment["SNAP_NAME"], !name.isEmpty {
            return .snap
        }
        return nil
    }

    /// The app id this sandbox gives the process, as the daemon and the portal know the app: `FLATPAK_ID` (which
    /// Flatpak sets in every sandbox) for a Flatpak, `snap.` and `SNAP_INSTANCE_NAME` (or `SNAP_NAME`) for a Snap;
    /// `nil` when the environment does not say.
    public func appID(environment: [String: String]) -> String? {
        switch self {
        case .flatpak:
            return environment["FLATPAK_ID"].flatMap { $0.isEmpty ? nil : $0 }
        case .snap:
            let name = environment["SNAP_INSTANCE_NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["SNAP_NAME"]
            return name.flatMap { $0.isEmpty ? nil : "snap." + $0 }
        }
    }
}
