import DBusTestSupport
import Foundation

/// An X display (Xvfb) with the accessibility bus on a private session bus: where a real server draws, and where a
/// test finds its buttons (from the accessibility tree) and clicks them with `xdotool`, as a user's pointer would.
final class DesktopSession: Sendable {
    let bus: PrivateBus
    let display: String
    let folder: URL
    private let xvfb: ChildProcess
    private let accessibility: ChildProcess

    /// Starts Xvfb and `at-spi-bus-launcher` on `bus`.
    static func start(on bus: PrivateBus) async throws -> DesktopSession {
        let folder = bus.directory.appendingPathComponent("desktop")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (output, writeEnd) = try LineReader.pipe()
        let xvfb: ChildProcess
        do {
            defer { close(writeEnd) }
            // -noreset: by default Xvfb starts afresh whenever its last client leaves, which wipes the root window's
            // AT_SPI_BUS property that at-spi-bus-launcher sets and then disconnects. Qt reads that property to
            // reach the accessibility bus at once; without it, QT_LINUX_ACCESSIBILITY_ALWAYS_ON turns Qt's bridge on
            // before its own lookup of the bus has connected, its registration with the registry fails
            // ("Not connected to D-Bus server") and is never tried again: lxqt-notificationd stays out of the tree.
            xvfb = try ChildProcess.spawn(
                ["Xvfb", "-displayfd", "1", "-noreset", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                standardOutput: writeEnd, standardError: open("/dev/null", O_WRONLY))
        }
        let number: String
        do {
            number = try output.nextLine(within: .seconds(10), waitingFor: "Xvfb to print its display")
        } catch {
            xvfb.stop()
            throw error
        }
        var environment = bus.environment
        environment["DISPLAY"] = ":" + number
        let accessibility: ChildProcess
        do {
            accessibility = try ChildProcess.spawn(
                ["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], environment: environment,
                standardOutput: open("/dev/null", O_WRONLY), standardError: open("/dev/null", O_WRONLY))
        } catch {
            xvfb.stop()
            throw error
        }
        let session = DesktopSession(
            bus: bus, display: ":" + number, folder: folder, xvfb: xvfb, accessibility: accessibility)
        try ExecutableScript.write(Self.treeScript, to: session.treeScriptPath)
        let watcher = try await bus.connect()
        defer { Task { await watcher.close() } }
        try await withTimeout(.seconds(10), waitingFor: "the accessibility bus to start") {
            while try await watcher.nameOwner(of: "org.a11y.Bus") == nil {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        return session
    }

    private init(bus: PrivateBus, display: String, folder: URL, xvfb: ChildProcess, accessibility: ChildProcess) {
        self.bus = bus
        self.display = display
        self.folder = folder
        self.xvfb = xvfb
        self.accessibility = accessibility
    }

    /// The environment of programs on this desktop: the private bus, the display, accessibility on for Qt.
    var environment: [String: String] {
        var environment = bus.environment
        environment["DISPLAY"] = display
        environment["QT_ACCESSIBILITY"] = "1"
        environment["QT_LINUX_ACCESSIBILITY_ALWAYS_ON"] = "1"
        environment["NO_AT_BRIDGE"] = nil
        return environment
    }

    private var treeScriptPath: String { folder.appendingPathComponent("widgets").path }

    /// One widget of the accessibility tree, with its place on the screen.
    struct Widget: Sendable, CustomStringConvertible {
        var application: String
        var role: String
        var name: String
        var x: Int, y: Int, width: Int, height: Int
        var description: String { "\(application): \(role) '\(name)' at \(x),\(y) \(width)x\(height)" }
    }

    /// The buttons, combo boxes and labels every application shows now.
    func widgets() async throws -> [Widget] {
        let result = try await ProcessRunner.run(
            ["/usr/bin/python3", treeScriptPath], environment: environment, timeout: .seconds(20))
        return result.standardOutput.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7, let x = Int(fields[3]), let y = Int(fields[4]), let width = Int(fields[5]),
                let height = Int(fields[6])
            else { return nil }
            return Widget(
                application: fields[0], role: fields[1], name: fields[2], x: x, y: y, width: width, height: height)
        }
    }

    /// Waits until `match` finds a widget on the screen, and returns it.
    func widget(
        _ what: String, within limit: Duration = .seconds(15), where match: @escaping @Sendable (Widget) -> Bool
    ) async throws -> Widget {
        var last: [Widget] = []
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            last = try await widgets()
            if let found = last.first(where: { match($0) && $0.width > 0 }) { return found }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw TestSupportError("no \(what) on the screen after \(limit); it shows \(last)")
    }

    /// Clicks the middle of `widget` with the pointer.
    func click(_ widget: Widget) async throws {
        // No --sync: xdotool then waits for the pointer to move, forever when it is already there (two buttons
        // in the same place, one bubble after another). The move and the click go in order on one X connection.
        let result = try await ProcessRunner.run(
            [
                "xdotool", "mousemove", String(widget.x + widget.width / 2), String(widget.y + widget.height / 2),
                "click", "1",
            ], environment: environment, timeout: .seconds(10))
        guard result.status == 0 else { throw TestSupportError("xdotool failed: \(result.standardError)") }
    }

    /// Clicks the button labelled `label` once it is on the screen; with `bubble`, the one nearest to that widget
    /// (the summary of the notification meant), when several notifications show the same button.
    func clickButton(_ label: String, near bubble: Widget? = nil) async throws {
        let isButton: @Sendable (Widget) -> Bool = { $0.role == "push button" && $0.name == label && $0.width > 0 }
        var button = try await widget("a button '\(label)'", where: isButton)
        if let bubble {
            let distance = { (other: Widget) in abs(other.x - bubble.x) + abs(other.y - bubble.y) }
            button = try await widgets().filter(isButton).min { distance($0) < distance($1) } ?? button
        }
        try await click(button)
    }

    /// Saves what the screen shows as a PNG file at `path`.
    func screenshot(to path: String) async throws {
        try await Self.screenshot(of: environment, to: path)
    }

    /// Saves what the display named by `environment`'s `DISPLAY` shows as a PNG file at `path`.
    static func screenshot(of environment: [String: String], to path: String) async throws {
        let result = try await ProcessRunner.run(
            ["import", "-window", "root", path], environment: environment, timeout: .seconds(20))
        guard result.status == 0 else { throw TestSupportError("import failed: \(result.standardError)") }
    }

    func stop() {
        accessibility.stop(grace: .seconds(2))
        xvfb.stop(grace: .seconds(2))
    }

    /// Prints, per line and tab-separated: application, role, name, x, y, width, height. Roles are matched by their
    /// constants, not by the names the toolkit reports, which changed: AT-SPI 2.56 (Debian 13) names a push button
    /// "button"; the lines keep the names of AT-SPI 2.46 (Debian 12).
    private static let treeScript = """
        #!/usr/bin/python3
        import pyatspi
        ROLES = {
            pyatspi.ROLE_PUSH_BUTTON: "push button", pyatspi.ROLE_COMBO_BOX: "combo box",
            pyatspi.ROLE_LIST_ITEM: "list item", pyatspi.ROLE_LABEL: "label", pyatspi.ROLE_TEXT: "text",
            pyatspi.ROLE_ENTRY: "text", pyatspi.ROLE_MENU_ITEM: "menu item", pyatspi.ROLE_HEADING: "label",
        }
        def walk(application, node, depth):
            if depth > 40:
                return
            try:
                role = ROLES.get(node.getRole())
                if role is not None:
                    box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                    name = (node.name or "").replace("\\t", " ").replace("\\n", " ")
                    print("\\t".join([application, role, name, str(box.x), str(box.y), str(box.width),
                                     str(box.height)]))
                for index in range(node.childCount):
                    walk(application, node.getChildAtIndex(index), depth + 1)
            except Exception:
                return
        for app in pyatspi.Registry.getDesktop(0):
            if app is not None:
                walk(app.name or "", app, 0)
        """
}
