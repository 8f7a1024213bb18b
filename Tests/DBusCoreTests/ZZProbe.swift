import DBusCore
import Testing
import Foundation

@Suite struct ZZProbe {
    @Test func run() throws { try probe(ProcessInfo.processInfo.environment["PROBE"] ?? "") }

    func probe(_ which: String) throws {
        func nest(_ n: Int, _ v: DBusValue, _ f: (DBusValue) -> DBusValue) -> DBusValue {
            var x = v; for _ in 0..<n { x = f(x) }; return x
        }
        var args: [DBusValue] = []
        switch which {
        case "empty":
            do { _ = try DBusWire.decodeArguments(from: []) ; print("empty ok") } catch { print("empty threw", error) }
            return
        case "ss": args = [.array(element: try DBusSignature("ss"), [])]
        case "longsig": args = Array(repeating: .structure([.int32(1), .int32(2)]), count: 100)
        case "trunc":
            let b = try DBusWire.encodeSignal(path: "/a", interface: "a.b", member: "C", arguments: [.string("hello")])
            for n in [1, 10, 16, b.count - 1] {
                do { _ = try DBusWire.decodeArguments(from: Array(b.prefix(n))); print("trunc", n, "ok") } catch { print("trunc", n, "threw", error) }
            }
            do { _ = try DBusWire.decodeArguments(from: Array(repeating: 0xAB, count: 64)); print("garbage ok") } catch { print("garbage threw", error) }
            var c = b; c[c.count - 3] = 0xFF
            do { let r = try DBusWire.decodeArguments(from: c); print("badutf ok", r) } catch { print("badutf threw", error) }
            do { let r = try DBusWire.decodeArguments(from: b + [1,2,3]); print("extra ok", r) } catch { print("extra threw", error) }
            return
        case "emptyElem": args = [.array(element: try DBusSignature(""), [])]
        case "deeparray":
            var v = DBusValue.string("x")
            for _ in 0..<33 { v = .array(element: v.signature, [v]) }
            args = [v]
        case "struct33": args = [nest(33, .string("x")) { .structure([$0]) }]
        case "v64": args = [nest(64, .string("x")) { .variant($0) }]
        case "v65": args = [nest(65, .string("x")) { .variant($0) }]
        default: break
        }
        do {
            let bytes = try DBusWire.encodeSignal(path: "/a", interface: "a.b", member: "C", arguments: args)
            print(which, "encoded", bytes.count)
            let d = try DBusWire.decodeArguments(from: bytes)
            print(which, "decoded", d.signature, d.arguments == args)
        } catch { print(which, "threw", error) }
    }
}
