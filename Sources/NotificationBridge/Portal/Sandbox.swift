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
}
