public import Hummingbird
public import NIOCore

/// The request context of ``AppStoreServerSimulator``'s routes: Hummingbird's core context and the connection,
/// which a scripted ``SimulatedFault/closeConnection`` closes.
public struct SimulatorRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = CoreRequestContextStorage(source: source)
        self.channel = source.channel
    }
}
