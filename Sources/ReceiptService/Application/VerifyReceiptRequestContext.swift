public import Hummingbird
public import NIOCore

/// The request context of the service's routes: Hummingbird's core context plus the connection's channel, so that
/// a request refused for its size can end the connection instead of draining a body nobody will read.
public struct VerifyReceiptRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    public let channel: any Channel
    /// When the request reached the router: its time limit and its logged duration run from here.
    let received: ContinuousClock.Instant
    /// What the route tells ``RequestLogMiddleware`` to log about its answer.
    let log: RequestLog

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = CoreRequestContextStorage(source: source)
        self.channel = source.channel
        self.received = .now
        self.log = RequestLog()
    }
}
