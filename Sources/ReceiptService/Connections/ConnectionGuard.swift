import NIOCore

/// The first handler of every connection, before the HTTP decoder: enforces the connection cap and the
/// header-read deadline on raw bytes.
///
/// - A connection past ``OpenConnections/limit`` (when none idles to be reclaimed) or past its address's share is
///   closed as soon as it is active; nothing of it is read.
/// - Bytes arriving on an idle connection make it busy again: it is no longer reclaimed at the cap.
/// - A request's line and headers must be decoded within the header-read timeout of the connection's opening or
///   of the request's first byte (``RequestHeadClock``); else the connection is closed. Slow-header clients
///   (slowloris) hold a connection for the timeout at most, however slowly they drip.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connections: OpenConnections
    private let clock: RequestHeadClock
    private let metrics: ServiceMetrics
    private var admitted = false

    init(connections: OpenConnections, clock: RequestHeadClock, metrics: ServiceMetrics) {
        self.connections = connections
        self.clock = clock
        self.metrics = metrics
    }

    func channelActive(context: ChannelHandlerContext) {
        if case .failure(let refusal) = self.connections.admit(context.channel, address: PeerAddress.shareKey(context.channel.remoteAddress)) {
            self.metrics.countClosedConnection(reason: refusal == .address ? .addressLimit : .connectionLimit)
            context.close(promise: nil)
            return
        }
        self.admitted = true
        self.clock.bytesMayStartHead(on: context.eventLoop)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.clock.cancel()
        if self.admitted {
            self.admitted = false
            self.connections.release(context.channel)
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard self.admitted else { return }  // refused: nothing of it reaches the decoder
        self.clock.reads &+= 1
        if self.clock.isIdle {
            self.clock.isIdle = false
            self.connections.becameBusy(context.channel)
        }
        self.clock.bytesMayStartHead(on: context.eventLoop)
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ReclaimIdleConnection else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        // Its place was given to a new connection: close now if it still idles, else after the request it began.
        if self.clock.isIdle {
            context.close(promise: nil)
        } else {
            self.clock.reclaimRequested = true
        }
    }
}
