/// The probes' own listener (`metrics_listen`) could not run — most often, its address could not be bound — told
/// apart from the main listener's failure, so the message names the right address and setting.
public struct ProbeListenerFailure: Error, CustomStringConvertible {
    /// The listener that failed.
    public let listener: ProbeListener
    /// What stopped it (a NIO `IOError` for an address that could not be bound).
    public let underlying: any Error

    public var description: String { "metrics_listen \(self.listener.description): \(self.underlying)" }
}
