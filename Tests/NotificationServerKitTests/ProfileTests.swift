import NotificationServerKit
import Testing

/// The presets say what `PROTOCOLS.md`'s table says about each server.
@Suite struct ProfileTests {
    @Test func signalsGoWhereEachServerSendsThem() {
        #expect(NotificationServerProfile.gnomeShell.signalDelivery == .unicastToSender)
        #expect(NotificationServerProfile.dunst.signalDelivery == .unicastToSender)
        #expect(NotificationServerProfile.plasma.signalDelivery == .broadcast)
        #expect(NotificationServerProfile.mako.signalDelivery == .broadcast)
        #expect(NotificationServerProfile.swayNotificationCenter.signalDelivery == .broadcast)
        #expect(NotificationServerProfile.xfce4Notifyd.signalDelivery == .broadcast)
    }

    @Test func closeReasonsAfterAnAction() {
        #expect(NotificationServerProfile.gnomeShell.closeAfterAction == .dismissed)
        #expect(NotificationServerProfile.plasma.closeAfterAction == .closedByCall)
        #expect(NotificationServerProfile.dunst.closeAfterAction == .closedByCall)
        #expect(NotificationServerProfile.mako.closeAfterAction == nil)
        #expect(NotificationServerProfile.swayNotificationCenter.closeAfterAction == .dismissed)
        #expect(NotificationServerProfile.xfce4Notifyd.closeAfterAction == .dismissed)
    }

    @Test func inlineReplyOnlyWhereServersHaveIt() {
        let withReply = allPresets.filter(\.profile.supportsInlineReply).map(\.name)
        #expect(withReply == ["plasma", "full"])
        #expect(
            NotificationServerProfile.plasma.replyDelivery
                == ReplyDelivery(delivery: .unicastToSender, closeReason: .closedByCall))
        // SwayNotificationCenter 0.7.3, the one Debian 12 ships, has none; later versions broadcast it.
        #expect(NotificationServerProfile.swayNotificationCenter.replyDelivery == nil)
        #expect(ReplyDelivery.swayNotificationCenter == ReplyDelivery(delivery: .broadcast, closeReason: .dismissed))
    }

    @Test func activationTokensAndButtons() {
        let sendingTokens = allPresets.filter(\.profile.sendsActivationTokenBeforeAction).map(\.name)
        #expect(sendingTokens == ["gnome-shell", "plasma", "full"])
        #expect(NotificationServerProfile.gnomeShell.maximumButtons == 3)
        #expect(!NotificationServerProfile.gnomeShell.honorsExpireTimeout)
        #expect(NotificationServerProfile.gnomeShell43.maximumButtons == 3)
        #expect(NotificationServerProfile.gnomeShell43.notificationsOutliveService)
        #expect(NotificationServerProfile.swayNotificationCenter.repeatsNotificationClosed)
        #expect(NotificationServerProfile.swayNotificationCenter.expiry == .keep)
    }

    @Test func onlyGNOMEShellAndPlasmaGroupByApp() {
        let grouping = allPresets.filter(\.profile.groupsByApp).map(\.name)
        #expect(grouping == ["gnome-shell", "gnome-shell-43", "plasma"])
    }

    @Test func fullFeaturedAdvertisesWhatTheDemoNeeds() {
        let profile = NotificationServerProfile.fullFeatured
        for capability in ["actions", "body", "body-markup", "inline-reply", "persistence", "action-icons"] {
            #expect(profile.advertises(capability), "missing \(capability)")
        }
        #expect(profile.sendsActivationTokenBeforeAction)
    }

    @Test func presetsAreFoundByName() {
        #expect(NotificationServerProfile.preset(named: "dunst") == .dunst)
        #expect(NotificationServerProfile.preset(named: "nonexistent") == nil)
        #expect(Set(allPresets.map(\.name)).count == allPresets.count)
    }
}
