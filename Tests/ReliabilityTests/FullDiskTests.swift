import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

extension Reliability {
    /// The state directory's file system is full: nothing is acknowledged that a restart would lose.
    @Suite("a full disk")
    struct FullDiskTests {
        /// A small tmpfs mounted over the daemon's state home for the test, and unmounted after it.
        struct SmallFileSystem {
            let path: String

            /// Mounts one of `kilobytes` at `path`.
            static func mount(at path: String, kilobytes: Int) async throws -> SmallFileSystem {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                let result = try await ProcessRunner.run(
                    ["mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path])
                guard result.status == 0 else {
                    throw TestSupportError("cannot mount a tmpfs at \(path): \(result.standardError)")
                }
                return SmallFileSystem(path: path)
            }

            /// Whether this machine lets the tests mount a tmpfs (root, with the privilege to mount).
            static func isAvailable() async -> Bool {
                let probe = FileManager.default.temporaryDirectory.appendingPathComponent("nb-mount-\(getpid())").path
                defer { try? FileManager.default.removeItem(atPath: probe) }
                guard let fileSystem = try? await mount(at: probe, kilobytes: 64) else { return false }
                await fileSystem.unmount()
                return true
            }

            /// Fills what is left with one file, so that the next write fails with ENOSPC.
            func fill() throws -> String {
                let filler = path + "/filler"
                let descriptor = open(filler, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else { throw TestSupportError("cannot create \(filler)") }
                defer { close(descriptor) }
                let block = [UInt8](repeating: 0x2A, count: 4096)
                while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
                return filler
            }

            func unmount() async {
                _ = try? await ProcessRunner.run(["umount", "-l", path])
            }
        }

        @Test(
            "immediate Posts with an exec route fail while the disk is full; every acknowledged one survives kill -9",
            .enabled("needs a tmpfs of its own (root with the privilege to mount)") {
                await SmallFileSystem.isAvailable()
            })
        func immediateExecPostsOnFullDisk() async throws {
            try await DaemonRig.with { rig in
                let fileSystem = try await SmallFileSystem.mount(at: rig.stateHome.path, kilobytes: 256)
                let result = await outcome { try await Self.postOnFullDisk(rig, fileSystem) }
                await fileSystem.unmount()
                try result.get()
            }
        }

        @Test(
            "started on a full disk: what was saved is restored, new Posts are refused until there is space",
            .enabled("needs a tmpfs of its own (root with the privilege to mount)") {
                await SmallFileSystem.isAvailable()
            })
        func startOnFullDisk() async throws {
            try await DaemonRig.with { rig in
                let fileSystem = try await SmallFileSystem.mount(at: rig.stateHome.path, kilobytes: 256)
                let result = await outcome { try await Self.startOnFullDisk(rig, fileSystem) }
                await fileSystem.unmount()
                try result.get()
            }
        }

        private static func startOnFullDisk(_ rig: DaemonRig, _ fileSystem: SmallFileSystem) async throws {
            let later: [String: DBusValue] = [
                PostKeys.title.name: .string("Later"), PostKeys.appName.name: .string("Disk"),
                PostKeys.delay.name: .double(3600),
            ]
            let first = try await rig.startDaemon()
            let saved = try await rig.post(later)
            first.stop()
            _ = await first.wait(within: .seconds(10))
            let filler = try fileSystem.fill()

            let second = try await rig.startDaemon()
            defer { second.stop() }
            let pending = try await rig.listed(
                BridgeMethod.listPending.name, [FilterKeys.appName.name: .string("Disk")])
            #expect(
                pending.compactMap { $0[ListedKeys.id.name]?.unwrappedVariant.stringValue } == [saved],
                "the pending notification saved before the disk filled up is restored")
            #expect(rig.logText.contains("the disk holding the saved state is full"), "the log says why")
            await #expect(throws: DBusFailure.self, "a Post that cannot be saved is refused") {
                _ = try await rig.post(later)
            }

            try FileManager.default.removeItem(atPath: filler)
            let taken = try await rig.post(later)
            let afterwards = try await rig.listed(
                BridgeMethod.listPending.name, [FilterKeys.appName.name: .string("Disk")])
            #expect(
                Set(afterwards.compactMap { $0[ListedKeys.id.name]?.unwrappedVariant.stringValue }) == [saved, taken],
                "a Post once there is space again is kept")
        }

        private static func postOnFullDisk(_ rig: DaemonRig, _ fileSystem: SmallFileSystem) async throws {
            let first = try await rig.startDaemon()
            defer { first.stop() }
            // The daemon owns its name before it has opened its state; a call answers once it has.
            _ = try await rig.listed(BridgeMethod.listPending.name)
            let filler = try fileSystem.fill()

            var acknowledged: [String] = []
            var refused: [DBusFailure] = []
            for index in 0..<20 {
                let result = await outcome {
                    try await rig.post([
                        PostKeys.title.name: .string("Transfer \(index)"), PostKeys.appName.name: .string("Disk"),
                        PostKeys.exec.name: .strings(["true"]),
                    ])
                }
                switch result {
                case .success(let id): acknowledged.append(id)
                case .failure(let error as DBusFailure): refused.append(error)
                case .failure(let error): throw error
                }
            }
            #expect(!refused.isEmpty, "a full disk must refuse Posts whose route must survive a restart")
            for failure in refused {
                #expect(BridgeError(failure) == .serverError, "\(failure)")
                #expect(failure.message.contains("could not be saved"), "\(failure.message)")
            }
            #expect(rig.logText.contains("cannot save"), "the log says why")
            // Refused ones are not showing.
            let showing = try await rig.listed(
                BridgeMethod.listDelivered.name, [FilterKeys.appName.name: .string("Disk")])
            #expect(showing.count == acknowledged.count)

            first.signal(SIGKILL)
            _ = await first.wait(within: .seconds(10))
            try FileManager.default.removeItem(atPath: filler)
            let second = try await rig.startDaemon()
            defer { second.stop() }
            let restored = try await rig.listed(
                BridgeMethod.listDelivered.name, [FilterKeys.appName.name: .string("Disk")])
            let restoredIDs = Set(restored.compactMap { $0[ListedKeys.id.name]?.unwrappedVariant.stringValue })
            #expect(
                restoredIDs.isSuperset(of: acknowledged),
                "acknowledged posts lost: \(Set(acknowledged).subtracting(restoredIDs))")
        }
    }
}
