import DBusCore
import NotificationServerKit
import Testing

@testable import TerminalNotificationServer

/// How bodies, labels and whole notifications look on the terminal, with and without colour. No bus.
@Suite("Terminal rendering")
struct RenderingTests {
    private let plain = TerminalStyle(usesColor: false)
    private let colored = TerminalStyle(usesColor: true)

    @Test(
        "body markup without colour: tags dropped, links and images spelled out, entities decoded",
        arguments: [
            ("<b>Disk</b> is <i>almost</i> <u>full</u>", "Disk is almost full"),
            ("See <a href=\"https://example.org\">the docs</a>.", "See the docs <https://example.org>."),
            ("<img src=\"/tmp/a.png\" alt=\"chart\"/> done", "[image: chart] done"),
            ("1 &lt; 2 &amp;&amp; 3 &gt; 2 &quot;ok&quot; &#65;&#x42;", "1 < 2 && 3 > 2 \"ok\" AB"),
            ("a < b and c > d", "a < b and c > d"),
            ("AT&T &unknown; &", "AT&T &unknown; &"),
            ("<span foo='x'>kept</span> text", "kept text"),
            ("line one<br/>line two", "line one\nline two"),
        ])
    func plainMarkup(body: String, expected: String) {
        #expect(BodyMarkup(style: plain).render(body) == expected)
    }

    @Test("body markup with colour: bold, italics and underline as ANSI attributes, nested correctly")
    func coloredMarkup() {
        let rendered = BodyMarkup(style: colored).render("<b>a<b>b</b>c</b> <i>d</i> <u>e</u>")
        #expect(rendered == "\u{1B}[1mabc\u{1B}[22m \u{1B}[3md\u{1B}[23m \u{1B}[4me\u{1B}[24m")
    }

    @Test("an unclosed tag is reset at the end, so the next line starts plain")
    func unclosed() {
        #expect(BodyMarkup(style: colored).render("<b>bold") == "\u{1B}[1mbold\u{1B}[0m")
    }

    @Test("control characters from a client cannot reach the terminal, raw or as character references")
    func controlCharacters() {
        let body = "red \u{1B}[31m here &#27;]0;title&#7; and\ttab\r\nnext"
        let rendered = BodyMarkup(style: plain).render(body)
        #expect(!rendered.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(rendered == "red \u{FFFD}[31m here \u{FFFD}]0;title\u{FFFD} and tab\nnext")
        #expect(TerminalText.sanitized("a\nb\u{9B}c") == "a b\u{FFFD}c")
    }

    @Test("NO_COLOR and the terminal decide colour unless the user forces it")
    func colorChoice() {
        #expect(TerminalStyle.resolve(.auto, environment: [:], outputIsTerminal: true).usesColor)
        #expect(!TerminalStyle.resolve(.auto, environment: ["NO_COLOR": "1"], outputIsTerminal: true).usesColor)
        #expect(TerminalStyle.resolve(.auto, environment: ["NO_COLOR": ""], outputIsTerminal: true).usesColor)
        #expect(!TerminalStyle.resolve(.auto, environment: [:], outputIsTerminal: false).usesColor)
        #expect(TerminalStyle.resolve(.always, environment: ["NO_COLOR": "1"], outputIsTerminal: false).usesColor)
        #expect(!TerminalStyle.resolve(.never, environment: [:], outputIsTerminal: true).usesColor)
    }

    @Test("a card: header, title, body, numbered buttons with the destructive one marked, reply field, commands")
    func card() {
        let notification = ServedNotification(
            id: 7, appName: "Mail", summary: "Ann", body: "Lunch <b>at 12</b>?",
            actions: [
                .init(key: "default", label: "Open"), .init(key: "delete", label: "⚠ Delete"),
                .init(key: "read", label: "Mark as Read"), .init(key: "inline-reply", label: "Reply"),
            ],
            hints: [
                "x-kde-reply-placeholder-text": .string("Your answer"),
                "x-kde-reply-submit-button-text": .string("Send"),
            ],
            sender: ":1.4", urgency: 2)
        let buttons = TerminalButton.buttons(of: notification, keys: ["delete", "read"], destructiveMarker: "⚠")
        #expect(buttons.map(\.label) == ["Delete", "Mark as Read"])
        #expect(buttons.map(\.isDestructive) == [true, false])
        let lines = NotificationCard(style: plain, destructiveMarker: "⚠").lines(
            for: notification, buttons: buttons, hasReplyField: true)
        #expect(
            lines == [
                "┌─ #7 · Mail · urgent",
                "│ Ann",
                "│ Lunch at 12?",
                "│ [1] ⚠ Delete (destructive)",
                "│ [2] Mark as Read",
                "│ [reply] Reply “Your answer” (Send)",
                "└─ #7 1-2 · reply #7 TEXT · open #7 · dismiss #7",
            ])
        let red = NotificationCard(style: colored, destructiveMarker: "⚠").lines(
            for: notification, buttons: buttons, hasReplyField: true)
        #expect(red[3].contains("\u{1B}[31m"))
        #expect(!red[4].contains("\u{1B}[31m"))
    }

    @Test("without a marker configured, no label counts as destructive")
    func noMarker() {
        let notification = ServedNotification(
            id: 1, appName: "a", summary: "s", actions: [.init(key: "x", label: "⚠ X")], sender: ":1.1")
        #expect(
            TerminalButton.buttons(of: notification, keys: ["x"], destructiveMarker: "").map(\.isDestructive) == [
                false
            ])
    }
}
