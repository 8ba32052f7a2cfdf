import NIOCore
import NIOHTTPTypes

/// Sits after the HTTP decoder and tells the connection's ``RequestHeadClock`` when a request's head has been
/// decoded and when its response has ended.
final class RequestHeadWatcher: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let clock: RequestHeadClock

    init(clock: RequestHeadClock) {
        self.clock = clock
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = self.unwrapInboundIn(data) { self.clock.headReceived() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = self.unwrapOutboundIn(data) { self.clock.responseEnded() }
        context.write(data, promise: promise)
    }
}
