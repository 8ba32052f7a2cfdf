import NIOCore
import NIOHTTP1
import Hummingbird
import NIOHTTPTypes

/// Sits after the HTTP decoder and tells the connection's ``RequestHeadClock`` when a request's head has been
/// decoded and when its response has ended. Once a route has closed the connection's input to refuse a body
/// (``ServerClosesInput``), or a head came with a transfer coding the route refuses (``TransferCodings``), the
/// decoder's error about that body goes no further: the refusal is the request's one answer.
final class RequestHeadWatcher: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let clock: RequestHeadClock
    private let connections: OpenConnections
    /// Whether the body under way is refused (the input closed on purpose, or a transfer coding not supported): the
    /// decoder's complaint about it is no second answer.
    private var bodyRefused = false

    init(clock: RequestHeadClock, connections: OpenConnections) {
        self.clock = clock
        self.connections = connections
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.clock.headReceived()
            // Each request on its own: a body in a coding the service refuses (501) is no second answer's cause.
            self.bodyRefused = !TransferCodings.areSupported(head.headerFields[.transferEncoding])
        case .end:
            self.clock.readsAtRequestEnd = self.clock.reads
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = self.unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        self.clock.responseEnded()
        guard self.clock.isBetweenRequests else {
            context.write(data, promise: promise)
            return
        }
        // Every request answered: once the answer's last bytes are written, the connection idles until its next
        // bytes (none arrived since the request's end) and may be reclaimed at the cap — or, if its place was
        // given away meanwhile, it closes.
        let written = promise ?? context.eventLoop.makePromise()
        context.write(data, promise: written)
        let clock = self.clock
        let connections = self.connections
        let channel = context.channel
        written.futureResult.assumeIsolated().whenSuccess { _ in
            guard clock.isBetweenRequests, clock.reads == clock.readsAtRequestEnd, !clock.isIdle else { return }
            if clock.reclaimRequested {
                channel.close(promise: nil)
                return
            }
            clock.isIdle = true
            connections.becameIdle(channel)
        }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is ServerClosesInput else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        self.bodyRefused = true
        promise?.succeed(())
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if self.bodyRefused, error is HTTPParserError { return }
        context.fireErrorCaught(error)
    }
}
