import DBusCore
import NotificationBridgeAPI
import Testing

/// The methods' arguments are read and written by one type: what a client sends is what the daemon's handler gets,
/// typed, and arguments that are not the method's are refused with a message that says what it takes.
@Suite("the interface's calls")
struct BridgeRequestTests {
    /// Arguments of the types `method` describes, each with a value a caller might send.
    static func sampleArguments(of method: BridgeMethod) -> [DBusValue] {
        method.inputs.map { input in
            switch input.signature.rawValue {
            case "s": .string("\(input.name)-of-\(method.name)")
            case "a{sv}": .vardict([input.name: .string(method.name)])
            case "as": .strings(["\(input.name)-of-\(method.name)", "another"])
            case "aa{sv}": .array(element: "a{sv}", [.vardict([ActionKeys.id.name: .string("open")]), .vardict([:])])
            default: .string("a type this test does not know: \(input.signature)")
            }
        }
    }

    @Test(
        "each method's arguments read back as they were written, in the order and types the interface describes",
        arguments: BridgeMethod.allCases)
    func roundTrip(method: BridgeMethod) throws {
        let arguments = Self.sampleArguments(of: method)
        let request = try BridgeRequest(method, arguments: arguments)
        #expect(request.method == method)
        #expect(request.arguments == arguments)
        #expect(request.arguments.map(\.signature.rawValue).joined() == method.inputSignature)
    }

    @Test(
        "a missing, extra or mistyped argument is refused, naming the signature the method takes",
        arguments: BridgeMethod.allCases)
    func refusals(method: BridgeMethod) {
        let arguments = Self.sampleArguments(of: method)
        var wrongLists = [arguments + [.string("extra")]]
        if !arguments.isEmpty {
            wrongLists.append(Array(arguments.dropLast()))
            wrongLists.append(arguments.dropLast() + [.uint32(7)])
        }
        for wrong in wrongLists {
            #expect {
                _ = try BridgeRequest(method, arguments: wrong)
            } throws: { error in
                guard let failure = error as? DBusFailure else { return false }
                return failure.name == DBusFailure.Name.invalidArgs
                    && failure.message.contains("\(method.name) takes (\(method.inputSignature))")
            }
        }
    }
}
