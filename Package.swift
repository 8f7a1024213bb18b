// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "NotificationBridge",
    products: [
        .library(name: "DBusCore", targets: ["DBusCore"]),
        .library(name: "NotificationModel", targets: ["NotificationModel"]),
        .library(name: "NotificationBridge", targets: ["NotificationBridge"]),
        .executable(name: "notification-bridged", targets: ["notification-bridged"]),
        .executable(name: "notification-bridge", targets: ["notification-bridge"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The two seams to C. Only DBusCore imports CDBus.
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

        .target(name: "DBusCore", dependencies: ["CDBus"]),
        .target(name: "NotificationModel"),

        // The bridge: freedesktop client and codec, routing, activation, lock gate, prompts, the Swift API.
        .target(
            name: "NotificationBridge",
            dependencies: ["DBusCore", "NotificationModel", "CGIO", .product(name: "Logging", package: "swift-log")]
        ),

        // The daemon: io.github.NotificationBridge1 on the session bus. The library holds the logic, the executable
        // only starts it.
        .target(
            name: "NotificationBridgeDaemon",
            dependencies: [
                "NotificationBridge", "DBusCore", "NotificationModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "notification-bridged",
            dependencies: [
                "NotificationBridgeDaemon",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // GVariant text (as gdbus takes it) parsed by GLib into DBusCore values: the CLI's one use of GIO.
        .target(name: "GVariantText", dependencies: ["DBusCore", "CGIO"]),

        // The command line: a friendlier notify-send that talks to the daemon.
        .executableTarget(
            name: "notification-bridge",
            dependencies: [
                "DBusCore", "NotificationModel", "GVariantText",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // `make demo`: the bridge against a notification server shown in the terminal, on a private bus.
        .executableTarget(
            name: "notification-bridge-demo",
            dependencies: ["NotificationBridge", "NotificationServerKit", "NotificationModel", "DBusTestSupport"]
        ),

        // A real org.freedesktop.Notifications server, configurable to behave like each known server.
        .target(name: "NotificationServerKit", dependencies: ["DBusCore"]),

        // Test support shipped as a library target so every test target (and the benchmarks) share one harness.
        .target(name: "DBusTestSupport", dependencies: ["DBusCore", "NotificationBridge"]),

        .executableTarget(
            name: "dbus-bench",
            dependencies: ["DBusCore", "DBusTestSupport", "NotificationBridge", "NotificationModel"],
            path: "Benchmarks/DBusBench"
        ),

        .testTarget(name: "DBusCoreTests", dependencies: ["DBusCore", "DBusTestSupport"]),
        .testTarget(name: "NotificationModelTests", dependencies: ["NotificationModel"]),
        .testTarget(
            name: "NotificationBridgeTests",
            dependencies: ["NotificationBridge", "NotificationServerKit", "DBusCore", "DBusTestSupport"]
        ),
        .testTarget(
            name: "NotificationBridgeDaemonTests",
            dependencies: ["NotificationBridgeDaemon", "NotificationServerKit", "DBusCore", "DBusTestSupport"]
        ),
        .testTarget(
            name: "NotificationBridgeCLITests",
            dependencies: ["GVariantText", "DBusCore", "NotificationServerKit", "DBusTestSupport"]
        ),
        .testTarget(
            name: "NotificationServerKitTests",
            dependencies: ["NotificationServerKit", "DBusCore", "DBusTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
