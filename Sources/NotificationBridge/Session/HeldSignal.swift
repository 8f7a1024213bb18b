/// A server signal held while a `Notify` sent before it is out, with its place among the signals the session took in.
struct HeldSignal: Sendable {
    /// The signal and who sent it.
    var received: ReceivedServerSignal
    /// Its number among the signals the session took in, counted from 1.
    var number: UInt64
}
