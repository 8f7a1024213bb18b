import DBusCore
import Testing

@testable import NotificationBridgeCommands

/// When notify-send uses the portal and under which id, what the portal's icon is, and how the server's specification
/// version names the image hint: libnotify's rules, without a bus.
@Suite("notify-send's sandbox, portal icon and image hint")
struct NotifySendSandboxTests {
    static let flatpakInfo = "[Application]\nname=org.example.App\nruntime=runtime/org.gnome.Platform\n"
    static let snapGroups =
        "0::/user.slice/user-1000.slice/user@1000.service/app.slice/"
        + "snap.firefox.firefox-0a1b2c3d-4e5f-6789-abcd-ef0123456789.scope\n"

    @Test("NOTIFY_IGNORE_PORTAL wins, NOTIFY_FORCE_PORTAL forces it, a Flatpak or a snap uses it")
    func decision() {
        let plain = NotifySendSandbox.decide(ignorePortal: false, forcePortal: false, flatpakInfo: nil, cgroup: "0::/")
        #expect(!plain.usesPortal)
        let forced = NotifySendSandbox.decide(ignorePortal: false, forcePortal: true, flatpakInfo: nil, cgroup: nil)
        #expect(forced.usesPortal && forced.portalAppID == "flatpak.(null)")
        let flatpak = NotifySendSandbox.decide(
            ignorePortal: false, forcePortal: false, flatpakInfo: Self.flatpakInfo, cgroup: nil)
        #expect(flatpak.usesPortal && flatpak.portalAppID == "flatpak.org.example.App")
        let snap = NotifySendSandbox.decide(
            ignorePortal: false, forcePortal: false, flatpakInfo: nil, cgroup: Self.snapGroups)
        #expect(snap.usesPortal && snap.portalAppID == "snap.firefox_firefox", "the scope and the UUID dropped")
        #expect(snap.snapDesktopEntry == "firefox_firefox")
        let ignored = NotifySendSandbox.decide(
            ignorePortal: true, forcePortal: true, flatpakInfo: Self.flatpakInfo, cgroup: nil)
        #expect(!ignored.usesPortal)
    }

    @Test("the portal's icon: a themed name with its symbolic twin; a URI other than file: is refused")
    func icon() throws {
        #expect(NotifySendPortalIcon.themedNames("mail") == ["mail", "mail-symbolic"])
        #expect(NotifySendPortalIcon.themedNames("mail-symbolic") == ["mail-symbolic", "mail"])
        #expect(NotifySendPortalIcon.filePath(ofURI: "file:///tmp/a%20b.png") == "/tmp/a b.png")
        #expect(NotifySendPortalIcon.scheme(of: "no-such-icon") == nil)
        #expect(throws: NotifySendShowFailure.self) { try NotifySendPortalIcon.value(for: "https://example.org/a.png") }
    }

    @Test(
        "-i's hint as the server's version names it: image-path from 1.2, image_path in 1.1, the app icon before",
        arguments: [
            ("1.2", "image-path", ""), ("1.3", "image-path", ""), ("1.1", "image_path", ""), ("1.0", nil, "pic"),
            ("unreadable", "image-path", ""),
        ] as [(String, String?, String)])
    func imageHint(_ version: String, _ hint: String?, _ appIcon: String) throws {
        let notification = try NotifySendNotification(try NotifySendArguments(parsing: ["-i", "pic", "T"]))
        let request = NotifySendFreedesktop.request(
            for: notification, specVersion: .init(version), defaultDesktopEntry: nil, senderPID: 42)
        var expected: [String: DBusValue] = ["urgency": .byte(1), "sender-pid": .int64(42)]
        if let hint { expected[hint] = .string("pic") }
        #expect(request.hints == expected)
        #expect(request.appIcon == appIcon)
    }

    @Test("a sender-pid given with -h is sent instead of the process's, as libnotify does")
    func givenSenderPID() throws {
        let notification = try NotifySendNotification(
            try NotifySendArguments(parsing: ["-h", "int:sender-pid:7", "T"]))
        let request = NotifySendFreedesktop.request(
            for: notification, specVersion: .init("1.2"), defaultDesktopEntry: "snap_app", senderPID: 42)
        #expect(request.hints["sender-pid"] == .int32(7))
        #expect(request.hints["desktop-entry"] == .string("snap_app"))
    }
}
