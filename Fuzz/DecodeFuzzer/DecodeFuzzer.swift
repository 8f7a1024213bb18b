import DBusCore
import NotificationBridgeAPI
import Foundation
import NotificationBridgeDaemon

/// One fuzz input: the bytes of a D-Bus message as it arrives on the wire.
///
/// The message is read as libdbus reads what it receives (`DBusWire.decodeArguments`, DBusCore's message decoding),
/// printed in GVariant text, and every argument it carries is given to each decoder of the daemon's method arguments:
/// a `Post` notification (`PostRequest`), a filter (`NotificationFilter`) and a category (`CategoryCoding`). None may
/// trap; each must either accept the value or refuse it with `InvalidArgument` and a message of bounded length.
enum DecodeFuzzer {
    /// The most an error message may take, whatever the input: the daemon cuts quoted input short.
    static let messageLimit = 4096

    static func run(_ bytes: [UInt8]) {
        guard let decoded = try? DBusWire.decodeArguments(from: bytes) else { return }
        let arguments = decoded.arguments
        for value in arguments {
            _ = value.description
            check(BridgeMethod.post.name) { () throws(DBusFailure) in
                _ = try PostRequest(value, defaultAppName: "Fuzz")
            }
            check("filter") { () throws(DBusFailure) in _ = try NotificationFilter(value) }
            check("category actions") { () throws(DBusFailure) in
                _ = try CategoryCoding.decode(id: "fuzz", actions: value, options: .vardict([:]))
            }
            check("category options") { () throws(DBusFailure) in
                _ = try CategoryCoding.decode(
                    id: "fuzz",
                    actions: .array(
                        element: "a{sv}",
                        [.vardict([ActionKeys.id.name: .string("a"), ActionKeys.title.name: .string("A")])]),
                    options: value)
            }
        }
        if arguments.count >= 3 {
            check(BridgeMethod.registerCategory.name) { () throws(DBusFailure) in
                _ = try CategoryCoding.decode(
                    id: arguments[0].stringValue ?? "", actions: arguments[1], options: arguments[2])
            }
        }
    }

    /// Runs one decoder: it may succeed, or fail with `InvalidArgument` and a short message; anything else traps,
    /// which libFuzzer reports with the input.
    private static func check(_ what: String, _ decode: () throws(DBusFailure) -> Void) {
        do {
            try decode()
        } catch {
            guard error.name == BridgeError.invalidArgument else {
                fatalError("\(what): unexpected error name \(error.name): \(error.message)")
            }
            guard !error.message.isEmpty, error.message.utf8.count <= messageLimit else {
                fatalError("\(what): message of \(error.message.utf8.count) bytes: \(error.message.prefix(200))")
            }
        }
    }
}

#if NB_LIBFUZZER
    /// libFuzzer's driver (`-sanitize=fuzzer` links it in): parses libFuzzer's options and runs the callback.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// The callback libFuzzer's own code refers to; the driver below is given the same function.
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        DecodeFuzzer.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }

    /// The program's entry point when built with `-sanitize=fuzzer -D NB_LIBFUZZER`. SwiftPM links an executable's
    /// `main` to `<module>_main`, so this, not libFuzzer's own `main`, starts the program, and hands over to libFuzzer.
    @_cdecl("notification_bridge_fuzz_main")
    func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        var count = argc
        var arguments = argv
        return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
    }
#else
    /// Without libFuzzer: `--write-seeds DIR` writes the seed corpus; any other arguments are files (or folders of
    /// files) replayed through the same checks, e.g. a crash input libFuzzer saved.
    @main
    struct ReplayMain {
        static func main() throws {
            var arguments = CommandLine.arguments.dropFirst()
            if arguments.first == "--write-seeds", arguments.count == 2 {
                let folder = URL(fileURLWithPath: arguments.last!)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for (index, seed) in try SeedCorpus.messages().enumerated() {
                    try Data(seed).write(to: folder.appendingPathComponent(String(format: "seed-%03d", index)))
                }
                return
            }
            guard !arguments.isEmpty else {
                print("usage: notification-bridge-fuzz --write-seeds DIR | FILE-OR-DIR...")
                return
            }
            var count = 0
            while let path = arguments.popFirst() {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
                let files =
                    isFolder.boolValue
                    ? try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { path + "/" + $0 }
                    : [path]
                for file in files {
                    DecodeFuzzer.run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
                    count += 1
                }
            }
            print("replayed \(count) inputs")
        }
    }
#endif
