import Testing

@testable import NotificationBridgeDaemon

/// What a sandbox leaves about a process, read as xdg-desktop-portal reads it: the rules, without a sandbox.
@Suite("Peers identified from what their sandbox provides")
struct PeerIdentificationTests {
    @Test("a /.flatpak-info names the app in [Application], whatever else it holds")
    func flatpakApp() {
        let info = """
            [Application]
            name = org.gnome.Maps
            runtime=runtime/org.gnome.Platform/x86_64/45

            [Instance]
            instance-id=1234567
            name=ignored.Other
            """
        #expect(
            PeerIdentification.peer(flatpakInfo: info, securityLabel: nil, cgroup: nil)
                == .sandboxed(SandboxedApp(kind: .flatpak, id: "org.gnome.Maps")))
    }

    @Test(
        "a /.flatpak-info without a valid app name is an unidentified sandbox, never the host",
        arguments: [
            "", "[Instance]\nbranch=stable\n", "[Application]\nname=\n", "[Application]\nname=NoDots\n",
            "[Application]\nname=org.example.1st\n", "[Application]\nname=org.example.a:b\n",
        ])
    func unidentifiedFlatpak(info: String) {
        let peer = PeerIdentification.peer(flatpakInfo: info, securityLabel: nil, cgroup: nil)
        guard case .unidentified(.flatpak?, _) = peer else {
            Issue.record("\(peer)")
            return
        }
        #expect(peer.isSandboxed && peer.confinedAppID == "")
    }

    @Test("a runtime run on its own is known by its name")
    func flatpakRuntime() {
        #expect(
            PeerIdentification.flatpakAppID("[Runtime]\nname=org.freedesktop.Sdk\n") == "org.freedesktop.Sdk")
    }

    @Test(
        "a Snap is known by its AppArmor label or, without one, its cgroup; other labels are the host's",
        arguments: [
            ("snap.firefox.firefox (enforce)", nil, "firefox"),
            ("snap.spotify.hook.configure (complain)", nil, "spotify"),
            (
                "unconfined",
                "0::/user.slice/user-1000.slice/user@1000.service/app.slice/snap.telegram-desktop.telegram-desktop-8b1a.scope\n",
                "telegram-desktop"
            ),
            (nil, "0::/user.slice/user-1000.slice/session-2.scope\n", nil),
            ("/usr/bin/evince (enforce)", nil, nil),
            ("snap.Bad_Name", nil, nil),
        ] as [(String?, String?, String?)])
    func snap(label: String?, cgroup: String?, name: String?) {
        let peer = PeerIdentification.peer(flatpakInfo: nil, securityLabel: label, cgroup: cgroup)
        if let name {
            #expect(peer == .sandboxed(SandboxedApp(kind: .snap, id: "snap." + name, snapName: name)))
        } else {
            #expect(peer == .host)
        }
    }

    @Test("an app owns its own app id and, for a Snap, its name and desktop files; a Flatpak no longer id")
    func ownership() {
        let flatpak = SandboxedApp(kind: .flatpak, id: "org.example.Mail")
        #expect(flatpak.owns(appName: "org.example.Mail") && !flatpak.owns(appName: "org.example.Mailer"))
        #expect(flatpak.owns(desktopEntry: "org.example.Mail.desktop"))
        // Another Flatpak may have this app id: a prefix cannot tell it from the app's own.
        #expect(!flatpak.owns(desktopEntry: "org.example.Mail.Compose"))
        #expect(!flatpak.owns(desktopEntry: "org.example.MailSpoof"))
        let snap = SandboxedApp(kind: .snap, id: "snap.spotify", snapName: "spotify")
        #expect(snap.owns(appName: "spotify") && snap.owns(appName: "snap.spotify"))
        #expect(snap.owns(desktopEntry: "spotify_spotify.desktop") && !snap.owns(desktopEntry: "spotifyx_app"))
    }
}
