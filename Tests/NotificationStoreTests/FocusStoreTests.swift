import Foundation
import Testing

@testable import NotificationStore

/// The store's table of focus modes: a row survives closing the store, a later one replaces it, and a file made
/// before the table gains it when opened.
@Suite("The store's focus modes")
struct FocusStoreTests {
    typealias Store = NotificationStoreTests.Store

    struct Modes: Codable, Sendable, Equatable {
        var on: String?
        var until: Date?
    }

    @Test("what was saved is read back after the store is closed and opened again; a later save replaces it")
    func survivesReopening() throws {
        let directory = NotificationStoreTests.TemporaryDirectory()
        let until = Date(timeIntervalSince1970: 1_750_003_600)
        do {
            let store = try Store(directory: directory.path)
            #expect(try store.readFocus(Modes.self, id: "state") == nil, "a new file has no modes")
            try store.apply(.saveFocus(try FocusRow(id: "state", Modes(on: "work", until: nil))))
            try store.apply(.saveFocus(try FocusRow(id: "state", Modes(on: "sleep", until: until))))
            store.close()
        }
        let store = try Store(directory: directory.path)
        #expect(try store.readFocus(Modes.self, id: "state") == Modes(on: "sleep", until: until))
        store.close()
    }

    @Test("a file made before the table keeps its rows and gains the table when opened")
    func upgradesOlderFile() throws {
        let directory = NotificationStoreTests.TemporaryDirectory()
        do {
            let store = try Store(directory: directory.path)
            try store.apply(.deliver(id: "a", NotificationStoreTests.Route(sender: ":1.1")))
            store.close()
        }
        let database = try SQLiteConnection(path: directory.path + "/state.db")
        try database.execute("DROP TABLE focus;")
        database.close()

        let store = try Store(directory: directory.path)
        #expect(store.movedAside.isEmpty)
        #expect(store.takeOpenedState().delivered == ["a": NotificationStoreTests.Route(sender: ":1.1")])
        try store.apply(.saveFocus(try FocusRow(id: "state", Modes(on: "work"))))
        #expect(try store.readFocus(Modes.self, id: "state") == Modes(on: "work"))
        store.close()
    }
}
