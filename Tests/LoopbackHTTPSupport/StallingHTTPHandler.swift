package import NIOCore
package import NIOHTTP1

/// Answers each request with a head that announces a body of 100 bytes, then never sends the body.
package final class StallingHTTPHandler: ChannelInboundHandler, Sendable {
    package typealias InboundIn = HTTPServerRequestPart
    package typealias OutboundOut = HTTPServerResponsePart

    package init() {}

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = self.unwrapInboundIn(data) else { return }
        let head = HTTPResponseHead(
            version: .http1_1, status: .ok, headers: ["Content-Type": "application/octet-stream", "Content-Length": "100"])
        context.writeAndFlush(self.wrapOutboundOut(.head(head)), promise: nil)
    }
}
