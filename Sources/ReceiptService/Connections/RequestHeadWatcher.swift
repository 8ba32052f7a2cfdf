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
        if case .head(let head) = self.unwrapInboundIn(data) {
            self.clock.headReceived()
            if !TransferCodings.areSupported(head.headerFields[.transferEncoding]) { self.bodyRefused = true }
        }
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
        self.bodyRefused = true
        promise?.succeed(())
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if self.bodyRefused, error is HTTPParserError { return }
        context.fireErrorCaught(error)
    }
}
