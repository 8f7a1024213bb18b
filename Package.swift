// swift-tools-version:6.3
import PackageDescription

let package = Package(
    name: "NotificationBridge",
    products: [
        .library(name: "DBusCore", targets: ["DBusCore"]),
        .library(name: "NotificationModel", targets: ["NotificationModel"]),
        .library(name: "NotificationBridgeAPI", targets: ["NotificationBridgeAPI"]),
        .library(name: "NotificationBridge", targets: ["NotificationBridge"]),
        .executable(name: "notification-bridged", targets: ["notification-bridged"]),
        .executable(name: "notification-bridge", targets: ["notification-bridge"]),
        .executable(name: "notification-terminal-server", targets: ["notification-terminal-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // The seams to C. Only DBusCore imports CDBus.
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .systemLibrary(
            name: "CGIO",
            pkgConfig: "gio-unix-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        // GLib alone (GVariant), for the command line: linking GIO would cost every run of it about a millisecond of
        // loading and relocating GIO, GObject and their libraries.
        .systemLibrary(
            name: "CGLib",
            pkgConfig: "glib-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),

        // Linux interfaces the Glibc module leaves out (epoll, eventfd, timerfd, signalfd, malloc_trim).
        .systemLibrary(name: "CLinux"),

        // One thread in epoll as the process's main and global executor: the daemon's idle wake-ups are zero.
        .target(name: "EventLoopExecutor", dependencies: ["CLinux"]),

        // SQLite, for the daemon's state. Only the files in NotificationStore/Database import it.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),

        .target(name: "DBusCore", dependencies: ["CDBus"]),

        // Child processes: spawning with posix_spawn, reaping, the EINTR funnel, PATH lookup, and the detached thread
        // for blocking work. Package-only: the bridge's prompt, the daemon's commands and the test harness start
        // programs the same way.
        .target(name: "ProcessSupport", dependencies: ["CLinux"]),

        .target(name: "NotificationModel"),

        // The release number, in one place, for every program and for the daemon's interface.
        .target(name: "NotificationBridgeVersion"),

        // The freedesktop notification protocol for both ends, client and server: the bus name, path and interface,
        // method and signal names, the Notify request, the server's signals, close reasons, hint and capability names.
        .target(name: "FreedesktopNotifications", dependencies: ["DBusCore"]),

        // The daemon's contract: names, typed errors, one key table per dictionary (decoding and encoding), the
        // `exec` rule and a typed client proxy. No Foundation, so that the command line stays light.
        .target(
            name: "NotificationBridgeAPI",
            dependencies: ["DBusCore", "NotificationModel", "NotificationBridgeVersion", "ProcessSupport"]
        ),

        // The bridge: freedesktop client and codec, routing, activation, lock gate, prompts, the Swift API. No SQLite:
        // the daemon's engine (scheduling, the store) is in modules of its own, which apps do not link.
        .target(
            name: "NotificationBridge",
            dependencies: [
                "DBusCore", "FreedesktopNotifications", "NotificationModel", "NotificationBridgeAPI", "ProcessSupport",
                "CGIO", "CLinux", .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The daemon's engine, package-only. Scheduling: triggers evaluated in a time zone, the queue of pending
        // notifications, the clocks and what moves them (zone changes, resumes, steps of the wall clock), the
        // scheduler.
        .target(
            name: "NotificationScheduling",
            dependencies: [
                "DBusCore", "NotificationModel", "CGIO", "CLinux", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The store: the SQLite database of scheduled notifications, categories and routes, its row format (which
        // names its own fields and carries its version), the durable files beside it, and its writer thread.
        .target(
            name: "NotificationStore",
            dependencies: [
                "NotificationScheduling", "NotificationModel", "ProcessSupport", "CSQLite", "CLinux",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The daemon: io.github.NotificationBridge1 on the session bus. The library holds the logic, the executable
        // only starts it.
        .target(
            name: "NotificationBridgeDaemon",
            dependencies: [
                "NotificationBridge", "NotificationBridgeAPI", "NotificationScheduling", "NotificationStore",
                "DBusCore",
                "NotificationModel", "NotificationBridgeVersion", "ProcessSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "notification-bridged",
            dependencies: [
                "NotificationBridgeDaemon", "EventLoopExecutor", "CLinux", "TerminalNotificationServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // GVariant text (as gdbus takes it) parsed by GLib into DBusCore values: the CLI's one use of GLib.
        .target(name: "GVariantText", dependencies: ["DBusCore", "CGLib"]),

        // The command line: a friendlier notify-send that talks to the daemon; started as notify-send, libnotify's
        // notify-send, which talks to the notification server (or the portal) itself. Its commands, and the one
        // reading of its arguments, are a library (tested in-process); the executable only hands it the command line.
        .target(
            name: "NotificationBridgeCommands",
            dependencies: [
                "DBusCore", "EventLoopExecutor", "NotificationModel", "NotificationBridgeAPI", "GVariantText",
                "NotificationBridgeVersion", "FreedesktopNotifications",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "notification-bridge", dependencies: ["NotificationBridgeCommands"]),

        // A notification server for a terminal (over SSH, or to watch what an app sends): the library holds the
        // logic and the command line. The package installs it as a link to notification-bridged, whose program
        // runs it under that name: one program of 20 MB rather than two of 18 and 14.
        .target(
            name: "TerminalNotificationServer",
            dependencies: [
                "NotificationServerKit", "DBusCore", "NotificationBridgeVersion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "notification-terminal-server", dependencies: ["TerminalNotificationServer"]),

        // `make demo`: notification-bridged and the terminal server on a private bus, driven as a user would.
        .executableTarget(
            name: "notification-bridge-demo",
            dependencies: [
                "TerminalNotificationServer", "DBusCore", "NotificationBridge", "NotificationBridgeAPI",
                "DBusTestSupport", "ProcessSupport",
            ]
        ),

        // A real org.freedesktop.Notifications server, configurable to behave like each known server.
        .target(name: "NotificationServerKit", dependencies: ["DBusCore", "FreedesktopNotifications"]),

        // Test support shipped as a library target so every test target (and the benchmarks) share one harness.
        .target(
            name: "DBusTestSupport",
            dependencies: ["DBusCore", "ProcessSupport", .product(name: "Logging", package: "swift-log")]
        ),

        .executableTarget(
            name: "dbus-bench",
            dependencies: [
                "CDBus", "DBusCore", "DBusTestSupport", "NotificationBridge", "NotificationBridgeAPI",
                "NotificationModel", "NotificationStore",
            ],
            path: "Benchmarks/DBusBench"
        ),
        // The floor under the daemon's idle memory: the Swift runtime and the same C libraries, used directly (the one
        // place outside their seams), and nothing else.
        .executableTarget(
            name: "bench-idle-floor",
            dependencies: ["CDBus", "CGIO", "CSQLite", "CLinux"],
            path: "Benchmarks/IdleFloor"
        ),
        // The floor under `notification-bridge send`: a Swift program that makes the same call with libdbus alone.
        .executableTarget(
            name: "bench-send-floor",
            dependencies: ["CDBus"],
            path: "Benchmarks/SendFloor"
        ),

        // `make gates`: the hot paths' instructions and heap allocations per operation, counted under callgrind with
        // the malloc counter of Benchmarks/malloc-count preloaded, against the thresholds of Benchmarks/gates.tsv.
        .executableTarget(
            name: "bench-gates",
            dependencies: [
                "DBusCore", "DBusTestSupport", "EventLoopExecutor", "NotificationBridge", "NotificationBridgeAPI",
                "NotificationModel", "NotificationServerKit",
            ],
            path: "Benchmarks/CountGates"
        ),

        // The gates' table as bench-gates reads it: checked in seconds, without valgrind.
        .testTarget(name: "CountGatesTests", dependencies: ["bench-gates", "DBusTestSupport"]),
        .testTarget(name: "DBusCoreTests", dependencies: ["DBusCore", "DBusTestSupport"]),
        .testTarget(name: "NotificationModelTests", dependencies: ["NotificationModel"]),
        .testTarget(
            name: "NotificationBridgeAPITests",
            dependencies: [
                "NotificationBridgeAPI", "NotificationModel", "DBusCore", "DBusTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // An app that only uses the library's API, run by the portal tests as if sandboxed.
        .executableTarget(
            name: "portal-test-app",
            dependencies: ["NotificationBridge", "NotificationModel"],
            path: "Tests/PortalTestApp"
        ),
        .testTarget(
            name: "NotificationBridgeTests",
            dependencies: [
                "NotificationBridge", "NotificationBridgeAPI", "NotificationServerKit", "DBusCore", "DBusTestSupport",
                "FreedesktopNotifications",
            ]
        ),
        .testTarget(name: "NotificationSchedulingTests", dependencies: ["NotificationScheduling", "DBusTestSupport"]),
        .testTarget(
            name: "NotificationStoreTests",
            dependencies: ["NotificationStore", "NotificationScheduling", "NotificationModel", "DBusTestSupport"]
        ),
        .testTarget(
            name: "NotificationBridgeDaemonTests",
            dependencies: [
                "NotificationBridgeDaemon", "NotificationBridge", "NotificationBridgeAPI", "NotificationModel",
                "NotificationScheduling", "NotificationStore", "NotificationServerKit", "DBusCore", "DBusTestSupport",
                "CLinux",
            ],
            exclude: ["RowFixtures"]
        ),
        .testTarget(
            name: "NotificationBridgeCLITests",
            dependencies: [
                "notification-bridge", "NotificationBridgeCommands", "GVariantText", "DBusCore",
                "NotificationBridgeAPI",
                "NotificationServerKit",
                "DBusTestSupport",
            ],
            exclude: ["HelpSnapshots"]
        ),
        .testTarget(
            name: "TerminalNotificationServerTests",
            dependencies: [
                "TerminalNotificationServer", "NotificationServerKit", "DBusCore", "DBusTestSupport",
                "NotificationBridgeVersion",
            ]
        ),
        .testTarget(
            name: "NotificationServerKitTests",
            dependencies: ["NotificationServerKit", "DBusCore", "DBusTestSupport"]
        ),
        // Faults and bad input: servers, the bus and the daemon killed mid-work, random malformed calls, leaks.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "NotificationBridgeDaemon", "NotificationBridge", "NotificationBridgeAPI", "NotificationStore",
                "NotificationServerKit", "DBusCore", "DBusTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // `make interop`: the daemon and the CLI against the real servers Debian ships, driven as their users act.
        .testTarget(
            name: "InteropTests",
            dependencies: ["DBusCore", "DBusTestSupport", "NotificationBridgeAPI", "NotificationModel"]),

        // `make fuzz`: libFuzzer over the decoding of incoming messages and of the daemon's method arguments. Built
        // with -sanitize=fuzzer it is a libFuzzer binary; built plainly it replays the inputs it is given.
        .executableTarget(
            name: "notification-bridge-fuzz",
            dependencies: ["NotificationBridgeDaemon", "NotificationBridgeAPI", "DBusCore"],
            path: "Fuzz/DecodeFuzzer"
        ),
    ],
    swiftLanguageModes: [.v6]
)
