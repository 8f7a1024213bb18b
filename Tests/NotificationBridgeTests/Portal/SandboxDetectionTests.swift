import Testing

@testable import NotificationBridge

/// The center's path is chosen by the sandbox the app runs in, as libnotify and GLib choose theirs.
@Suite struct SandboxDetectionTests {
    static func detect(_ environment: [String: String], files: Set<String> = []) -> Sandbox? {
        Sandbox.detect(environment: environment) { files.contains($0) }
    }

    @Test func aFlatpakIsFoundByItsInfoFile() {
        #expect(Self.detect([:], files: ["/.flatpak-info"]) == .flatpak)
    }

    @Test func aFlatpakIsFoundByTheContainerVariable() {
        #expect(Self.detect(["container": "flatpak"]) == .flatpak)
    }

    @Test func aSnapNeedsBothOfItsVariables() {
        #expect(Self.detect(["SNAP": "/snap/mail/12", "SNAP_NAME": "mail"]) == .snap)
        #expect(Self.detect(["SNAP": "/snap/mail/12"]) == nil)
    }

    @Test(arguments: ["podman", "docker", "oci", "lxc", "systemd-nspawn"])
    func containersThatShareTheSessionBusAreNotSandboxes(_ name: String) {
        #expect(Self.detect(["container": name]) == nil)
    }

    @Test func nothingMeansNoSandbox() {
        #expect(Self.detect(["HOME": "/home/ann"]) == nil)
    }
}
