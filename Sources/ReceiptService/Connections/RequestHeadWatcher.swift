import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Sits after the HTTP decoder and tells the connection's ``RequestHeadClock`` when a request's head has been
/// decoded and when its response has ended. Once a route has closed the connection's input to refuse a body
/// (``ServerClosesInput``), the decoder's error about that body cut short goes no further: the refusal is the
/// request's one answer.
final class RequestHeadWatcher: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let clock: RequestHeadClock
    private let connections: OpenConnections
    /// Whether a route closed the input on purpose (the body it refused will never arrive whole).
    private var inputClosedByServer = false

    init(clock: RequestHeadClock, connections: OpenConnections) {
        self.clock = clock
        self.connections = connections
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = self.unwrapInboundIn(data) { self.clock.headReceived() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = self.unwrapOutboundIn(data) {
            self.clock.responseEnded()
            // Every request answered: the connection idles until its next bytes, and may be reclaimed at the cap.
            if self.clock.isBetweenRequests, !self.clock.isIdle {
                self.clock.isIdle = true
                self.connections.becameIdle(context.channel)
            }
        }
        context.write(data, promise: promise)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is ServerClosesInput else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        self.inputClosedByServer = true
        promise?.succeed(())
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if self.inputClosedByServer, error is HTTPParserError { return }
        context.fireErrorCaught(error)
    }
}
